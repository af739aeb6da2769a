// The fields of a remote (Streamable HTTP) server: its URL and the headers sent with every request.
import type { FieldKit } from '../../components/FieldError';
import { KeyValueFieldset } from '../../components/KeyValueFieldset';
import { TextField } from '../../components/TextField';
import { nextRowId, type FieldErrors, type ServerDraft } from './server-draft';

export function HttpFields(props: { draft: ServerDraft; errors: FieldErrors; kit: FieldKit; set(patch: Partial<ServerDraft>): void }) {
  const { draft, errors, kit, set } = props;
  const { fid } = kit;
  return (
    <>
      <TextField
        kit={kit}
        field="url"
        label="URL"
        mono
        value={draft.url}
        placeholder="http://127.0.0.1:3000/mcp"
        onChange={(url) => set({ url })}
        hint="The server’s Streamable HTTP endpoint (http or https). The host connects, not this window."
      />
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
