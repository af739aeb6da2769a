// The context budget: tokens are estimated (no tokenizer ships for every model), the world info gets a share of the
// budget (SillyTavern's default, 25 %) and entries past it are left out last-inserted first, then the oldest history
// messages go until the prompt fits; the newest message always stays.
import type { ChatMessage } from '../../../shared/types/chat';

/** SillyTavern's default world-info budget: a quarter of the context. */
export const WORLD_INFO_SHARE = 0.25;

const WIDE = /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** About four characters a token in alphabetic scripts; a CJK or Hangul character is about one. */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const wide = text.match(WIDE)?.length ?? 0;
  return Math.ceil(wide + (text.length - wide) / 4);
}

export interface BudgetLimits {
  /** Tokens the model reads at most (prompt and reply together). */
  contextSize?: number | undefined;
  /** Tokens kept free for the reply. */
  maxTokens?: number | undefined;
}

/** The prompt budget: the context less the reply's tokens (undefined: no limit). */
export function promptBudget(limits: BudgetLimits): number | undefined {
  return limits.contextSize === undefined ? undefined : Math.max(0, limits.contextSize - (limits.maxTokens ?? 0));
}

/** Which entries fit their share of the budget, in insertion order: from the first that does not fit on, none do. */
export function fitWorldInfo(tokens: number[], budget: number | undefined): boolean[] {
  const share = budget === undefined ? Infinity : Math.floor(budget * WORLD_INFO_SHARE);
  let used = 0;
  let full = false;
  return tokens.map((t) => {
    full ||= used + t > share;
    if (!full) used += t;
    return !full;
  });
}

/** How many of the oldest messages to leave out so the history fits in `room` tokens (the newest one always stays). */
export function cutHistory(history: ChatMessage[], room: number | undefined): { cut: number; tokens: number } {
  const sizes = history.map((m) => estimateTokens(m.content));
  const all = sizes.reduce((a, b) => a + b, 0);
  if (room === undefined || all <= room) return { cut: 0, tokens: all };
  let kept = 0;
  let tokens = 0;
  for (let i = sizes.length - 1; i >= 0; i--) {
    if (kept > 0 && tokens + sizes[i]! > room) break;
    tokens += sizes[i]!;
    kept++;
  }
  return { cut: history.length - kept, tokens };
}
