// Prompt assembly: macros resolved in the character, persona, world info and messages, then the system prompt
// and history built from them. The council's blocks are added after resolution (tool output is never expanded),
// unless the card placed the deliberation itself with {{lumiaCouncilDeliberation}}.
import type { PromptReport } from '../../../../shared/types/chat';
import type { LlmMessage } from '../../../../shared/types/llm';
import type { ChatMessage } from '../../../../shared/types/chat';
import { buildPrompt, type KeptParts } from '../prompt';
import type { MessageSource } from './extension-stages';
import type { BudgetLimits } from '../prompt-budget';
import type { MacroNote } from './macros';
import { macroResolver, type MacroSources } from './macro-catalog';
import { assemblyViews, type AssemblyView } from './assembly-views';
import { mapTexts, textsOf, withTexts } from './prompt-texts';
import { describeRun, promptRegexTexts, type RegexStageInput } from './regex-stage';
import { assembleFromPreset, type PresetChoice } from './preset-assembly';

export interface AssembleInput extends Omit<MacroSources, 'deliberation'> {
  /** The Lumiverse preset the prompt is built from (absent: the Workbench's own prompt). */
  preset?: PresetChoice;
  deliberationBlock?: string;
  referenceBlock?: string;
  limits?: BudgetLimits;
  /** The clock macros are timed by (the turn's). */
  now?: () => number;
  /** The prompt's regex scripts (absent: none run). */
  regex?: RegexStageInput;
}

export interface Assembled {
  messages: LlmMessage[];
  report: PromptReport;
  /** The prompt after each step of assembly, for the breakdown; the last is `messages`. */
  views: AssemblyView[];
  /** What went wrong with macros that did not resolve. */
  notes: MacroNote[];
  /** The chat message each of `messages` came from (null: the system prompt). */
  sources: Array<MessageSource | null>;
  /** What the reply starts with (a preset's prefill, the prompt's last message), macros resolved. */
  prefill?: string;
}

/** The system prompt comes first, then the history's messages it kept, in order (prompt.ts). */
const sourcesOf = (history: ChatMessage[], kept: KeptParts): Array<MessageSource | null> => [null, ...kept.history.map((i) => ({ id: history[i]!.id, index: i }))];

export async function assemblePrompt(input: AssembleInput): Promise<Assembled> {
  const resolver = macroResolver({ ...input, deliberation: input.deliberationBlock ?? '' }, input.now ? { now: input.now } : {});
  const { session, history } = input;
  const resolved = await mapTexts(textsOf(session, history), (text, origin) => resolver.resolve(text, origin));
  const placed = resolver.used.has('lumiacouncildeliberation');
  const blocks = {
    ...(input.deliberationBlock && !placed ? { deliberationBlock: input.deliberationBlock } : {}),
    ...(input.referenceBlock ? { referenceBlock: input.referenceBlock } : {}),
  };
  const limits = input.limits ? { limits: input.limits } : {};
  const started = input.now?.() ?? 0;
  const regexed = input.regex ? await promptRegexTexts(input.regex, resolved, history) : null;
  const spent = (input.now?.() ?? 0) - started;
  // World info fires on the history as it was before the scripts, as in Lumiverse (its scan comes first).
  if (input.preset) {
    const council = { ...(input.deliberationBlock ? { deliberationBlock: input.deliberationBlock } : {}), ...(input.referenceBlock ? { referenceBlock: input.referenceBlock } : {}) };
    const parts = { ...withTexts(session, history, regexed?.texts ?? resolved), ...council, ...limits, ...(regexed ? { loreScan: resolved.history } : {}) };
    const fromPreset = await assembleFromPreset(input.preset, parts, resolver, history);
    return { ...fromPreset, notes: [...resolver.notes] };
  }
  const built = buildPrompt({ ...withTexts(session, history, regexed?.texts ?? resolved), ...blocks, ...limits, ...(regexed ? { loreScan: resolved.history } : {}) });
  if (!regexed || (regexed.run.changed.length === 0 && regexed.run.failed.length === 0)) {
    const views = await assemblyViews({ resolver, session, history, report: built.report, kept: built.kept, messages: built.messages, blocks });
    return { messages: built.messages, report: built.report, views, notes: [...resolver.notes], sources: sourcesOf(history, built.kept) };
  }
  // The steps up to the macros show the prompt as it was before the scripts; the regex step, the prompt as sent.
  const before = buildPrompt({ ...withTexts(session, history, resolved), ...blocks, ...limits });
  const views = await assemblyViews({ resolver, session, history, report: before.report, kept: before.kept, messages: before.messages, blocks });
  const cut = built.report.cutMessages === before.report.cutMessages ? [] : [`${built.report.cutMessages} oldest messages left out to fit (${before.report.cutMessages} before the scripts)`];
  views.push({ stage: 'regex', by: 'host', messages: built.messages, note: [describeRun(regexed.run, 'message'), ...cut, `≈${built.report.total} tokens`].join('; '), ms: spent });
  return { messages: built.messages, report: built.report, views, notes: [...resolver.notes], sources: sourcesOf(history, built.kept) };
}
