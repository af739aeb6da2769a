// Renders a FormNode tree as labelled inputs: text, select for enums, checkbox, number, repeatable lists and fieldsets.
import type { Draft, ObjectNode } from './schema-form';
import type { Shared } from './SchemaFieldShell';
export { fieldId, type DraftUpdate } from './SchemaFieldShell';
import { ObjectFields } from './SchemaObjectFields';

/** The form for a tool's arguments: one field per property of the root object. */
export function SchemaForm(props: Shared & { root: ObjectNode; draft: Draft }) {
  if (props.root.fields.length === 0) return <p className="field__empty">This tool takes no arguments.</p>;
  return <ObjectFields {...props} node={props.root} path={[]} />;
}
