// Where a finished reply goes: a new message, a new swipe of the reply it regenerates, or the rest of the reply it
// continues. Returns the message as saved and what extensions hear of it.
import type { ChatMessage, ChatSwipe } from '../../../shared/types/chat';
import type { SessionStore } from './session-store';
import { addSwipe, messageOnly, replyOf, swipeIndex } from './swipes';
import { messageWireIn } from './chat-reads';

/** new: append; swipe: alternative of `of`; continue: `of` grows by the reply's text and calls. */
export type ReplyPlacement = { kind: 'new' } | { kind: 'swipe'; of: string } | { kind: 'continue'; of: string };

export interface SavedReply {
  message: ChatMessage;
  /**
   * The Lumiverse event the change is. A new reply was announced empty when the turn began (MESSAGE_SENT, as Lumiverse
   * stages it: chat-turn.ts), so its text arriving is MESSAGE_EDITED; with no text, nothing changed.
   */
  event: { name: 'MESSAGE_SENT' | 'MESSAGE_SWIPED' | 'MESSAGE_EDITED'; payload: Record<string, unknown> } | null;
}

/** The reply as continued: its text and calls grow; how it ended (stopped, failed, the model) is the continuation's. */
function continued(old: ChatMessage, reply: ChatMessage): ChatMessage {
  const offset = old.content.length;
  const added = (reply.toolCalls ?? []).map((c) => (c.textOffset !== undefined ? { ...c, textOffset: c.textOffset + offset } : c));
  const calls = [...(old.toolCalls ?? []), ...added].slice(-64);
  // What the reply came with stays; the continuation's thinking, if it had any, replaces the reply's (as in Lumiverse).
  const thought = reply.reasoning ? reply : old;
  const fields: ChatSwipe = {
    ...replyOf(reply),
    content: old.content + reply.content,
    createdAt: old.createdAt,
    ...(calls.length ? { toolCalls: calls } : {}),
    ...(thought.reasoning ? { reasoning: thought.reasoning } : {}),
    ...(thought.reasoningMs !== undefined ? { reasoningMs: thought.reasoningMs } : {}),
    ...(old.source ? { source: old.source } : {}),
  };
  // What the message holds of its own (its metadata, hidden flag, imported line) stays with it.
  if (!old.swipes) return { ...messageOnly(old), ...fields };
  const swipes = [...old.swipes];
  swipes[swipeIndex(old)] = fields;
  return { ...messageOnly(old), ...fields, swipes, swipeId: swipeIndex(old) };
}

export function saveReply(sessions: SessionStore, sessionId: string, reply: ChatMessage, placement: ReplyPlacement): SavedReply {
  const placed = { message: reply, index: -1 };
  const session = sessions.mutate(sessionId, (s) => {
    const index = placement.kind === 'new' ? -1 : s.messages.findIndex((m) => m.id === placement.of);
    // The message it was for is gone (deleted meanwhile): the reply is kept as a new message.
    if (index < 0) {
      s.messages.push(reply);
      return;
    }
    const old = s.messages[index]!;
    placed.message = placement.kind === 'swipe' ? addSwipe(old, reply) : continued(old, reply);
    placed.index = index;
    s.messages[index] = placed.message;
  });
  if (placed.index < 0) {
    const index = session.messages.findIndex((m) => m.id === reply.id);
    const message = () => ({ chatId: sessionId, message: messageWireIn(session, index) });
    // The message a swipe or continuation was for is gone: the reply is a message no one has heard of yet.
    if (placement.kind !== 'new') return { message: reply, event: { name: 'MESSAGE_SENT', payload: message() } };
    return { message: reply, event: reply.content ? { name: 'MESSAGE_EDITED', payload: message() } : null };
  }
  const message = messageWireIn(session, placed.index);
  const event: SavedReply['event'] =
    placement.kind === 'swipe'
      ? { name: 'MESSAGE_SWIPED', payload: { chatId: sessionId, message, action: 'added', swipeId: swipeIndex(placed.message) } }
      : { name: 'MESSAGE_EDITED', payload: { chatId: sessionId, message } };
  return { message: placed.message, event };
}
