// The character's reply: streamed text, its tool calls and council note, the reply's error, and the prompt breakdown.
import { memo } from 'react';
import type { ChatMessage } from '../../../../shared/types/chat';
import { useAppStore } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { Icon } from '../../components/Icon';
import type { LiveTurn, ToolCallCard as ToolCallCardData } from '../../stores/chat/chat-turns';
import { MessageWidgets, useInterceptedText } from '../frontends/message-extras';
import { CouncilTurn } from './CouncilTurn';
import { MessageActions, MessageEditor, useMessageEditing, useSwipeKeys } from './MessageActions';
import { PromptBreakdown } from './PromptBreakdown';
import { ReasoningBlock } from './ReasoningBlock';
import { ShownText } from './ShownText';
import { MessageAvatar } from './CharacterPicture';
import { cardFromRecord, QuietToolCall, ToolCallCard } from './ToolCallCard';

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

type Segment = { kind: 'text'; text: string } | { kind: 'calls'; cards: ToolCallCardData[] };

/** Saved replies keep their props while another streams, so they are not drawn again on every frame. */
export const AssistantMessage = memo(function AssistantMessage(props: {
  message: ChatMessage | null;
  turn: LiveTurn | null;
  name: string;
  chatId: string;
  /** A continued reply: its text before the live turn's. */
  prefix?: string | null;
  /** Saved replies: this is the session's last message. */
  last?: boolean;
  /** How far from the newest message (0: the newest), for display regex scripts' depth bounds. */
  depth?: number;
  /** The character's picture (a data URL), beside the name. */
  picture?: string | null;
}) {
  const { message, turn } = props;
  const edit = useMessageEditing();
  const editing = edit.editing;
  const streaming = turn?.status === 'streaming';
  const messageId = message?.id ?? turn?.assistantMessageId ?? null;
  const prefix = props.prefix ?? '';
  const actions = message ? { sessionId: props.chatId, message, last: props.last === true } : null;
  const keys = useSwipeKeys(actions);
  // The saved content is complete once it exists; the live text is only for a reply not yet saved.
  // Tags an extension's frontend intercepts are handed to it (and, unless it keeps them, not shown).
  const text = useInterceptedText(messageId, message ? message.content : prefix + (turn?.text ?? ''), props.chatId, streaming);
  const cards = turn ? (prefix ? turn.toolCalls.map((c) => ({ ...c, textOffset: c.textOffset + prefix.length })) : turn.toolCalls) : (message?.toolCalls ?? []).map(cardFromRecord);
  const segments = interleave(text, cards);
  const showUnoffered = useAppStore((s) => s.settings?.chat?.showUnofferedToolCalls === true);
  const error = turn?.error ?? (message?.error ? { code: message.error.code, message: message.error.message } : null);
  const note = turn ? endNote(turn.finishReason, turn.reason) : message?.stopped ? 'Stopped by the user.' : null;
  const meta = message?.model ?? null;
  return (
    <article
      className={`msg msg--assistant${streaming ? ' msg--streaming' : ''}${error ? ' msg--failed' : ''}`}
      data-testid="message"
      data-role="assistant"
      data-message-id={messageId ?? undefined}
      data-streaming={streaming || undefined}
      aria-label={`${props.name} replied`}
      aria-busy={streaming || undefined}
      aria-keyshortcuts={message?.role === 'assistant' ? 'ArrowLeft ArrowRight' : undefined}
      onKeyDown={keys.onKeyDown}
    >
      <header className="msg__head">
        <MessageAvatar name={props.name} picture={props.picture} />
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
      {/* While it streams, the turn's; once saved, the reply's own, with how long it took. */}
      {streaming && turn ? (
        <ReasoningBlock text={turn.reasoning} thinking={!turn.text && turn.toolCalls.length === 0} />
      ) : message?.reasoning ? (
        <ReasoningBlock text={message.reasoning} ms={message.reasoningMs} thinking={false} />
      ) : turn ? (
        <ReasoningBlock text={turn.reasoning} thinking={false} />
      ) : null}
      {editing && actions ? <MessageEditor sessionId={actions.sessionId} message={actions.message} onDone={edit.done} /> : segments.map((segment, i) =>
        segment.kind === 'calls' ? (
          <ol key={`calls-${segment.cards[0]!.callId}`} className="stack-list tool-cards" aria-label="Tool calls">
            {segment.cards.map((card) =>
              card.result?.unoffered && !showUnoffered ? <QuietToolCall key={card.callId} card={card} /> : <ToolCallCard key={card.callId} card={card} live={streaming} />,
            )}
          </ol>
        ) : segment.text || (streaming && i === segments.length - 1) ? (
          <div key={`text-${i}`} className="msg__text" data-testid="message-text">
            {/* As blocks that stop changing once complete (see roleplay-text.tsx); the same nodes stay when the reply is saved. */}
            <ShownText sessionId={props.chatId} messageId={messageId} role="assistant" depth={props.depth ?? 0} text={segment.text} caret={streaming && i === segments.length - 1} />
          </div>
        ) : null,
      )}
      <MessageWidgets messageId={messageId} />
      {actions && !editing && <MessageActions {...actions} onEdit={edit.start} takeFocus={edit.takeFocus} />}
      {keys.failure && <InlineError error={keys.failure.error} title={keys.failure.title} testId="message-action-error" />}
      {note && (
        <p className="msg__note" data-testid="message-note">
          <Icon name="info" /> {note}
        </p>
      )}
      {error && <InlineError error={error} title="The reply failed" testId="chat-error" />}
      {message?.trace && message.trace.length > 0 && <PromptBreakdown stages={message.trace} report={message.prompt} />}
    </article>
  );
});
