// The main model's sampling for a turn: the connection's default (chat settings) with the session's own over it.
import type { ChatSession, ChatSettings, Sampling } from '../../../shared/types/chat';
import type { LlmRequest } from '../../../shared/types/llm';
import type { BudgetLimits } from './prompt-budget';

export function turnSampling(chat: ChatSettings, session: ChatSession, connectionId: string): Sampling {
  return { ...(chat.connectionSampling?.[connectionId] ?? {}), ...(session.sampling ?? {}) };
}

/** What the request carries (unset fields are left to the provider). */
export function samplingParameters(s: Sampling): Pick<LlmRequest, 'temperature' | 'topP' | 'maxTokens' | 'stopSequences'> {
  return {
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.topP !== undefined ? { topP: s.topP } : {}),
    ...(s.maxTokens !== undefined ? { maxTokens: s.maxTokens } : {}),
    ...(s.stop?.length ? { stopSequences: s.stop } : {}),
  };
}

export function budgetLimits(s: Sampling): BudgetLimits {
  return { contextSize: s.contextSize, maxTokens: s.maxTokens };
}
