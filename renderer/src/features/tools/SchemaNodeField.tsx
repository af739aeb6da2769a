// One schema-form field chosen by the node's kind: text or multi-line text, number, checkbox, enum select,
// JSON text, a list or a nested object.
import { optionLabel, pathKey, type Draft, type FormNode } from './schema-form';
import { FieldShell, fieldId, Label, type Shared } from './SchemaFieldShell';
import { ListField } from './SchemaListField';
import { ObjectFields } from './SchemaObjectFields';

export function NodeField(props: Shared & { node: FormNode; draft: Draft; path: readonly number[]; name: string; required: boolean; title: string | null }) {
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
