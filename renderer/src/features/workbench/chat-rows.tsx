// The chat list's rows: the saved messages, then the user's message being sent and the reply being written. The rows
// change only when messages come or go; what a turn streams reaches its row through a context, so the virtualized
// list is not handed new rows (and does not lay itself out again) on every frame of a reply.
import { createContext, useContext, useMemo } from 'react';
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import type { LiveTurn } from '../../stores/chat/chat-turns';
import { UserMessage } from './UserMessage';
import { AssistantMessage } from './AssistantMessage';

export interface Row {
  key: string;
  /** A saved message, or the turn's part: the message being sent, the reply being written. */
  message: ChatMessage | 'pending' | 'live';
  /** How far from the newest message (0: the newest), as display regex scripts count. */
  depth: number;
}

interface Turn {
  sessionId: string;
  turn: LiveTurn | null;
  names: { user: string; assistant: string };
  picture: string | null;
  /** The saved reply a turn reworks (regenerate, continue), drawn from the turn until the copy holding its result is read. */
  reworked: string | null;
  lastId: string | undefined;
}

const TurnContext = createContext<Turn | null>(null);
export const TurnProvider = TurnContext.Provider;

/** The rows, and what the turn draws into them. */
/** `later`: how many saved messages come after the window's (a long chat read page by page). */
export function useRows(session: ChatSession, turn: LiveTurn | null, newest: boolean, picture: string | null, later = 0): { rows: Row[]; live: Turn } {
  const messages = session.messages;
  const ids = new Set(messages.map((m) => m.id));
  const replying = turn && turn.status === 'streaming';
  const reworked = turn?.rework && (replying || (session.updatedAt <= turn.rework.since && turn.text !== '')) ? turn.assistantMessageId : null;
  const lastId = newest ? messages[messages.length - 1]?.id : undefined;
  const liveSaved = turn && turn.assistantMessageId && ids.has(turn.assistantMessageId);
  const showPendingUser = turn && !turn.dryRun && turn.userText && !(turn.userMessageId && ids.has(turn.userMessageId)) && turn.status === 'streaming';
  const showLive = turn && !turn.dryRun && !liveSaved && (turn.status === 'streaming' || turn.text || turn.error || turn.toolCalls.length > 0);
  // One keyed list: when the live reply is saved it keeps its key, so state such as an opened deliberation survives.
  const pendingKey = showPendingUser ? turn.userMessageId || `pending-${turn.turnId}` : null;
  const liveKey = showLive ? turn.assistantMessageId || `live-${turn.turnId}` : null;
  const rows = useMemo(() => {
    // The window's count may lag a message just saved by a moment: a depth is never below 0.
    const after = Math.max(0, later) + (pendingKey ? 1 : 0) + (liveKey ? 1 : 0);
    const all: Row[] = messages.map((m, i) => ({ key: m.id, message: m, depth: after + messages.length - 1 - i }));
    if (pendingKey) all.push({ key: pendingKey, message: 'pending', depth: liveKey ? 1 : 0 });
    if (liveKey) all.push({ key: liveKey, message: 'live', depth: 0 });
    return all;
  }, [messages, pendingKey, liveKey, later]);
  const { user, assistant } = { user: session.persona.name || 'You', assistant: session.character.name || 'Assistant' };
  const live = useMemo(() => ({ sessionId: session.id, turn, names: { user, assistant }, picture, reworked, lastId }), [session.id, turn, user, assistant, picture, reworked, lastId]);
  return { rows, live };
}

export function ChatRow({ row }: { row: Row }) {
  const { sessionId, turn, names, picture, reworked, lastId } = useContext(TurnContext)!;
  const m = row.message;
  const { depth } = row;
  if (m === 'pending') return <UserMessage message={null} text={turn?.userText ?? ''} name={names.user} sessionId={sessionId} depth={depth} pending />;
  if (m === 'live') return <AssistantMessage message={null} turn={turn} name={names.assistant} chatId={sessionId} picture={picture} depth={depth} />;
  if (m.role === 'user') return <UserMessage message={m} name={names.user} sessionId={sessionId} depth={depth} />;
  if (m.id === reworked) return <AssistantMessage message={null} turn={turn} prefix={turn!.rework!.prefix} name={names.assistant} chatId={sessionId} picture={picture} depth={depth} />;
  return <AssistantMessage message={m} turn={turn && turn.assistantMessageId === m.id ? turn : null} name={names.assistant} chatId={sessionId} last={m.id === lastId} picture={picture} depth={depth} />;
}
