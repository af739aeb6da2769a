// The live state of each session's running (or last) chat turn, and the pure reducer that folds chat.* events into it.
import type { MethodOutput } from '../../../../shared/contract';
import { SESSION_LIMITS } from '../../../../shared/types/chat';
import type { HostError } from '../../../../shared/errors';
import type { ChatEvent, ChatFinishReason } from '../../../../shared/types/chat-events';
import type { LlmUsage } from '../../../../shared/types/llm';

/** Every chat event except the session-list one: the events that belong to a turn. */
export type ChatTurnEvent = Exclude<ChatEvent, { type: 'chat.sessions.changed' }>;

export type TurnStarted = MethodOutput<'chat.send'>;

/**
 * One tool call as a card, following seed 004's order: started → name → args* → ended | failed,
 * then the result. `phase` is the furthest phase seen.
 */
export interface ToolCallCard {
  callId: string;
  index: number;
  round: number;
  /** How much of the turn's text had streamed when the call started: the card is drawn at that point of the text. */
  textOffset: number;
  phase: 'started' | 'named' | 'arguments' | 'ended' | 'failed';
  name: string | null;
  qualifiedName: string | null;
  memberName: string | null;
  /** The argument text as it grows (the final text once ended or failed). */
  argsText: string;
  /** Why the call could not be used (failed phase). */
  error: HostError | null;
  result: { ok: boolean; content: string; errorCode?: string; durationMs: number; simulated?: boolean; unvalidated?: boolean; cached?: boolean; unoffered?: boolean } | null;
}

export type CouncilState =
  | { phase: 'started'; runId: string | null }
  | { phase: 'completed'; runId: string; reused: boolean; deliberationChars: number }
  | { phase: 'failed'; error: HostError }
  | { phase: 'skipped'; reason: string };

export interface LiveTurn {
  turnId: string;
  sessionId: string;
  /** The assistant message the turn streams into ('' until the host has said). */
  assistantMessageId: string;
  /** The user message this turn answers, once chat.send returned (absent for regenerate). */
  userMessageId: string | null;
  /** What the user typed, shown at once while the host saves it. */
  userText: string | null;
  /**
   * The turn writes into a saved reply (its assistantMessageId): regenerate adds a swipe, continue adds to its text
   * (prefix: the text so far). Shown in that reply's place until the session is read again after the turn.
   */
  rework: Rework | null;
  /** Text streamed so far. */
  text: string;
  /** What a reasoning model thought so far (shown folded above the text). */
  reasoning: string;
  /** The last chat.delta seq applied (-1: none). */
  lastSeq: number;
  toolCalls: ToolCallCard[];
  council: CouncilState | null;
  status: 'streaming' | 'finished';
  /** The user pressed Stop and the host has not finished the turn yet. */
  stopping: boolean;
  finishReason: ChatFinishReason | 'interrupted' | null;
  /** A human explanation of an unusual end. */
  reason: string | null;
  usage: LlmUsage | null;
  error: HostError | null;
  /** Dry run: the prompt that would be sent and the functions offered. */
  dryRun: { prompt: NonNullable<TurnStarted['prompt']>; tools: string[] } | null;
}

export interface Rework {
  /** The session's updatedAt when the turn started: a newer copy holds the turn's result. */
  since: number;
  /** continue: the reply's text before the turn (the live text follows it). */
  prefix: string | null;
}

export interface TurnExtra {
  userText?: string;
  rework?: Rework;
}

export function newTurn(sessionId: string, turnId: string): LiveTurn {
  return {
    turnId,
    sessionId,
    assistantMessageId: '',
    userMessageId: null,
    userText: null,
    rework: null,
    text: '',
    reasoning: '',
    lastSeq: -1,
    toolCalls: [],
    council: null,
    status: 'streaming',
    stopping: false,
    finishReason: null,
    reason: null,
    usage: null,
    error: null,
    dryRun: null,
  };
}

/** The turn chat.send / chat.regenerate started, merged with whatever of it already streamed in. */
export function withTurnStarted(existing: LiveTurn | undefined, started: TurnStarted, extra: TurnExtra): LiveTurn {
  const base = existing && existing.turnId === started.turnId ? existing : newTurn(started.sessionId, started.turnId);
  return {
    ...base,
    assistantMessageId: started.assistantMessageId,
    userMessageId: started.userMessageId ?? null,
    userText: extra.userText ?? base.userText,
    rework: extra.rework ?? base.rework,
    dryRun: started.prompt ? { prompt: started.prompt, tools: started.tools ?? [] } : base.dryRun,
  };
}

/** A turn being built from a batch of events: text gathered in parts, arrays copied once. */
interface Draft {
  turn: LiveTurn;
  parts: string[];
  callsCopied: boolean;
}

/**
 * Folds a batch of events (in arrival order) into the per-session turns. Returns the same object
 * when nothing changed. A new turn id for a session starts a new turn; deltas already applied
 * (seq not above the last one) are ignored.
 */
export function applyTurnEvents(turns: Readonly<Record<string, LiveTurn>>, events: readonly ChatTurnEvent[]): Record<string, LiveTurn> {
  if (events.length === 0) return turns as Record<string, LiveTurn>;
  const drafts = new Map<string, Draft>();
  const draftFor = (event: ChatTurnEvent): Draft => {
    let draft = drafts.get(event.sessionId);
    if (draft && draft.turn.turnId !== event.turnId) {
      finish(draft);
      draft = undefined;
    }
    if (!draft) {
      const current = Object.prototype.hasOwnProperty.call(turns, event.sessionId) ? turns[event.sessionId] : undefined;
      const turn = current && current.turnId === event.turnId ? { ...current } : newTurn(event.sessionId, event.turnId);
      draft = { turn, parts: [], callsCopied: false };
      drafts.set(event.sessionId, draft);
    }
    return draft;
  };
  const finish = (draft: Draft) => {
    if (draft.parts.length) {
      draft.turn.text += draft.parts.join('');
      draft.parts = [];
    }
  };
  const calls = (draft: Draft): ToolCallCard[] => {
    if (!draft.callsCopied) {
      draft.turn.toolCalls = [...draft.turn.toolCalls];
      draft.callsCopied = true;
    }
    return draft.turn.toolCalls;
  };
  const card = (draft: Draft, callId: string, round: number): ToolCallCard => {
    const list = calls(draft);
    const at = list.findIndex((c) => c.callId === callId);
    if (at >= 0) {
      const copy = { ...list[at]! };
      list[at] = copy;
      return copy;
    }
    // A phase for a call we never saw start (we joined mid-turn): draw it anyway.
    const created: ToolCallCard = { callId, index: list.length, round, textOffset: draft.turn.text.length, phase: 'started', name: null, qualifiedName: null, memberName: null, argsText: '', error: null, result: null };
    list.push(created);
    return created;
  };

  for (const event of events) {
    const draft = draftFor(event);
    const turn = draft.turn;
    switch (event.type) {
      case 'chat.delta':
        if (event.seq <= turn.lastSeq) break;
        draft.parts.push(event.text);
        turn.lastSeq = event.seq;
        if (!turn.assistantMessageId) turn.assistantMessageId = event.messageId;
        break;
      case 'chat.reasoning':
        // As much as a reply keeps of it (the host sends no more).
        if (turn.reasoning.length < SESSION_LIMITS.messageContent) turn.reasoning += event.text;
        if (!turn.assistantMessageId) turn.assistantMessageId = event.messageId;
        break;
      case 'chat.toolCall': {
        // Text streamed before the call stays before it.
        finish(draft);
        switch (event.phase) {
          case 'started': {
            const list = calls(draft);
            if (!list.some((c) => c.callId === event.callId)) {
              list.push({ callId: event.callId, index: event.index, round: event.round, textOffset: turn.text.length, phase: 'started', name: null, qualifiedName: null, memberName: null, argsText: '', error: null, result: null });
            }
            break;
          }
          case 'name': {
            const c = card(draft, event.callId, event.round);
            Object.assign(c, { name: event.name, qualifiedName: event.qualifiedName, memberName: event.memberName });
            if (c.phase === 'started') c.phase = 'named';
            break;
          }
          case 'args': {
            const c = card(draft, event.callId, event.round);
            c.argsText += event.delta;
            if (c.phase === 'started' || c.phase === 'named') c.phase = 'arguments';
            break;
          }
          case 'ended': {
            const c = card(draft, event.callId, event.round);
            Object.assign(c, { argsText: event.argsText, phase: 'ended' });
            break;
          }
          case 'failed': {
            const c = card(draft, event.callId, event.round);
            Object.assign(c, { argsText: event.argsText, phase: 'failed', error: event.error });
            break;
          }
          case 'result': {
            const c = card(draft, event.callId, event.round);
            c.result = {
              ok: event.ok,
              content: event.content,
              durationMs: event.durationMs,
              ...(event.errorCode !== undefined ? { errorCode: event.errorCode } : {}),
              // Safe tool use: dry-run and cache flags, shown as badges on the card.
              ...(event.simulated ? { simulated: true } : {}),
              ...(event.unvalidated ? { unvalidated: true } : {}),
              ...(event.cached ? { cached: true } : {}),
              ...(event.unoffered ? { unoffered: true } : {}),
            };
            break;
          }
        }
        break;
      }
      case 'chat.council': {
        const { type: _t, sessionId: _s, turnId: _u, ...phase } = event;
        turn.council = phase as CouncilState;
        break;
      }
      case 'chat.error':
        turn.error = event.error;
        break;
      case 'chat.finished':
        finish(draft);
        turn.status = 'finished';
        turn.stopping = false;
        turn.finishReason = event.finishReason;
        turn.reason = event.reason ?? null;
        turn.usage = event.usage;
        if (event.error) turn.error = event.error;
        if (!turn.assistantMessageId) turn.assistantMessageId = event.messageId;
        // A dry run's final prompt (council and interceptors included) comes with its end.
        if (event.prompt) turn.dryRun = { prompt: event.prompt as NonNullable<TurnStarted['prompt']>, tools: event.tools ?? [] };
        break;
    }
  }

  const next: Record<string, LiveTurn> = { ...turns };
  for (const [sessionId, draft] of drafts) {
    finish(draft);
    Object.defineProperty(next, sessionId, { value: draft.turn, writable: true, enumerable: true, configurable: true });
  }
  return next;
}
