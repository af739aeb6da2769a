// A turn's prompt from the chosen Lumiverse preset (presets/preset-prompt.ts), with the turn's macros resolved in each
// block as in the texts of the chat: one view for the breakdown (the preset's own steps are its blocks).
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import type { LlmMessage } from '../../../../shared/types/llm';
import { buildPresetPrompt } from '../preset-prompt';
import type { PromptBlock } from '../../presets/preset-blocks';
import type { BudgetLimits } from '../prompt-budget';
import type { CardPrompts } from '../prompt';
import type { MacroResolver } from './macros';
import type { MessageSource } from './extension-stages';
import type { AssemblyView } from './assembly-views';

export interface PresetChoice {
  blocks: readonly PromptBlock[];
  name: string;
  generationType: string;
  /** Its "Start Reply With" (completionSettings.assistantPrefill), macros not yet resolved. */
  prefill?: string;
}

export interface PresetParts {
  session: ChatSession;
  history: ChatMessage[];
  card: CardPrompts;
  deliberationBlock?: string;
  referenceBlock?: string;
  limits?: BudgetLimits;
  loreScan?: string[];
}

export async function assembleFromPreset(choice: PresetChoice, parts: PresetParts, resolver: MacroResolver, history: ChatMessage[]) {
  // Markers take the chat's own texts; every other enabled block's content has its macros resolved.
  const live = choice.blocks.filter((b) => b.enabled !== false && typeof b.content === 'string' && b.content !== '' && b.marker !== 'chat_history');
  const contents = new Map(await Promise.all(live.map(async (b) => [b.id, await resolver.resolve(String(b.content), { chatText: false })] as const)));
  // A block may place the council's deliberation itself ({{lumiaCouncilDeliberation}}): then it is not added again.
  const { deliberationBlock, ...rest } = parts;
  const placed = resolver.used.has('lumiacouncildeliberation');
  // The reply starts with the preset's prefill: the prompt ends with it as the assistant's, as Lumiverse's does.
  const prefill = choice.prefill ? await resolver.resolve(choice.prefill, { chatText: false }) : '';
  const built = buildPresetPrompt({ ...rest, ...(deliberationBlock && !placed ? { deliberationBlock } : {}), blocks: choice.blocks, contents, generationType: choice.generationType, ...(prefill ? { prefill } : {}) });
  const sources: Array<MessageSource | null> = built.sources.map((i) => (i === null ? null : { id: history[i]!.id, index: i }));
  const messages = built.messages as LlmMessage[];
  const note = [`preset "${choice.name}"`, ...(built.report.cutMessages ? [`${built.report.cutMessages} oldest messages left out to fit`] : []), ...(prefill ? ['the reply starts with its prefill'] : []), `≈${built.report.total} tokens`].join('; ');
  const views: AssemblyView[] = [{ stage: 'assembly', by: 'host', messages, note }];
  return { messages, report: built.report, views, sources, ...(prefill ? { prefill } : {}) };
}
