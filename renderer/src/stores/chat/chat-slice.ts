// Chat slice: the Workbench's session list, the open session as the host saved it, and each session's live turn (chat.* events).
import type { HostError } from '../../../../shared/errors';
import { SESSION_PAGE, type ChatSession, type ChatSessionSummary } from '../../../../shared/types/chat';
import { applyTurnEvents, withTurnStarted, type ChatTurnEvent, type LiveTurn, type TurnExtra, type TurnStarted } from './chat-turns';
import type { Slice } from '../app/slice';

export interface ChatWindow {
  start: number;
  total: number;
}

export interface ChatSlice {
  chat: {
    /** Host truth as chat.sessions.list last reported, newest first. */
    sessions: readonly ChatSessionSummary[];
    loaded: boolean;
    loadError: HostError | null;
    /** The session the Workbench shows (renderer-only choice). */
    openId: string | null;
    /** The open session's content as the host last returned it (null while loading): its messages are the window's. */
    open: ChatSession | null;
    /** Where the open session's messages are in the whole chat: the first one's index, and how many it has. */
    window: ChatWindow | null;
    /** A branch's origin, when the open session is one: its character to extensions' frames. */
    openOrigin: string | null;
    openError: HostError | null;
    /** The running or last turn of each session, by session id. */
    turns: Readonly<Record<string, LiveTurn>>;
    /** A message to bring into view and focus once the open session shows it (a search result chosen). */
    focusMessageId: string | null;
  };
  chatMessageFocusRequested(messageId: string | null): void;
  chatSessionsReplaced(sessions: readonly ChatSessionSummary[]): void;
  chatSessionsLoadFailed(error: HostError): void;
  chatSessionOpened(id: string | null): void;
  /** The open session read again: a window of it (chat.sessions.window), or whole (an action's answer), kept to the window shown. */
  chatSessionLoaded(session: ChatSession, window?: ChatWindow): void;
  /** The open session's origin, as its window's answer names it (null: it is no branch). */
  chatOriginKnown(sessionId: string, origin: string | null): void;
  chatSessionLoadFailed(id: string, error: HostError): void;
  chatSessionGone(id: string): void;
  chatTurnStarted(started: TurnStarted, extra: TurnExtra): void;
  /** A batch of turn events, applied in one update (the frame buffer calls this once per animation frame). */
  chatTurnEventsApplied(events: readonly ChatTurnEvent[]): void;
  chatTurnStopping(sessionId: string): void;
  /** The host no longer runs the turn (a reconnect found the session idle) but its end never arrived. */
  chatTurnInterrupted(sessionId: string): void;
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function withTurn(turns: Readonly<Record<string, LiveTurn>>, key: string, turn: LiveTurn | undefined): Record<string, LiveTurn> {
  const next: Record<string, LiveTurn> = {};
  for (const [k, v] of Object.entries(turns)) if (k !== key) Object.defineProperty(next, k, { value: v, writable: true, enumerable: true, configurable: true });
  if (turn) Object.defineProperty(next, key, { value: turn, writable: true, enumerable: true, configurable: true });
  return next;
}

export const createChatSlice: Slice<ChatSlice> = (set) => ({
  chat: { sessions: [], loaded: false, loadError: null, openId: null, open: null, window: null, openOrigin: null, openError: null, turns: {}, focusMessageId: null },
  chatMessageFocusRequested: (messageId) => set((s) => ({ chat: { ...s.chat, focusMessageId: messageId } })),
  chatSessionsReplaced: (sessions) => set((s) => ({ chat: { ...s.chat, sessions: [...sessions], loaded: true, loadError: null } })),
  chatSessionsLoadFailed: (error) => set((s) => ({ chat: { ...s.chat, loadError: error } })),
  chatSessionOpened: (id) =>
    set((s) => {
      const same = s.chat.open !== null && s.chat.open.id === id;
      return { chat: { ...s.chat, openId: id, open: same ? s.chat.open : null, window: same ? s.chat.window : null, openOrigin: same ? s.chat.openOrigin : null, openError: null } };
    }),
  chatSessionLoaded: (loaded, window) =>
    set((s) => {
      if (s.chat.openId !== loaded.id) return s;
      const { session, shown } = window ? { session: loaded, shown: window } : windowOf(loaded, s.chat.open, s.chat.window);
      // A finished turn whose saved reply this copy no longer has (deleted, here or elsewhere) is drawn no more.
      const turn = own(s.chat.turns, session.id);
      const reply = turn && turn.status !== 'streaming' ? turn.assistantMessageId : '';
      // Only a window at the newest can tell: elsewhere the reply may only have scrolled out of it.
      const deleted = reply !== '' && atNewest(session, shown) && s.chat.open?.messages.some((m) => m.id === reply) === true && !session.messages.some((m) => m.id === reply);
      return { chat: { ...s.chat, open: keepUnchangedMessages(s.chat.open, session), window: shown, openError: null, ...(deleted ? { turns: withTurn(s.chat.turns, session.id, undefined) } : {}) } };
    }),
  chatOriginKnown: (sessionId, origin) => set((s) => (s.chat.openId === sessionId && s.chat.openOrigin !== origin ? { chat: { ...s.chat, openOrigin: origin } } : s)),
  chatSessionLoadFailed: (id, error) => set((s) => (s.chat.openId === id ? { chat: { ...s.chat, openError: error } } : s)),
  chatSessionGone: (id) =>
    set((s) => ({
      chat: {
        ...s.chat,
        sessions: s.chat.sessions.filter((x) => x.id !== id),
        turns: withTurn(s.chat.turns, id, undefined),
        ...(s.chat.openId === id ? { openId: null, open: null, window: null, openOrigin: null, openError: null } : {}),
      },
    })),
  chatTurnStarted: (started, extra) =>
    set((s) => ({ chat: { ...s.chat, turns: withTurn(s.chat.turns, started.sessionId, withTurnStarted(own(s.chat.turns, started.sessionId), started, extra)) } })),
  chatTurnEventsApplied: (events) =>
    set((s) => {
      const turns = applyTurnEvents(s.chat.turns, events);
      return turns === s.chat.turns ? s : { chat: { ...s.chat, turns } };
    }),
  chatTurnStopping: (sessionId) =>
    set((s) => {
      const turn = own(s.chat.turns, sessionId);
      if (!turn || turn.status !== 'streaming') return s;
      return { chat: { ...s.chat, turns: withTurn(s.chat.turns, sessionId, { ...turn, stopping: true }) } };
    }),
  chatTurnInterrupted: (sessionId) =>
    set((s) => {
      const turn = own(s.chat.turns, sessionId);
      if (!turn || turn.status !== 'streaming') return s;
      const ended: LiveTurn = {
        ...turn,
        status: 'finished',
        stopping: false,
        finishReason: 'interrupted',
        reason: 'The connection to the host dropped before this reply finished; the saved message shows what the host kept.',
      };
      return { chat: { ...s.chat, turns: withTurn(s.chat.turns, sessionId, ended) } };
    }),
});

export function turnOf(turns: Readonly<Record<string, LiveTurn>>, sessionId: string | null): LiveTurn | null {
  if (sessionId === null) return null;
  return own(turns, sessionId) ?? null;
}

/** Whether the window holds the newest message (a live turn is drawn after it only then). */
export function atNewest(open: ChatSession | null, window: ChatWindow | null): boolean {
  return !open || !window || window.start + open.messages.length >= window.total;
}

/**
 * A whole session (an action's answer) cut to the window shown: the same first message on, up to the newest when the
 * window reached it (a message added shows), else as many as it held; the newest page for a session not shown yet.
 */
export function windowOf(whole: ChatSession, open: ChatSession | null, window: ChatWindow | null): { session: ChatSession; shown: ChatWindow } {
  const total = whole.messages.length;
  const shown = open?.id === whole.id && window ? window : null;
  const start = shown ? Math.min(shown.start, total) : Math.max(0, total - SESSION_PAGE);
  const end = shown && !atNewest(open, shown) ? Math.min(total, shown.start + open!.messages.length) : total;
  return { session: start === 0 && end === total ? whole : { ...whole, messages: whole.messages.slice(start, end) }, shown: { start, total } };
}

/**
 * The session as read again, with each message that did not change kept as the object the chat already drew: a
 * reload (every turn saves the session) then re-renders only what changed, not every message of a long chat.
 */
export function keepUnchangedMessages(previous: ChatSession | null, next: ChatSession): ChatSession {
  if (!previous || previous.id !== next.id) return next;
  const before = new Map(previous.messages.map((m) => [m.id, m]));
  let kept = 0;
  const messages = next.messages.map((m) => {
    const old = before.get(m.id);
    if (old && JSON.stringify(old) === JSON.stringify(m)) {
      kept++;
      return old;
    }
    return m;
  });
  return kept === 0 ? next : { ...next, messages };
}
