// The conversation: saved messages, then the live turn — the council's part, tool-call cards, streamed text, its end or error.
// Every piece of model and tool output is a text node; nothing is parsed as markup.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import { InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import type { LiveTurn, ToolCallCard as ToolCallCardData } from '../../stores/chat-turns';
import { CouncilTurn } from './CouncilTurn';
import { PromptBreakdown } from './PromptBreakdown';
import { cardFromRecord, ToolCallCard } from './ToolCallCard';

interface Names {
  user: string;
  assistant: string;
}

function endNote(reason: LiveTurn['finishReason'], text: string | null): string | null {
  switch (reason) {
    case 'stopped':
      return text ?? 'Stopped by the user.';
    case 'length':
      return 'The reply hit the model’s length limit.';
    case 'content-filter':
      return 'The provider’s content filter ended the reply.';
    case 'tool-round-cap':
    case 'tool-loop':
    case 'interrupted':
      return text;
    default:
      return null;
  }
}

type Segment = { kind: 'text'; text: string } | { kind: 'calls'; cards: ToolCallCardData[] };

/** Text and tool calls in the order they streamed: each card sits where the text was when its call started. */
function interleave(text: string, cards: readonly ToolCallCardData[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const card of cards) {
    const offset = Math.min(Math.max(card.textOffset, at), text.length);
    if (offset > at) segments.push({ kind: 'text', text: text.slice(at, offset) });
    at = offset;
    const last = segments[segments.length - 1];
    if (last?.kind === 'calls') last.cards.push(card);
    else segments.push({ kind: 'calls', cards: [card] });
  }
  if (at < text.length || segments.length === 0) segments.push({ kind: 'text', text: text.slice(at) });
  return segments;
}

function UserMessage(props: { text: string; name: string; pending?: boolean }) {
  return (
    <article className="msg msg--user" data-testid="message" data-role="user" aria-label={`${props.name} said`}>
      <header className="msg__head">
        <span className="msg__name">{props.name}</span>
        {props.pending && <span className="msg__meta">sending…</span>}
      </header>
      <div className="msg__text">{props.text}</div>
    </article>
  );
}

function AssistantMessage(props: { message: ChatMessage | null; turn: LiveTurn | null; name: string }) {
  const { message, turn } = props;
  const streaming = turn?.status === 'streaming';
  // The saved content is complete once it exists; the live text is only for a reply not yet saved.
  const text = message ? message.content : (turn?.text ?? '');
  const cards = turn ? turn.toolCalls : (message?.toolCalls ?? []).map(cardFromRecord);
  const segments = interleave(text, cards);
  const error = turn?.error ?? (message?.error ? { code: message.error.code, message: message.error.message } : null);
  const note = turn ? endNote(turn.finishReason, turn.reason) : message?.stopped ? 'Stopped by the user.' : null;
  const meta = message?.model ?? null;
  return (
    <article
      className={`msg msg--assistant${streaming ? ' msg--streaming' : ''}${error ? ' msg--failed' : ''}`}
      data-testid="message"
      data-role="assistant"
      data-streaming={streaming || undefined}
      aria-label={`${props.name} replied`}
      aria-busy={streaming || undefined}
    >
      <header className="msg__head">
        <span className="msg__name">{props.name}</span>
        {meta && <span className="msg__meta">{meta}</span>}
        {streaming && (
          <span className="msg__meta msg__meta--live">
            <span className="spinner" aria-hidden="true" /> {turn?.stopping ? 'Stopping…' : 'Generating…'}
          </span>
        )}
      </header>
      {turn ? (
        <CouncilTurn council={turn.council} runId={null} live={streaming} />
      ) : message?.councilRunId ? (
        <CouncilTurn council={null} runId={message.councilRunId} live={false} />
      ) : null}
      {segments.map((segment, i) =>
        segment.kind === 'calls' ? (
          <ol key={`calls-${segment.cards[0]!.callId}`} className="tool-cards" aria-label="Tool calls">
            {segment.cards.map((card) => (
              <ToolCallCard key={card.callId} card={card} live={streaming} />
            ))}
          </ol>
        ) : segment.text || (streaming && i === segments.length - 1) ? (
          <div key={`text-${i}`} className="msg__text" data-testid="message-text">
            {segment.text}
            {streaming && i === segments.length - 1 && <span className="msg__caret" aria-hidden="true" />}
          </div>
        ) : null,
      )}
      {note && (
        <p className="msg__note" data-testid="message-note">
          <Icon name="info" /> {note}
        </p>
      )}
      {error && <InlineError error={error} title="The reply failed" testId="chat-error" />}
      {message?.trace && message.trace.length > 0 && <PromptBreakdown stages={message.trace} />}
    </article>
  );
}

function DryRun(props: { turn: LiveTurn }) {
  const dry = props.turn.dryRun!;
  return (
    <article className="msg msg--dry" data-testid="dry-run" aria-label="Dry run">
      <header className="msg__head">
        <span className="msg__name">Dry run</span>
        <span className="msg__meta">nothing was sent; this is the prompt the model would get</span>
      </header>
      {dry.tools.length > 0 && (
        <p className="msg__note">
          Functions offered: <code>{dry.tools.join(', ')}</code>
        </p>
      )}
      <ol className="dry-run__prompt">
        {dry.prompt.map((m, i) => (
          <li key={i}>
            <span className="dry-run__role">{m.role}</span>
            <pre className="dry-run__content">{m.content}</pre>
          </li>
        ))}
      </ol>
    </article>
  );
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
            <AssistantMessage key={m.id} message={m} turn={turn && turn.assistantMessageId === m.id ? turn : null} name={names.assistant} />
          ),
        ),
        showPendingUser && <UserMessage key={turn.userMessageId || `pending-${turn.turnId}`} text={turn.userText!} name={names.user} pending />,
        showLive && <AssistantMessage key={turn.assistantMessageId || `live-${turn.turnId}`} message={null} turn={turn} name={names.assistant} />,
      ]}
      {turn?.dryRun && <DryRun turn={turn} />}
    </div>
  );
}
