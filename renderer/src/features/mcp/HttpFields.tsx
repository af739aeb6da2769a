// The fields of a remote (Streamable HTTP) server: its URL and the headers sent with every request.
import type { FieldKit } from '../../components/FieldError';
import { KeyValueFieldset } from '../../components/KeyValueFieldset';
import { nextRowId, type FieldErrors, type ServerDraft } from './server-draft';

export function HttpFields(props: { draft: ServerDraft; errors: FieldErrors; kit: FieldKit; set(patch: Partial<ServerDraft>): void }) {
  const { draft, errors, kit, set } = props;
  const { fid } = kit;
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={fid('url')}>
          URL
        </label>
        <input
          id={fid('url')}
          className="input input--mono"
          value={draft.url}
          autoComplete="off"
          spellCheck={false}
          placeholder="http://127.0.0.1:3000/mcp"
          onChange={(e) => set({ url: e.target.value })}
          {...kit.invalid('url')}
        />
        {kit.errorFor('url')}
        <p className="field__hint">The server’s Streamable HTTP endpoint (http or https). The host connects, not this window.</p>
      </div>
      <KeyValueFieldset
        legend="Headers"
        hint={
          <>
            Sent with every request, e.g. Authorization. Values are kept with your API keys, not in the settings file, and scrubbed from the server’s log:
            a stored one shows as ••••••••; leave that to keep it.
          </>
        }
        rows={draft.headers}
        what="Header"
        keyPlaceholder="Authorization"
        valuePlaceholder="Bearer …"
        idFor={(part, i) => fid(`header-${part}-${i}`)}
        error={kit.errorFor('headers')}
        errorId={errors.headers ? fid('headers-error') : undefined}
        onChange={(headers) => set({ headers })}
        addLabel="Add header"
        addId={fid('add-header')}
        onAdd={() => {
          set({ headers: [...draft.headers, { rowId: nextRowId(), key: '', value: '' }] });
          setTimeout(() => document.getElementById(fid(`header-key-${draft.headers.length}`))?.focus());
        }}
      />
    </>
  );
}
