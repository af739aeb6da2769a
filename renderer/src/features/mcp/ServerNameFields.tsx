// A server's name and id. While adding, the id follows the name until typed by hand; once added it is fixed.
import type { FieldKit } from '../../components/FieldError';
import { TextField } from '../../components/TextField';
import type { ServerDraft } from './server-draft';

export function ServerNameFields(props: { draft: ServerDraft; fixedId: string | null; kit: FieldKit; setName(name: string): void; setId(id: string): void }) {
  const { draft, kit } = props;
  return (
    <div className="profile-form__grid">
      <TextField kit={kit} field="name" label="Name" value={draft.name} maxLength={100} placeholder="GitHub" onChange={props.setName} />
      <TextField
        kit={kit}
        field="id"
        label="Id"
        mono
        readOnly={props.fixedId !== null}
        value={props.fixedId ?? draft.id}
        maxLength={60}
        placeholder="github"
        onChange={props.setId}
        hint={
          <>
            {props.fixedId === null ? 'Lowercase letters, digits, - and _. ' : 'Fixed once added. '}
            Its tools are named <code>mcp-{draft.id || '<id>'}:&lt;tool&gt;</code>.
          </>
        }
      />
    </div>
  );
}
