// A message the person sent (pending until the host has it), with its actions once saved.
import { memo } from 'react';
import type { ChatMessage } from '../../../../shared/types/chat';
import { MessageActions, MessageEditor, useMessageEditing } from './MessageActions';
import { ShownText } from './ShownText';
import { MessageAvatar } from './CharacterPicture';
import { MessageWidgets } from '../frontends/message-extras';

export const UserMessage = memo(function UserMessage(props: { message: ChatMessage | null; text?: string; name: string; sessionId: string; pending?: boolean; depth?: number }) {
  const { message } = props;
  const edit = useMessageEditing();
  return (
    <article className="msg msg--user" data-testid="message" data-role="user" data-message-id={message?.id} aria-label={`${props.name} said`}>
      <header className="msg__head">
        <MessageAvatar name={props.name} />
        <span className="msg__name">{props.name}</span>
        {props.pending && <span className="msg__meta">sending…</span>}
      </header>
      {edit.editing && message ? (
        <MessageEditor sessionId={props.sessionId} message={message} onDone={edit.done} />
      ) : (
        <div className="msg__text">
          <ShownText sessionId={props.sessionId} messageId={message?.id ?? null} role="user" depth={props.depth ?? 0} text={message?.content ?? props.text ?? ''} />
        </div>
      )}
      <MessageWidgets messageId={message?.id ?? null} />
      {message && !edit.editing && <MessageActions sessionId={props.sessionId} message={message} last={false} onEdit={edit.start} takeFocus={edit.takeFocus} />}
    </article>
  );
});
