// The chat's live events, host → renderer: a turn's text, tool calls, council, end and trace, and session changes.
import type { HostError } from '../errors';
import type { LlmFinishReason, LlmUsage } from './llm';
import type { PromptReport, TurnStage } from './chat';

// Events (host → renderer)

/** Why a turn ended: the model's reason, or ours. */
export type ChatFinishReason = LlmFinishReason | 'stopped' | 'error' | 'tool-round-cap' | 'tool-loop' | 'dry-run';

/**
 * Inline tool-call progress, in seed 004 order per call: started → name → args* → ended | failed,
 * then result (the tool's outcome as returned to the model). `failed` calls still get a `result`
 * carrying the error the model was sent.
 */
export type ChatToolCallPhase =
  | { phase: 'started'; callId: string; index: number }
  | { phase: 'name'; callId: string; name: string; qualifiedName: string | null; memberName: string | null }
  | { phase: 'args'; callId: string; delta: string }
  | { phase: 'ended'; callId: string; argsText: string }
  | { phase: 'failed'; callId: string; argsText: string; error: HostError }
  | { phase: 'result'; callId: string; ok: boolean; content: string; errorCode?: string; durationMs: number; simulated?: boolean; unvalidated?: boolean; cached?: boolean; unoffered?: boolean };

export type ChatCouncilPhase =
  | { phase: 'started'; runId: string | null }
  | { phase: 'completed'; runId: string; reused: boolean; deliberationChars: number }
  | { phase: 'failed'; error: HostError }
  | { phase: 'skipped'; reason: string };

export type ChatEvent =
  /** Coalesced text: `text` is appended to the turn's text; `seq` increases by one per delta event. */
  | { type: 'chat.delta'; sessionId: string; turnId: string; messageId: string; seq: number; text: string }
  /** A batch of the model's reasoning, appended to the turn's; shown folded above the reply, never part of its text. */
  | { type: 'chat.reasoning'; sessionId: string; turnId: string; messageId: string; text: string }
  | ({ type: 'chat.toolCall'; sessionId: string; turnId: string; round: number } & ChatToolCallPhase)
  | ({ type: 'chat.council'; sessionId: string; turnId: string } & ChatCouncilPhase)
  | {
      type: 'chat.finished';
      sessionId: string;
      turnId: string;
      messageId: string;
      finishReason: ChatFinishReason;
      usage: LlmUsage | null;
      /** Human explanation of an unusual end (round cap, stop). */
      reason?: string;
      error?: HostError;
      /** A dry run: the final prompt as it would have been sent (council and interceptors included), and the tools offered. */
      prompt?: Array<{ role: string; content: string }>;
      tools?: string[];
      /** A dry run: the prompt by part and what the budget left out. */
      report?: PromptReport;
    }
  | { type: 'chat.error'; sessionId: string; turnId: string; error: HostError }
  /** The turn's prompt breakdown, once the prompt is final (before generation), and again with the reply. */
  | { type: 'chat.trace'; sessionId: string; turnId: string; stages: TurnStage[] }
  /** The session list or a session's content changed (created, renamed, deleted, imported, message saved). */
  | { type: 'chat.sessions.changed'; sessionId: string; change: 'created' | 'updated' | 'deleted' };
