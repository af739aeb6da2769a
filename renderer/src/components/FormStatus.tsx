// The status line after a form's buttons: a spinner and what is happening while something is in flight, otherwise
// the form's resting note (e.g. "Unsaved changes."). Announced politely.
import type { ReactNode } from 'react';

export function FormStatus(props: { busy: ReactNode; idle?: ReactNode }) {
  return (
    <span className="form-actions__status" role="status">
      {props.busy ? (
        <>
          <span className="spinner" aria-hidden="true" /> {props.busy}
        </>
      ) : (
        props.idle
      )}
    </span>
  );
}
