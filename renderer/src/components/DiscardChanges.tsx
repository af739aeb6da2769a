// "Discard changes": shown while a form has unsaved edits, to go back to what the host has.
export function DiscardChanges(props: { dirty: boolean; onDiscard(): void }) {
  if (!props.dirty) return null;
  return (
    <button type="button" className="btn btn--ghost" onClick={props.onDiscard}>
      Discard changes
    </button>
  );
}
