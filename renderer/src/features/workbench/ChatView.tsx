// The conversation: saved messages, then the live turn — the council's part, tool-call cards, streamed text, its end or error.
// Every piece of model and tool output is a text node; nothing is parsed as markup.
import { useEffect, useState } from 'react';
import type { ChatSession } from '../../../../shared/types/chat';
import type { LiveTurn } from '../../stores/chat/chat-turns';
import { UserMessage } from './UserMessage';
import { AssistantMessage } from './AssistantMessage';
import { useButtonsWaitForReply } from './reply-wait';
import { DryRunPreview } from './DryRunPreview';
import { useRovingMessages } from './roving-messages';
import { useAppStore, useAppStoreApi } from '../../app/context';
import { atNewest } from '../../stores/chat/chat-slice';
import { EarlierMessages, LaterMessages } from './ChatWindowEdges';

interface Names {
  user: string;
  assistant: string;
}

/**
 * Keeps the main scroll area at the bottom while it already was there (new text pushes it along; scrolling up
 * stops that). Everything happens in a ResizeObserver callback, which runs after layout: whether the view was at
 * the bottom of the chat's previous height is read there, and the new position written, with nothing laid out
 * twice in a frame (a scroll listener reading scrollHeight would force a layout while a reply streams). Growth
 * above (an older page put before the first message) is left to the browser's scroll anchoring, which has moved
 * the view by then: measured against the old height, that would look like the bottom.
 */
function useStickToBottom(chat: HTMLElement | null) {
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main || !chat || typeof ResizeObserver === 'undefined') return;
    main.scrollTop = main.scrollHeight;
    let height = main.scrollHeight;
    const firstMessage = () => chat.querySelector('[data-testid="message"]');
    let first = firstMessage();
    const observer = new ResizeObserver(() => {
      const before = first;
      first = firstMessage();
      const atBottom = before === first && height - main.scrollTop - main.clientHeight < 80;
      height = main.scrollHeight;
      if (atBottom) main.scrollTop = height;
    });
    observer.observe(chat);
    return () => observer.disconnect();
  }, [chat]);
}

/** A message someone asked to see (a search result): focused, marked and brought into view once it is drawn. */
function useFocusRequested(chat: HTMLElement | null, session: ChatSession) {
  const store = useAppStoreApi();
  const wanted = useAppStore((s) => s.chat.focusMessageId);
  useEffect(() => {
    if (!chat || !wanted) return;
    const target = [...chat.querySelectorAll<HTMLElement>('[data-message-id]')].find((el) => el.dataset.messageId === wanted);
    if (!target) return;
    // Marked until another is asked for: the person sees which message the search found, wherever focus goes next.
    for (const found of chat.querySelectorAll<HTMLElement>('[data-found]')) delete found.dataset.found;
    target.dataset.found = 'true';
    // A page just put in may not have its roving tabindex yet (it comes in a microtask), and an article without one
    // takes no focus; focused, it becomes the current message.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
    target.scrollIntoView?.({ block: 'center' });
    store.getState().chatMessageFocusRequested(null);
  }, [chat, wanted, session, store]);
}

export function ChatView(props: { session: ChatSession; turn: LiveTurn | null; picture: string | null }) {
  const { session } = props;
  const shown = useAppStore((s) => (s.chat.open === session ? s.chat.window : null));
  // A live turn is drawn after the newest message: only while the window holds it (a search can take it back in time).
  const newest = atNewest(session, shown);
  const turn = newest ? props.turn : null;
  const earlier = shown?.start ?? 0;
  const later = shown ? shown.total - shown.start - session.messages.length : 0;
  const names: Names = { user: session.persona.name || 'You', assistant: session.character.name || 'Assistant' };
  const ids = new Set(session.messages.map((m) => m.id));
  const replying = turn && turn.status === 'streaming';
  const messages = session.messages;
  // A turn reworking a saved reply (regenerate, continue) is drawn in its place until the copy holding its result is read.
  const reworked = turn?.rework && (replying || (session.updatedAt <= turn.rework.since && turn.text !== '')) ? turn.assistantMessageId : null;
  const lastId = newest ? messages[messages.length - 1]?.id : undefined;
  const liveSaved = turn && turn.assistantMessageId && ids.has(turn.assistantMessageId);
  const showPendingUser = turn && !turn.dryRun && turn.userText && !(turn.userMessageId && ids.has(turn.userMessageId)) && turn.status === 'streaming';
  const showLive = turn && !turn.dryRun && !liveSaved && (turn.status === 'streaming' || turn.text || turn.error || turn.toolCalls.length > 0);

  const { picture } = props;
  const [chat, setChat] = useState<HTMLElement | null>(null);
  useButtonsWaitForReply(chat, Boolean(replying));
  useStickToBottom(chat);
  useRovingMessages(chat);
  useFocusRequested(chat, session);

  if (messages.length === 0 && !turn) {
    return (
      <div className="chat chat--empty" data-testid="chat" ref={setChat}>
        <p className="panel-note">
          No messages yet. Write to {names.assistant} below; the reply streams in as it is written
          {session.character.name ? '' : ' (give the character a name and description in Character & world)'}.
        </p>
      </div>
    );
  }

  return (
    <div
      className="chat"
      data-testid="chat"
      ref={setChat}
      role="log"
      aria-live="off"
      aria-label={`Conversation in ${session.title}`}
      aria-description="One stop for Tab: the arrow keys move between messages, Home and End go to the first and last."
    >
      {earlier > 0 && <EarlierMessages count={earlier} />}
      {/* One keyed list: when the live reply is saved it keeps its element, so state such as an opened deliberation survives. */}
      {[
        ...messages.map((m) =>
          m.role === 'user' ? (
            <UserMessage key={m.id} message={m} name={names.user} sessionId={session.id} />
          ) : m.id === reworked ? (
            <AssistantMessage key={m.id} message={null} turn={turn} prefix={turn!.rework!.prefix} name={names.assistant} chatId={session.id} picture={picture} />
          ) : (
            <AssistantMessage key={m.id} message={m} turn={turn && turn.assistantMessageId === m.id ? turn : null} name={names.assistant} chatId={session.id} last={m.id === lastId} picture={picture} />
          ),
        ),
        showPendingUser && <UserMessage key={turn.userMessageId || `pending-${turn.turnId}`} message={null} text={turn.userText!} name={names.user} sessionId={session.id} pending />,
        showLive && <AssistantMessage key={turn.assistantMessageId || `live-${turn.turnId}`} message={null} turn={turn} name={names.assistant} chatId={session.id} picture={picture} />,
      ]}
      {turn?.dryRun && <DryRunPreview turn={turn} />}
      {later > 0 && <LaterMessages count={later} />}
    </div>
  );
}
