// Prompt assembly: macros resolved in the character, persona, world info and messages, then the system prompt
// and history built from them. The council's blocks are added after resolution (tool output is never expanded),
// unless the card placed the deliberation itself with {{lumiaCouncilDeliberation}}.
import type { PromptReport } from '../../../../shared/types/chat';
import type { LlmMessage } from '../../../../shared/types/llm';
import { buildPrompt } from '../prompt';
import type { BudgetLimits } from '../prompt-budget';
import { MACRO_LIMITS, MacroResolver, type MacroNote } from './macros';
import { macroDefinitions, type MacroSources } from './macro-catalog';
import { assemblyViews, type AssemblyView } from './assembly-views';
import { mapTexts, textsOf, withTexts } from './prompt-texts';

export interface AssembleInput extends Omit<MacroSources, 'deliberation'> {
  deliberationBlock?: string;
  referenceBlock?: string;
  limits?: BudgetLimits;
  /** The clock macros are timed by (the turn's). */
  now?: () => number;
}

export interface Assembled {
  messages: LlmMessage[];
  report: PromptReport;
  /** The prompt after each step of assembly, for the breakdown; the last is `messages`. */
  views: AssemblyView[];
  /** What went wrong with macros that did not resolve. */
  notes: MacroNote[];
}

export async function assemblePrompt(input: AssembleInput): Promise<Assembled> {
  const resolver = new MacroResolver(macroDefinitions({ ...input, deliberation: input.deliberationBlock ?? '' }), MACRO_LIMITS, input.now);
  const { session, history } = input;
  const resolved = await mapTexts(textsOf(session, history), (text) => resolver.resolve(text));
  const placed = resolver.used.has('lumiacouncildeliberation');
  const blocks = {
    ...(input.deliberationBlock && !placed ? { deliberationBlock: input.deliberationBlock } : {}),
    ...(input.referenceBlock ? { referenceBlock: input.referenceBlock } : {}),
  };
  const { messages, report, kept } = buildPrompt({ ...withTexts(session, history, resolved), ...blocks, ...(input.limits ? { limits: input.limits } : {}) });
  const views = await assemblyViews({ resolver, session, history, report, kept, messages, blocks });
  return { messages, report, views, notes: [...resolver.notes] };
}
