// One labelled text input of a form, with its error line and hint: the shape most fields of the connection and MCP
// server forms share. Mono fields (ids, paths, URLs, keys) are set in the monospace font and not spell-checked.
import type { ReactNode } from 'react';
import type { FieldKit } from './FieldError';

export function TextField(props: {
  kit: FieldKit;
  /** The field's key: its id is kit.fid(field), its error kit.errorFor(field). */
  field: string;
  label: ReactNode;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  mono?: boolean;
  /** Shown but not editable (e.g. an id fixed once created): a plain read-only input. */
  readOnly?: boolean;
  type?: 'password';
  maxLength?: number;
  placeholder?: string;
  hint?: ReactNode;
  /** Shown between the label and the input. */
  before?: ReactNode;
  /** Shown after the hint. */
  after?: ReactNode;
}) {
  const { kit, field } = props;
  return (
    <div className="field">
      <label className="field__label" htmlFor={kit.fid(field)}>
        {props.label}
      </label>
      {props.before}
      {props.readOnly ? (
        <input id={kit.fid(field)} className={props.mono ? 'input input--mono' : 'input'} value={props.value} readOnly aria-readonly="true" />
      ) : (
        <input
          id={kit.fid(field)}
          className={props.mono ? 'input input--mono' : 'input'}
          type={props.type}
          value={props.value}
          maxLength={props.maxLength}
          autoComplete="off"
          spellCheck={props.mono ? false : undefined}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value)}
          onBlur={props.onBlur}
          {...kit.invalid(field)}
        />
      )}
      {kit.errorFor(field)}
      {props.hint !== undefined && <p className="field__hint">{props.hint}</p>}
      {props.after}
    </div>
  );
}
