// spindle.generate.dryRun: the prompt a turn of the chat would send now, built and not sent, in Lumiverse's
// DryRunResultDTO (messages, breakdown, parameters, model, provider, token count, world info stats). Megumin Suite's
// prompt preview and LumiAgent's dry_run_prompt tool read it; the Workbench builds it as a turn does (prompt-preview.ts).
// spindle.assemble builds the prompt of an extension's own blocks the same way, without the turn's hooks (Workshop's
// live preview, VELLUM's style sample).
import type { PromptReport } from '../../../../shared/types/chat';
import type { SpindleHandler } from './handlers';
import { fail } from './handlers';
import type { ChatReads, PreviewRequest, PreviewView } from './chat-data';

/** Lumiverse's generation types, as a turn here has them (impersonate and quiet build a normal turn). */
function generationTypeOf(raw: string | undefined): PreviewRequest['generationType'] {
  return raw === 'continue' || raw === 'regenerate' || raw === 'swipe' ? raw : 'normal';
}

const PARTS: Array<[keyof PromptReport['parts'], string, string]> = [
  ['system', 'system', 'System prompt'],
  ['character', 'character', 'Character'],
  ['worldInfo', 'world_info', 'World info'],
  ['deliberation', 'deliberation', 'Council deliberation'],
  ['history', 'chat_history', 'Chat history'],
];

/** The prompt by part (estimated tokens: the Workbench counts by estimate, so no tokenizer is named). */
function breakdownOf(report: PromptReport | undefined) {
  if (!report) return { breakdown: [] };
  const parts = PARTS.filter(([key]) => report.parts[key] > 0).map(([key, type, name]) => ({ type, name, tokens: report.parts[key] }));
  const included = report.worldInfo.filter((hit) => hit.included);
  return {
    breakdown: parts.map(({ type, name, tokens }) => ({ type, name, preCountedTokens: tokens })),
    tokenCount: { total_tokens: report.total, breakdown: parts, tokenizer_id: null, tokenizer_name: 'estimate' },
    worldInfoStats: {
      totalCandidates: report.worldInfo.length,
      activatedBeforeBudget: report.worldInfo.length,
      activatedAfterBudget: included.length,
      evictedByBudget: report.worldInfo.length - included.length,
      evictedByMinPriority: 0,
      estimatedTokens: included.reduce((sum, hit) => sum + hit.tokens, 0),
      recursionPassesUsed: 0,
    },
  };
}

/** The answer in Lumiverse's shape; the parameters asked for go over the ones the turn would send, as Lumiverse merges them. */
export function dryRunResult(view: PreviewView, asked: Record<string, unknown> | undefined) {
  return {
    messages: view.messages,
    ...breakdownOf(view.report),
    parameters: { ...view.parameters, ...(asked ?? {}) },
    model: view.model,
    provider: view.provider,
  };
}

/** Lumiverse's cap on the blocks an extension assembles, as JSON. */
export const MAX_ASSEMBLY_BLOCK_BYTES = 1_000_000;

export function dryRunHandler(chats: () => ChatReads | null): { 'generate.dryRun': SpindleHandler<'generate.dryRun'>; assemble: SpindleHandler<'assemble'> } {
  const readsOf = (chatId: string) => {
    const reads = chats();
    if (!reads || !reads.saved(chatId)) fail('NOT_FOUND', `No Workbench session ${chatId}.`, '/chatId');
    return reads;
  };
  return {
    // spindle.assemble: Lumiverse's assembleSpindleBlocks — the blocks as a preset of their own, the prompt built (world
    // info interceptors run inside the assembly, as there) and no context handler or prompt interceptor run on it.
    assemble: async ({ input }, caller, call) => {
      if (Buffer.byteLength(JSON.stringify(input.blocks)) > MAX_ASSEMBLY_BLOCK_BYTES) fail('INPUT_TOO_LARGE', `The blocks are at most ${MAX_ASSEMBLY_BLOCK_BYTES} bytes of JSON.`, '/input/blocks');
      const view = await readsOf(input.chatId).preview(input.chatId, {
        ...(input.connectionId !== undefined ? { connectionId: input.connectionId } : {}),
        generationType: generationTypeOf(input.generationType),
        signal: call.signal,
        assembly: { owner: caller.extensionId, blocks: input.blocks, promptVariables: input.promptVariables ?? {} },
      });
      return { messages: view.messages, breakdown: breakdownOf(view.report).breakdown };
    },
    'generate.dryRun': async ({ input }, _caller, call) => {
      const view = await readsOf(input.chatId).preview(input.chatId, {
        ...(input.connectionId !== undefined ? { connectionId: input.connectionId } : {}),
        ...(input.presetId !== undefined ? { presetId: input.presetId } : {}),
        generationType: generationTypeOf(input.generationType),
        signal: call.signal,
      });
      if (view.cancelledBy) fail('CANCELLED', `The extension ${view.cancelledBy} cancelled the generation (a context handler), so no prompt was built.`);
      return dryRunResult(view, input.parameters);
    },
  };
}
