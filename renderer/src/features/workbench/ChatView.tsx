// The conversation: saved messages, then the live turn — the council's part, tool-call cards, streamed text, its end or error.
// Every piece of model and tool output is a text node; nothing is parsed as markup.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ChatSession } from '../../../../shared/types/chat';
import type { LiveTurn } from '../../stores/chat-turns';
import { UserMessage } from './UserMessage';
import { AssistantMessage } from './AssistantMessage';
import { DryRunPreview } from './DryRunPreview';

interface Names {
  user: string;
  assistant: string;
}

/** Keeps the main scroll area at the bottom while it already was there (new text pushes it along; scrolling up stops that). */
function useStickToBottom(signal: unknown) {
  const pinned = useRef(true);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const onScroll = () => {
      pinned.current = main.scrollHeight - main.scrollTop - main.clientHeight < 80;
    };
    main.addEventListener('scroll', onScroll, { passive: true });
    return () => main.removeEventListener('scroll', onScroll);
  }, []);
  useLayoutEffect(() => {
    const main = document.getElementById('main');
    if (main && pinned.current) main.scrollTop = main.scrollHeight;
  }, [signal]);
}

export function ChatView(props: { session: ChatSession; turn: LiveTurn | null }) {
  const { session, turn } = props;
  const names: Names = { user: session.persona.name || 'You', assistant: session.character.name || 'Assistant' };
  const ids = new Set(session.messages.map((m) => m.id));
  const replying = turn && turn.status === 'streaming';
  let messages = session.messages;
  // Regenerate: the reply being replaced steps aside while the new one streams.
  if (turn?.regenerate && replying) {
    const last = messages[messages.length - 1];
    if (last?.role === 'assistant' && last.id !== turn.assistantMessageId) messages = messages.slice(0, -1);
  }
  const liveSaved = turn && turn.assistantMessageId && ids.has(turn.assistantMessageId);
  const showPendingUser = turn && !turn.dryRun && turn.userText && !(turn.userMessageId && ids.has(turn.userMessageId)) && turn.status === 'streaming';
  const showLive = turn && !turn.dryRun && !liveSaved && (turn.status === 'streaming' || turn.text || turn.error || turn.toolCalls.length > 0);

  useStickToBottom(`${messages.length}:${turn?.text.length ?? 0}:${turn?.toolCalls.length ?? 0}:${turn?.status ?? ''}`);

  if (messages.length === 0 && !turn) {
    return (
      <div className="chat chat--empty" data-testid="chat">
        <p className="panel-note">
          No messages yet. Write to {names.assistant} below; the reply streams in as it is written
          {session.character.name ? '' : ' (give the character a name and description in Character & world)'}.
        </p>
      </div>
    );
  }

  return (
    <div className="chat" data-testid="chat" role="log" aria-live="off" aria-label={`Conversation in ${session.title}`}>
      {/* One keyed list: when the live reply is saved it keeps its element, so state such as an opened deliberation survives. */}
      {[
        ...messages.map((m) =>
          m.role === 'user' ? (
            <UserMessage key={m.id} text={m.content} name={names.user} />
          ) : (
            <AssistantMessage key={m.id} message={m} turn={turn && turn.assistantMessageId === m.id ? turn : null} name={names.assistant} chatId={session.id} />
          ),
        ),
        showPendingUser && <UserMessage key={turn.userMessageId || `pending-${turn.turnId}`} text={turn.userText!} name={names.user} pending />,
        showLive && <AssistantMessage key={turn.assistantMessageId || `live-${turn.turnId}`} message={null} turn={turn} name={names.assistant} chatId={session.id} />,
      ]}
      {turn?.dryRun && <DryRunPreview turn={turn} />}
    </div>
  );
}
