// What the chat needs from the council: a deliberation before the reply (sidecar mode) and the tools members bring (inline mode).
import type { HostError } from '../../../shared/errors';
import type { CouncilChat, InlineTool } from '../../../shared/types/council';

/** The chat a council run analyses: the council's own CouncilChat shape (chatId = the session id). */
export type CouncilChatContext = CouncilChat;

export interface CouncilRunOutcome {
  /** The `## Council Deliberation` block injected into the main system prompt. */
  deliberationBlock: string;
  /** The `## Previous Council Deliberations — REFERENCE ONLY` history block, main model only. */
  referenceBlock?: string;
  runId: string;
  /** A regeneration answered with the results of the last run (the council's retainResultsForRegens). */
  reused?: boolean;
}

/** A function inline mode offers the main model: the council names and describes it (council/inline-functions.ts). */
export type { InlineTool } from '../../../shared/types/council';

export interface CouncilPort {
  /** `regen`: the same last message again; the council reuses its last results when its settings say so. */
  run(chat: CouncilChatContext, signal: AbortSignal, options?: { dryRun?: boolean; regen?: boolean }): Promise<CouncilRunOutcome>;
  /** Inline mode's functions for the main model; absent, a turn offers none. */
  inlineTools?(): InlineTool[];
}

export type CouncilFailure = HostError;
