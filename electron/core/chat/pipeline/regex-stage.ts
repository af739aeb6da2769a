// The regex scripts in a turn, where Lumiverse runs them: prompt scripts in assembly, over the card, world info and
// history with their macros resolved, before the budget cuts the history and before the interceptors (each history
// message by its author and its depth, 0 the newest; the other texts as world info), macros resolved again in what
// they wrote; response scripts over the finished reply before it is saved. Each is a stage of the turn's breakdown
// saying which scripts changed what, and which were skipped.
import { USER_OWNER, type RegexScript } from '../../../../shared/types/regex-script';
import type { ChatMessage } from '../../../../shared/types/chat';
import type { RegexRun, RegexText, ScriptMacros } from '../../regex/regex-apply';
import { placementOf, runNotes, type RegexScripts } from '../../regex/regex-scripts';
import type { TurnTrace } from './turn-trace';
import { macroDefinitions, type MacroSources } from './macro-catalog';
import { MacroResolver } from './macros';
import type { PromptTexts } from './prompt-texts';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';
import { CHAT_TEXT_PERMISSION } from '../../../../shared/spindle/event-access';

/** The macros regex scripts may use, by who wrote them. */
export interface RegexMacros {
  /** For a script's own macro modes. */
  forScript: ScriptMacros;
  /** For what a run's scripts wrote (Lumiverse resolves the prompt's macros again after its regex pass). */
  afterRun(run: RegexRun): (text: string) => Promise<string>;
}

/**
 * Macros for regex scripts. A script's captures are chat text, and an extension's macro handler is handed its
 * arguments: so extensions' macros are offered only to scripts the person wrote or an extension that may read the
 * chat wrote (chat_mutation), and only macros of extensions that may read it too; others get the host's built-ins.
 * The sources are read and the resolvers made at the first use: a pass whose scripts use no macros reads nothing.
 */
export function regexMacros(sources: () => MacroSources | Promise<MacroSources>, readsChat: (extensionId: string) => boolean): RegexMacros {
  const made = new Map<boolean, Promise<MacroResolver>>();
  const make = (withExtensions: boolean) =>
    Promise.resolve(sources()).then((s) => new MacroResolver(macroDefinitions({ ...s, extensions: withExtensions ? s.extensions.filter((m) => readsChat(m.extensionId)) : [] })));
  const resolveWith = (trusted: boolean) => async (text: string) => {
    if (!made.has(trusted)) made.set(trusted, make(trusted));
    return (await made.get(trusted)!).resolve(text);
  };
  const trusted = (s: RegexScript) => s.owner === USER_OWNER || readsChat(s.owner);
  return { forScript: (s) => resolveWith(trusted(s)), afterRun: (run) => resolveWith(run.changed.every((c) => trusted(c.script))) };
}

/** A turn's regex macros: its macro sources, extensions' macros from the pipeline, chat readers by its permissions. */
export function turnRegexMacros(t: Omit<MacroSources, 'extensions'> & { pipeline: ExtensionPipeline | undefined }): RegexMacros {
  const { pipeline, ...sources } = t;
  return regexMacros(() => ({ ...sources, extensions: pipeline?.macros() ?? [] }), (id) => pipeline?.allowed(id, CHAT_TEXT_PERMISSION) === true);
}

export interface RegexStageInput {
  regex: RegexScripts | undefined;
  chatId: string;
  macros: RegexMacros;
  signal: AbortSignal;
}

/** The prompt's texts after the prompt scripts, and the run (null when none applies). */
export async function promptRegexTexts(input: RegexStageInput, texts: PromptTexts, history: ChatMessage[]): Promise<{ texts: PromptTexts; run: RegexRun } | null> {
  if (!input.regex) return null;
  const { card } = texts;
  const others = [texts.description, texts.personality, texts.scenario, texts.persona, card.systemPrompt, card.examples, card.postHistory, ...texts.worldInfo];
  const items: RegexText[] = [
    ...others.map((text): RegexText => ({ text, placement: 'world_info' })),
    ...texts.history.map((text, i): RegexText => ({ text, placement: placementOf(history[i]!.role), depth: history.length - 1 - i })),
  ];
  const run = await input.regex.apply('prompt', input.chatId, items, { macros: input.macros.forScript, signal: input.signal });
  if (!run) return null;
  const again = input.macros.afterRun(run);
  const out = await Promise.all(run.texts.map((text, i) => (text === items[i]!.text ? text : again(text))));
  const [description, personality, scenario, persona, systemPrompt, examples, postHistory] = out;
  const worldInfo = out.slice(7, others.length);
  return {
    texts: { description: description!, personality: personality!, scenario: scenario!, persona: persona!, card: { systemPrompt: systemPrompt!, examples: examples!, postHistory: postHistory! }, worldInfo, history: out.slice(others.length) },
    run,
  };
}

/** The reply's text after the response-target scripts, as it is saved. */
export async function responseRegex(input: RegexStageInput & { trace: TurnTrace }, text: string): Promise<string> {
  if (!input.regex || text === '') return text;
  const started = input.trace.start('regex');
  const run = await input.regex.apply('response', input.chatId, [{ text, placement: 'ai_output', depth: 0 }], { macros: input.macros.forScript, signal: input.signal });
  if (!run) return text;
  started.end(text, run.texts[0]!, describeRun(run, 'reply'));
  return run.texts[0]!;
}

/** What a run did, for the breakdown: the scripts that changed something (and their extension), those skipped. */
export function describeRun(run: RegexRun, what: 'message' | 'reply'): string {
  const changed = run.changed.map(({ script, texts }) => `"${script.name}"${script.owner ? ` (${script.owner})` : ''}${what === 'message' ? ` changed ${texts} text${texts === 1 ? '' : 's'}` : ''}`);
  const said = [changed.length ? `${what === 'reply' ? 'the reply as saved: ' : ''}${changed.join(', ')}` : 'no script changed anything', ...runNotes(run)];
  return said.join('; ');
}
