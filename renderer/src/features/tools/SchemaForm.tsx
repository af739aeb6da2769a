// Renders a FormNode tree as labelled inputs: text, select for enums, checkbox, number, repeatable lists and fieldsets.
import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import {
  addListItem,
  initialDraft,
  optionLabel,
  pathKey,
  removeListItem,
  type ArrayNode,
  type Draft,
  type FormNode,
  type ObjectNode,
} from './schema-form';

export type DraftUpdate = (path: readonly number[], update: (part: Draft) => Draft) => void;

interface Shared {
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

function describe(node: FormNode): string[] {
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

function Label(props: { name: string; title: string | null; required: boolean }) {
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

function FieldShell(props: {
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

function NodeField(props: Shared & { node: FormNode; draft: Draft; path: readonly number[]; name: string; required: boolean; title: string | null }) {
  const { node, draft, path, idPrefix, errors, onChange } = props;
  const id = fieldId(idPrefix, path);
  const error = errors.get(pathKey(path));
  const label = <Label name={props.name} title={props.title} required={props.required} />;
  const setText = (text: string) => onChange(path, () => ({ kind: 'text', text }));

  switch (node.kind) {
    case 'string': {
      const value = draft.kind === 'text' ? draft.text : '';
      return (
        <FieldShell id={id} node={node} error={error} label={label}>
          {(describedBy) =>
            node.multiline ? (
              <textarea
                id={id}
                className="input input--area"
                value={value}
                rows={3}
                required={props.required}
                maxLength={node.maxLength ?? undefined}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(e) => setText(e.target.value)}
              />
            ) : (
              <input
                id={id}
                type="text"
                className="input"
                value={value}
                required={props.required}
                maxLength={node.maxLength ?? undefined}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                onChange={(e) => setText(e.target.value)}
              />
            )
          }
        </FieldShell>
      );
    }
    case 'number':
    case 'integer':
      return (
        <FieldShell id={id} node={node} error={error} label={label}>
          {(describedBy) => (
            <input
              id={id}
              type="text"
              inputMode={node.kind === 'integer' ? 'numeric' : 'decimal'}
              className="input input--number"
              value={draft.kind === 'text' ? draft.text : ''}
              required={props.required}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </FieldShell>
      );
    case 'boolean': {
      const value = draft.kind === 'bool' ? draft.value : null;
      return (
        <FieldShell id={id} node={node} error={error} label={label} inline>
          {(describedBy) => (
            <label className="field__check" htmlFor={id}>
              <input
                id={id}
                type="checkbox"
                checked={value === true}
                aria-describedby={describedBy}
                onChange={(e) => onChange(path, () => ({ kind: 'bool', value: e.target.checked }))}
              />
              {label}
              {value === null && !props.required && <span className="field__unset">not set, so not sent</span>}
            </label>
          )}
        </FieldShell>
      );
    }
    case 'enum': {
      const index = draft.kind === 'choice' ? draft.index : -1;
      return (
        <FieldShell id={id} node={node} error={error} label={label}>
          {(describedBy) => (
            <select
              id={id}
              className="input input--select"
              value={String(index)}
              required={props.required}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => onChange(path, () => ({ kind: 'choice', index: Number(e.target.value) }))}
            >
              <option value="-1">{props.required ? 'Choose…' : '(not set)'}</option>
              {node.options.map((option, i) => (
                <option key={i} value={String(i)}>
                  {optionLabel(option)}
                </option>
              ))}
            </select>
          )}
        </FieldShell>
      );
    }
    case 'json':
      return (
        <FieldShell id={id} node={node} error={error} label={label}>
          {(describedBy) => (
            <textarea
              id={id}
              className="input input--area input--mono"
              value={draft.kind === 'text' ? draft.text : ''}
              rows={3}
              required={props.required}
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </FieldShell>
      );
    case 'array':
      return <ListField {...props} node={node} id={id} error={error} label={label} />;
    case 'object':
      return (
        <fieldset className="field-group" id={id}>
          <legend className="field-group__legend">{label}</legend>
          {node.description && <p className="field__hint">{node.description}</p>}
          <ObjectFields {...props} node={node} />
        </fieldset>
      );
  }
}

function ListField(
  props: Shared & { node: ArrayNode; draft: Draft; path: readonly number[]; name: string; id: string; error: string | undefined; label: ReactNode },
) {
  const { node, draft, path, onChange } = props;
  const items = draft.kind === 'list' ? draft.items : [];
  const full = node.maxItems !== null && items.length >= node.maxItems;
  const hints = describe(node);
  return (
    <fieldset className="field-group field-group--list" id={props.id} aria-describedby={props.error ? `${props.id}-error` : undefined}>
      <legend className="field-group__legend">{props.label}</legend>
      {hints.length > 0 && <p className="field__hint">{hints.join(' ')}</p>}
      {items.length === 0 && <p className="field__empty">No items.</p>}
      <ol className="field-list">
        {items.map((item, index) => {
          const itemPath = [...path, index];
          const removeLabel = `Remove item ${index + 1} from ${props.name}`;
          const itemNode = node.items;
          return (
            <li key={item.id} className="field-list__item">
              <div className="field-list__body">
                <NodeField
                  idPrefix={props.idPrefix}
                  errors={props.errors}
                  onChange={onChange}
                  node={itemNode}
                  draft={item.draft}
                  path={itemPath}
                  name={`Item ${index + 1}`}
                  required
                  title={null}
                />
              </div>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                aria-label={removeLabel}
                title={removeLabel}
                onClick={() => onChange(path, (d) => removeListItem(d, index))}
              >
                <Icon name="trash" />
                <span aria-hidden="true">Remove</span>
              </button>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn btn--small"
        disabled={full}
        onClick={() => onChange(path, (d) => addListItem(node, d))}
        aria-label={`Add an item to ${props.name}`}
      >
        <Icon name="plus" />
        <span aria-hidden="true">Add item</span>
      </button>
      {props.error && (
        <p className="field__error" id={`${props.id}-error`}>
          <Icon name="error" /> {props.error}
        </p>
      )}
    </fieldset>
  );
}

function ObjectFields(props: Shared & { node: ObjectNode; draft: Draft; path: readonly number[] }) {
  const drafts = props.draft.kind === 'fields' ? props.draft.fields : [];
  return (
    <div className="field-stack">
      {props.node.fields.map((field, index) => (
        <NodeField
          key={`${index}:${field.name}`}
          idPrefix={props.idPrefix}
          errors={props.errors}
          onChange={props.onChange}
          node={field.node}
          draft={drafts[index] ?? initialDraft(field.node)}
          path={[...props.path, index]}
          name={field.name}
          required={field.required}
          title={field.node.title}
        />
      ))}
    </div>
  );
}

/** The form for a tool's arguments: one field per property of the root object. */
export function SchemaForm(props: Shared & { root: ObjectNode; draft: Draft }) {
  if (props.root.fields.length === 0) return <p className="field__empty">This tool takes no arguments.</p>;
  return <ObjectFields {...props} node={props.root} path={[]} />;
}
