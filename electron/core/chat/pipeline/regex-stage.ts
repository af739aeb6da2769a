// The regex scripts in a turn, where Lumiverse runs them: prompt scripts over the messages going to the model, after
// the interceptors (each history message by its author and its depth, 0 the newest; the system prompt as world
// info), and response scripts over the finished reply before it is saved. Each is a stage of the turn's breakdown
// saying which scripts changed what, and which were skipped.
import type { LlmMessage } from '../../../../shared/types/llm';
import type { RegexRun, RegexText } from '../../regex/regex-apply';
import { placementOf, runNotes, type RegexScripts } from '../../regex/regex-scripts';
import type { TurnTrace } from './turn-trace';
import { renderMessages } from './extension-stages';
import { macroDefinitions, type MacroSources } from './macro-catalog';
import { MacroResolver } from './macros';

export interface RegexStageInput {
  regex: RegexScripts | undefined;
  chatId: string;
  trace: TurnTrace;
  /** The turn's macros, for scripts whose substitute_macros asks for them. */
  macros?: (text: string) => Promise<string>;
  signal: AbortSignal;
}

/** The prompt after its prompt-target scripts (the same messages when none applies). */
export async function promptRegex(input: RegexStageInput, messages: LlmMessage[]): Promise<LlmMessage[]> {
  if (!input.regex) return messages;
  const spoken = messages.filter((m) => m.role === 'user' || m.role === 'assistant').length;
  let seen = 0;
  const items: RegexText[] = messages.map((m) => {
    if (m.role !== 'user' && m.role !== 'assistant') return { text: m.content, placement: 'world_info' };
    return { text: m.content, placement: placementOf(m.role), depth: spoken - 1 - seen++ };
  });
  const started = input.trace.start('regex');
  const run = await input.regex.apply('prompt', input.chatId, items, options(input));
  if (!run) return messages;
  const after = messages.map((m, i) => (run.texts[i] === m.content ? m : { ...m, content: run.texts[i]! }));
  started.end(renderMessages(messages), renderMessages(after), describe(run, 'message'));
  return after;
}

/** The reply's text after the response-target scripts, as it is saved. */
export async function responseRegex(input: RegexStageInput, text: string): Promise<string> {
  if (!input.regex || text === '') return text;
  const started = input.trace.start('regex');
  const run = await input.regex.apply('response', input.chatId, [{ text, placement: 'ai_output', depth: 0 }], options(input));
  if (!run) return text;
  started.end(text, run.texts[0]!, describe(run, 'reply'));
  return run.texts[0]!;
}

/** The turn's macros for the scripts that ask for them, the resolver made at the first use. */
export function regexMacros(sources: MacroSources): (text: string) => Promise<string> {
  let resolver: MacroResolver | undefined;
  return (text) => (resolver ??= new MacroResolver(macroDefinitions(sources))).resolve(text);
}

const options = ({ macros, signal }: RegexStageInput) => ({ signal, ...(macros ? { macros } : {}) });

function describe(run: RegexRun, what: 'message' | 'reply'): string {
  const changed = run.changed.map(({ script, texts }) => `"${script.name}"${script.owner ? ` (${script.owner})` : ''}${what === 'message' ? ` changed ${texts} message${texts === 1 ? '' : 's'}` : ''}`);
  const said = [changed.length ? `${what === 'reply' ? 'the reply as saved: ' : ''}${changed.join(', ')}` : 'no script changed anything', ...runNotes(run)];
  return said.join('; ');
}
