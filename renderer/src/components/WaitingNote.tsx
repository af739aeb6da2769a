// "Waiting for …" with a spinner, announced politely, while a card's host call is in flight.
import type { ReactNode } from 'react';

export function WaitingNote(props: { children: ReactNode }) {
  return (
    <span className="ext-card__progress" role="status">
      <span className="spinner" aria-hidden="true" /> {props.children}
    </span>
  );
}
