// What a person does to saved messages: edit, delete, show another swipe, branch a new chat from one. Each change
// is saved, shown (chat.sessions.changed) and told to extensions with Lumiverse's payloads.
import { HostFailure } from '../../../shared/errors';
import type { ChatSession } from '../../../shared/types/chat';
import type { SessionStore } from './session-store';
import { messageWireIn } from './chat-reads';
import { editContent, editReasoning, replaceSwipeTexts, showSwipe, swipeCount, swipeIndex } from './swipes';
import type { MessagePatch } from '../extensions/spindle-host/chat-data';
import { chatDto } from '../extensions/spindle-host/lumiverse-dto';
import { branchRoot, sessionHeads } from '../util/branch-root';

export interface MessageActionsDeps {
  sessions: SessionStore;
  /** A reply is being written in the session: its messages wait. */
  isBusy: (sessionId: string) => boolean;
  changed: (sessionId: string, change: 'created' | 'updated') => void;
  /** Tells extensions (the active chat first, as every chat event does). */
  tell: (sessionId: string, event: string, payload: Record<string, unknown>) => void;
  /** Now, in ms (a swipe an extension adds is made then). */
  now?: () => number;
}

export class MessageActions {
  constructor(private readonly deps: MessageActionsDeps) {}

  /** `added`: what extensions' processors added to the message's extra, merged onto it as it is now. */
  edit(sessionId: string, messageId: string, content: string, added?: Record<string, unknown>): ChatSession {
    const { session, index } = this.change(sessionId, messageId, (s, i) => {
      const message = s.messages[i]!;
      s.messages[i] = { ...editContent(message, content), ...(added ? { extra: { ...(message.extra ?? {}), ...added } } : {}) };
    });
    this.deps.tell(sessionId, 'MESSAGE_EDITED', { chatId: sessionId, message: messageWireIn(session, index) });
    return session;
  }

  /**
   * An extension's patch (spindle.chat.updateMessage), in Lumiverse's order: the alternatives (replaced whole, so
   * they may grow or shrink), the swipe shown, the shown text, its reasoning, the metadata (replaced; empty removes it). One save, one MESSAGE_EDITED, and SWIPE_EDITED after it
   * when the swipes or the one shown were given, as Lumiverse tells it.
   */
  patch(sessionId: string, messageId: string, patch: MessagePatch): ChatSession {
    let previousSwipeId = 0;
    const { session, index } = this.change(sessionId, messageId, (s, i) => {
      let message = s.messages[i]!;
      previousSwipeId = message.swipeId ?? 0;
      // The alternatives replaced whole, then the one shown among them (one just added, or within fewer).
      if (patch.swipes) message = replaceSwipeTexts(message, patch.swipes, (this.deps.now ?? Date.now)(), patch.swipeId);
      else if (patch.swipeId !== undefined) message = showSwipe(message, patch.swipeId);
      if (patch.content !== undefined) message = editContent(message, patch.content);
      if (patch.reasoning) message = editReasoning(message, patch.reasoning);
      if (patch.metadata) {
        const { metadata: _previous, ...rest } = message;
        message = Object.keys(patch.metadata).length ? { ...rest, metadata: patch.metadata } : rest;
      }
      s.messages[i] = message;
    });
    const message = messageWireIn(session, index);
    this.deps.tell(sessionId, 'MESSAGE_EDITED', { chatId: sessionId, message });
    if (patch.swipes !== undefined || patch.swipeId !== undefined) this.deps.tell(sessionId, 'SWIPE_EDITED', { chatId: sessionId, message, previousSwipeId });
    return session;
  }

  delete(sessionId: string, messageId: string): ChatSession {
    const { session } = this.change(sessionId, messageId, (s, i) => {
      s.messages.splice(i, 1);
    });
    this.deps.tell(sessionId, 'MESSAGE_DELETED', { chatId: sessionId, messageId });
    return session;
  }

  /** Shows swipe `swipeId`, or the one before or after the shown one. */
  swipe(sessionId: string, messageId: string, to: { swipeId: number } | { direction: 'left' | 'right' }): ChatSession {
    this.assertIdle(sessionId);
    const current = this.deps.sessions.get(sessionId);
    const message = current.messages[this.indexOf(current, messageId)]!;
    if (message.role !== 'assistant') throw new HostFailure({ code: 'INVALID_INPUT', message: 'Only a reply has swipes.', path: '/messageId' });
    const previous = swipeIndex(message);
    const target = 'swipeId' in to ? to.swipeId : previous + (to.direction === 'left' ? -1 : 1);
    // Past either end stays where it is, as Lumiverse's cycle does (nothing is written); a named swipe must exist.
    if ('direction' in to && (target < 0 || target >= swipeCount(message))) return current;
    if (target === previous) return current;
    const { session, index } = this.change(sessionId, messageId, (s, i) => {
      s.messages[i] = showSwipe(s.messages[i]!, target);
    });
    this.deps.tell(sessionId, 'MESSAGE_SWIPED', { chatId: sessionId, message: messageWireIn(session, index), action: 'navigated', swipeId: target, previousSwipeId: previous });
    return session;
  }

  /**
   * A new session with the messages up to and including this one (each keeps its swipes); a long one is written in
   * steps. As Lumiverse branches a chat: its metadata comes along (its variables too) with where it branched from, and
   * extensions hear CHAT_FORKED (Threadverse, SummaryPlus carry their state over).
   */
  async branch(sessionId: string, messageId: string): Promise<ChatSession> {
    const source = this.deps.sessions.get(sessionId);
    const index = this.indexOf(source, messageId);
    const { avatar: _pictureCopiedBelow, format: _f, version: _v, id: _id, createdAt: _c, updatedAt: _u, ...copy } = source;
    // Read before the write's steps give the thread back (the source may be deleted meanwhile).
    const picture = await this.deps.sessions.avatar(sessionId);
    const metadata = { ...source.metadata, branched_from: sessionId, branch_at_message: messageId };
    const branch = await this.deps.sessions.add({ ...copy, metadata, title: branchTitle(source.title), titleSet: true, messages: source.messages.slice(0, index + 1) });
    const result = picture ? await this.deps.sessions.setAvatar(branch.id, picture) : branch;
    this.deps.changed(result.id, 'created');
    const chat = chatDto({ id: result.id, name: result.title, metadata: result.metadata, createdAt: result.createdAt, updatedAt: result.updatedAt }, branchRoot(sessionId, sessionHeads(this.deps.sessions)));
    this.deps.tell(sessionId, 'CHAT_FORKED', { sourceChatId: sessionId, forkedChatId: result.id, chat, branchId: result.id, forkedAtMessageId: messageId, forkedAtMessageIndex: index });
    return result;
  }

  private indexOf(session: ChatSession, messageId: string): number {
    const index = session.messages.findIndex((m) => m.id === messageId);
    if (index < 0) throw new HostFailure({ code: 'NOT_FOUND', message: `The session has no message ${messageId}.`, path: '/messageId' });
    return index;
  }

  private assertIdle(sessionId: string): void {
    if (this.deps.isBusy(sessionId)) {
      throw new HostFailure({ code: 'CONFLICT', message: 'A reply is still being written in this session.', hint: 'Stop it first, or wait for it to finish.', path: '/sessionId' });
    }
  }

  private change(sessionId: string, messageId: string, apply: (s: ChatSession, index: number) => void): { session: ChatSession; index: number } {
    this.assertIdle(sessionId);
    let index = -1;
    const session = this.deps.sessions.mutate(sessionId, (s) => {
      index = this.indexOf(s, messageId);
      apply(s, index);
    });
    this.deps.changed(sessionId, 'updated');
    return { session, index };
  }
}

function branchTitle(title: string): string {
  const base = title.replace(/ \(branch( \d+)?\)$/, '');
  return `${base.slice(0, 180)} (branch)`;
}
