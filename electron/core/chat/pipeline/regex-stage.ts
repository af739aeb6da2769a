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
import { chatReaders, extensionMacroSources, macroResolver, type MacroSources } from './macro-catalog';
import type { MacroResolver } from './macros';
import type { PatternTest } from './builtin-macros';
import type { PromptTexts } from './prompt-texts';
import type { ExtensionPipeline } from '../../extensions/pipeline/pipeline-bridge';

/** The macros regex scripts may use, by who wrote them. */
export interface RegexMacros {
  /** For a script's own macro modes. */
  forScript: ScriptMacros;
  /** For what a run's scripts wrote (Lumiverse resolves the prompt's macros again after its regex pass). */
  afterRun(run: RegexRun): (text: string) => Promise<string>;
  /** Whether a script may write a macro into text that is kept (a stored reply's macros run at every later turn). */
  mayAddMacros(script: RegexScript): boolean;
}

/**
 * How far a script's macros reach. A script's captures are chat text, and an extension's macro handler is handed its
 * arguments: the person's scripts reach every macro (as their card does); an extension that may read the chat
 * (chat_mutation) reaches those of extensions that may read it too; any other extension's, the built-ins and the
 * values extensions pushed (no handler runs).
 */
enum Reach {
  Values = 0,
  Readers = 1,
  All = 2,
}

/** Macros for regex scripts by their reach; the sources are read and each resolver made at its first use. */
export function regexMacros(sources: () => MacroSources | Promise<MacroSources>, readsChat: (extensionId: string) => boolean): RegexMacros {
  const made = new Map<Reach, Promise<MacroResolver>>();
  const offered = (reach: Reach, m: MacroSources['extensions'][number]) => reach === Reach.All || m.value !== undefined || (reach === Reach.Readers && readsChat(m.extensionId));
  const make = (reach: Reach) => Promise.resolve(sources()).then((s) => macroResolver({ ...s, extensions: s.extensions.filter((m) => offered(reach, m)) }));
  const resolveWith = (reach: Reach) => async (text: string) => {
    if (!made.has(reach)) made.set(reach, make(reach));
    return (await made.get(reach)!).resolve(text);
  };
  const reachOf = (s: RegexScript) => (s.owner === USER_OWNER ? Reach.All : readsChat(s.owner) ? Reach.Readers : Reach.Values);
  return {
    forScript: (s) => resolveWith(reachOf(s)),
    afterRun: (run) => resolveWith(Math.min(Reach.All, ...run.changed.map((c) => reachOf(c.script)))),
    mayAddMacros: (s) => reachOf(s) !== Reach.Values,
  };
}

/** {{matches}}'s patterns on the regex scripts' thread, when the chat has one (macro sources' `patterns`). */
export function patternsOf(regex: RegexScripts | undefined): { patterns?: PatternTest } {
  return regex ? { patterns: (pattern, flags, text) => regex.test(pattern, flags, text) } : {};
}

/** A turn's regex macros: its macro sources, extensions' macros from the pipeline, chat readers by its permissions. */
export function turnRegexMacros(t: Omit<MacroSources, 'extensions'> & { pipeline: ExtensionPipeline | undefined }): RegexMacros {
  const { pipeline, ...sources } = t;
  return regexMacros(() => ({ ...sources, ...extensionMacroSources(pipeline) }), chatReaders(pipeline));
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
  // Empty texts (a card without a scenario) stay empty: a rule anchored at a text's start would make them sections.
  const filled = items.flatMap((item, i) => (item.text ? [i] : []));
  const run = await input.regex.apply('prompt', input.chatId, filled.map((i) => items[i]!), { macros: input.macros.forScript, signal: input.signal });
  if (!run) return null;
  const again = input.macros.afterRun(run);
  const out = items.map((item) => item.text);
  await Promise.all(filled.map(async (i, k) => (out[i] = run.texts[k] === items[i]!.text ? items[i]!.text : await again(run.texts[k]!))));
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
  const run = await input.regex.apply('response', input.chatId, [{ text, placement: 'ai_output', depth: 0 }], { macros: input.macros.forScript, mayAddMacros: input.macros.mayAddMacros, signal: input.signal });
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
