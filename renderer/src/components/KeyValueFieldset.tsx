// A titled group of name–value rows (environment variables, HTTP headers): legend, hint, the rows, the group's error
// and an add button. The form owns the rows; `onAdd` adds one (and may move the focus to it).
import type { ReactNode } from 'react';
import { Icon } from './Icon';
import { KeyValueRows, type KeyValueRow } from './KeyValueRows';

export function KeyValueFieldset(props: {
  legend: string;
  hint: ReactNode;
  rows: KeyValueRow[];
  what: string;
  keyPlaceholder: string;
  valuePlaceholder: string;
  idFor(part: 'key' | 'value', index: number): string;
  /** The group's error line (null when it has none) and its id for aria-describedby. */
  error: ReactNode;
  errorId: string | undefined;
  onChange(rows: KeyValueRow[]): void;
  addLabel: string;
  addId?: string;
  onAdd(): void;
}) {
  return (
    <fieldset className="field-group">
      <legend className="field-group__legend">{props.legend}</legend>
      <p className="field__hint">{props.hint}</p>
      <KeyValueRows
        rows={props.rows}
        what={props.what}
        keyPlaceholder={props.keyPlaceholder}
        valuePlaceholder={props.valuePlaceholder}
        idFor={props.idFor}
        invalid={Boolean(props.errorId)}
        describedBy={props.errorId}
        onChange={props.onChange}
      />
      {props.error}
      <button type="button" id={props.addId} className="btn btn--small" onClick={props.onAdd}>
        <Icon name="plus" /> {props.addLabel}
      </button>
    </fieldset>
  );
}
