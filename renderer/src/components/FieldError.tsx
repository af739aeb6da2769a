// The error line under a field (class field__error, an error icon, the message), and the ids and aria attributes
// that tie a form's fields to their errors. Shared by the connection, MCP server and sidecar forms.
import type { ReactNode } from 'react';
import { Icon } from './Icon';

export function FieldError(props: { id?: string; testId?: string; role?: 'alert'; children: ReactNode }) {
  return (
    <p className="field__error" id={props.id} data-testid={props.testId} role={props.role}>
      <Icon name="error" />
      {props.children}
    </p>
  );
}

export interface FieldKit {
  /** The DOM id of a field (or of one of its parts) in this form. */
  fid(field: string): string;
  /** The field's error line, or nothing when it has none. */
  errorFor(field: string): ReactNode;
  /** aria-invalid and aria-describedby for a field's input. */
  invalid(field: string): { 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };
}

/**
 * Field helpers for one form: ids are `${prefix}-${field}`, a field's error line is `${prefix}-${field}-error`.
 * `testIdPrefix` gives each error line the test id `${testIdPrefix}${field}`; `wrap` puts the message in a span.
 */
export function fieldKit(prefix: string, errors: Readonly<Record<string, string | undefined>>, options: { testIdPrefix?: string; wrap?: boolean } = {}): FieldKit {
  const fid = (field: string) => `${prefix}-${field}`;
  return {
    fid,
    errorFor: (field) =>
      errors[field] ? (
        <FieldError id={fid(`${field}-error`)} testId={options.testIdPrefix === undefined ? undefined : `${options.testIdPrefix}${field}`}>
          {options.wrap ? <span>{errors[field]}</span> : errors[field]}
        </FieldError>
      ) : null,
    invalid: (field) => ({
      'aria-invalid': errors[field] ? true : undefined,
      'aria-describedby': errors[field] ? fid(`${field}-error`) : undefined,
    }),
  };
}
