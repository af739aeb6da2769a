// A message the person sent (pending until the host has it).
import { memo } from 'react';

export const UserMessage = memo(function UserMessage(props: { text: string; name: string; pending?: boolean }) {
  return (
    <article className="msg msg--user" data-testid="message" data-role="user" aria-label={`${props.name} said`}>
      <header className="msg__head">
        <span className="msg__name">{props.name}</span>
        {props.pending && <span className="msg__meta">sending…</span>}
      </header>
      <div className="msg__text">{props.text}</div>
    </article>
  );
});
