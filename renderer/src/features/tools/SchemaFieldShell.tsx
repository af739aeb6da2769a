// The frame of one schema-form field: its label (name, required mark, title), the hint built from the schema
// (description, range, length, default) and its error line, tied to the input by id and aria-describedby.
import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import { optionLabel, type Draft, type FormNode } from './schema-form';

export type DraftUpdate = (path: readonly number[], update: (part: Draft) => Draft) => void;

export interface Shared {
  idPrefix: string;
  errors: ReadonlyMap<string, string>;
  onChange: DraftUpdate;
}

export function fieldId(idPrefix: string, path: readonly number[]): string {
  return `${idPrefix}-f${path.join('-')}`;
}

/** Ends a sentence-like hint with a full stop, so joined hints read as sentences. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…:)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function describe(node: FormNode): string[] {
  const parts: string[] = [];
  if (node.description) parts.push(sentence(node.description));
  if (node.kind === 'number' || node.kind === 'integer') {
    const kind = node.kind === 'integer' ? 'A whole number' : 'A number';
    if (node.minimum !== null && node.maximum !== null) parts.push(`${kind} from ${node.minimum} to ${node.maximum}.`);
    else if (node.minimum !== null) parts.push(`${kind}, at least ${node.minimum}.`);
    else if (node.maximum !== null) parts.push(`${kind}, at most ${node.maximum}.`);
    else if (node.kind === 'integer') parts.push(`${kind}.`);
  }
  if (node.kind === 'string' && node.maxLength !== null) parts.push(`Up to ${node.maxLength} characters.`);
  if (node.kind === 'json') parts.push(node.reason);
  if (node.hasDefault && node.defaultValue !== undefined) parts.push(`Default: ${optionLabel(node.defaultValue)}.`);
  return parts;
}

export function Label(props: { name: string; title: string | null; required: boolean }) {
  return (
    <>
      <code className="field__name">{props.name}</code>
      {props.required && (
        <span className="field__req" title="Required">
          <span aria-hidden="true">*</span>
          <span className="visually-hidden"> (required)</span>
        </span>
      )}
      {props.title && props.title !== props.name && <span className="field__title">{props.title}</span>}
    </>
  );
}

export function FieldShell(props: {
  id: string;
  node: FormNode;
  error: string | undefined;
  label: ReactNode;
  children(describedBy: string | undefined): ReactNode;
  inline?: boolean;
}) {
  const hints = describe(props.node);
  const hintId = hints.length ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error ? ' field--invalid' : ''}`}>
      {props.inline ? (
        props.children(describedBy)
      ) : (
        <>
          <label className="field__label" htmlFor={props.id}>
            {props.label}
          </label>
          {props.children(describedBy)}
        </>
      )}
      {hintId && (
        <p className="field__hint" id={hintId}>
          {hints.join(' ')}
        </p>
      )}
      {errorId && (
        <p className="field__error" id={errorId}>
          <Icon name="error" /> {props.error}
        </p>
      )}
    </div>
  );
}
