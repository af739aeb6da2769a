// A message the person sent (pending until the host has it), with its actions once saved.
import { memo, useState } from 'react';
import type { ChatMessage } from '../../../../shared/types/chat';
import { MessageActions, MessageEditor } from './MessageActions';

export const UserMessage = memo(function UserMessage(props: { message: ChatMessage | null; text?: string; name: string; sessionId: string; pending?: boolean }) {
  const { message } = props;
  const [editing, setEditing] = useState(false);
  return (
    <article className="msg msg--user" data-testid="message" data-role="user" data-message-id={message?.id} aria-label={`${props.name} said`}>
      <header className="msg__head">
        <span className="msg__name">{props.name}</span>
        {props.pending && <span className="msg__meta">sending…</span>}
      </header>
      {editing && message ? (
        <MessageEditor sessionId={props.sessionId} message={message} onDone={() => setEditing(false)} />
      ) : (
        <div className="msg__text">{message?.content ?? props.text}</div>
      )}
      {message && !editing && <MessageActions sessionId={props.sessionId} message={message} last={false} onEdit={() => setEditing(true)} />}
    </article>
  );
});
