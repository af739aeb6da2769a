// The fields of a local (stdio) server: the program, its arguments, the environment it gets and its working folder.
import type { FieldKit } from '../../components/FieldError';
import { KeyValueFieldset } from '../../components/KeyValueFieldset';
import { TextField } from '../../components/TextField';
import { ArgumentList } from './ArgumentList';
import { nextRowId, type FieldErrors, type ServerDraft } from './server-draft';

export function StdioFields(props: { draft: ServerDraft; errors: FieldErrors; kit: FieldKit; set(patch: Partial<ServerDraft>): void }) {
  const { draft, errors, kit, set } = props;
  const { fid } = kit;
  return (
    <>
      <TextField
        kit={kit}
        field="command"
        label="Program"
        mono
        value={draft.command}
        placeholder="npx"
        onChange={(command) => set({ command })}
        hint="The program itself — a name found on PATH or a full path. It is started directly, never through a shell."
      />

      <ArgumentList args={draft.args} errors={errors} kit={kit} onChange={(args) => set({ args })} />

      <KeyValueFieldset
        legend="Environment"
        hint={
          <>
            Only these variables reach the server, plus PATH. Nothing else from the host’s environment — API keys included — is passed on. Values are
            scrubbed from its log; those of secret-looking names (key, token, password…) are kept with your API keys, not in the settings file, and show
            as ••••••••; leave that to keep them.
          </>
        }
        rows={draft.env}
        what="Variable"
        keyPlaceholder="GITHUB_TOKEN"
        valuePlaceholder="value"
        idFor={(part, i) => fid(`env-${part}-${i}`)}
        error={kit.errorFor('env')}
        errorId={errors.env ? fid('env-error') : undefined}
        onChange={(env) => set({ env })}
        addLabel="Add variable"
        addId={fid('add-env')}
        onAdd={() => {
          set({ env: [...draft.env, { rowId: nextRowId(), key: '', value: '' }] });
          setTimeout(() => document.getElementById(fid(`env-key-${draft.env.length}`))?.focus());
        }}
      />

      <TextField
        kit={kit}
        field="cwd"
        label={
          <>
            Working folder <span className="field__unset">optional</span>
          </>
        }
        mono
        value={draft.cwd}
        placeholder="/home/me/projects/my-server"
        onChange={(cwd) => set({ cwd })}
        hint="Where the program starts. Leave empty for the host’s default."
      />
    </>
  );
}
