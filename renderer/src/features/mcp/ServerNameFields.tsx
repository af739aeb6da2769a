// A server's name and id. While adding, the id follows the name until typed by hand; once added it is fixed.
import type { FieldKit } from '../../components/FieldError';
import { TextField } from '../../components/TextField';
import type { ServerDraft } from './server-draft';

export function ServerNameFields(props: { draft: ServerDraft; fixedId: string | null; kit: FieldKit; setName(name: string): void; setId(id: string): void }) {
  const { draft, kit } = props;
  const { fid } = kit;
  return (
    <div className="profile-form__grid">
      <TextField kit={kit} field="name" label="Name" value={draft.name} maxLength={100} placeholder="GitHub" onChange={props.setName} />
      <div className="field">
        <label className="field__label" htmlFor={fid('id')}>
          Id
        </label>
        {props.fixedId === null ? (
          <input
            id={fid('id')}
            className="input input--mono"
            value={draft.id}
            maxLength={60}
            autoComplete="off"
            spellCheck={false}
            placeholder="github"
            onChange={(e) => props.setId(e.target.value)}
            {...kit.invalid('id')}
          />
        ) : (
          <input id={fid('id')} className="input input--mono" value={props.fixedId} readOnly aria-readonly="true" />
        )}
        {kit.errorFor('id')}
        <p className="field__hint">
          {props.fixedId === null ? 'Lowercase letters, digits, - and _. ' : 'Fixed once added. '}
          Its tools are named <code>mcp-{draft.id || '<id>'}:&lt;tool&gt;</code>.
        </p>
      </div>
    </div>
  );
}
