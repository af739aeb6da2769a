// The inline "Remove X?" confirmation shared by extension, MCP server and council member cards, and the "Remove…"
// button that opens it (connection cards and pack rows too).
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Icon } from './Icon';

export function ConfirmRemove(props: {
  /** The card's useConfirmRemove(): nothing shows while it is closed. */
  confirm: ConfirmState;
  name: string;
  /** What removing loses, after "Remove <name>" — e.g. "? Its tools disappear. This cannot be undone." */
  consequence: ReactNode;
  /** What the card has in flight, if anything: 'remove' is this confirmation's own. */
  busy: string | null;
  onRemove: () => void;
}) {
  if (!props.confirm.open) return null;
  return (
    <div className="confirm" role="group" aria-label={`Confirm removing ${props.name}`} data-testid="confirm-remove">
      <p>
        Remove <strong>{props.name}</strong>
        {props.consequence}
      </p>
      <div className="confirm__actions">
        <button type="button" className="btn btn--danger" aria-disabled={props.busy !== null || undefined} onClick={props.onRemove}>
          {props.busy === 'remove' ? 'Removing…' : 'Remove'}
        </button>
        <button type="button" ref={props.confirm.cancelRef} className="btn" onClick={props.confirm.cancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * The confirmation's state and focus for a card: Cancel takes focus when it opens, and the card's
 * "Remove…" button (removeRef) gets it back when Cancel closes it.
 */
export type ConfirmState = ReturnType<typeof useConfirmRemove>;

export function useConfirmRemove() {
  const [open, setOpen] = useState(false);
  const removeRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) cancelRef.current?.focus();
  }, [open]);
  return {
    open,
    removeRef,
    cancelRef,
    ask: () => setOpen(true),
    cancel: () => {
      setOpen(false);
      setTimeout(() => removeRef.current?.focus());
    },
  };
}

/** A card's "Remove…" button: it only asks; the confirmation does the removing. While `busy` it does nothing. */
export function AskRemoveButton(props: { name: string; busy: boolean; small?: boolean; buttonRef?: RefObject<HTMLButtonElement | null>; onAsk(): void }) {
  return (
    <button
      type="button"
      ref={props.buttonRef}
      className={props.small ? 'btn btn--small btn--danger-ghost' : 'btn btn--danger-ghost'}
      aria-disabled={props.busy || undefined}
      aria-label={`Remove ${props.name}…`}
      onClick={() => !props.busy && props.onAsk()}
    >
      <Icon name="trash" />
      <span aria-hidden="true">Remove…</span>
    </button>
  );
}
