// A schema-form list (array): one field per item with Remove, and Add item up to the schema's maxItems.
import type { ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import { addListItem, removeListItem, type ArrayNode, type Draft } from './schema-form';
import { describe, type Shared } from './SchemaFieldShell';
import { NodeField } from './SchemaNodeField';

export function ListField(
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
      <ol className="stack-list field-list">
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
