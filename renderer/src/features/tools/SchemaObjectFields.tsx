// The fields of a schema-form object, one per property in schema order.
import { initialDraft, type Draft, type ObjectNode } from './schema-form';
import type { Shared } from './SchemaFieldShell';
import { NodeField } from './SchemaNodeField';

export function ObjectFields(props: Shared & { node: ObjectNode; draft: Draft; path: readonly number[] }) {
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
