// The add/edit form for one MCP server: stdio (program, arguments one per field, env rows, folder) or HTTP (URL, headers),
// trust and enabled. Checks run as the user saves; the host's field errors land on the field they name.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import { useAppStoreApi, useHost } from '../../app/context';
import { fieldKit } from '../../components/FieldError';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { addMcpServer, updateMcpServer } from '../../stores/mcp/mcp-commands';
import {
  checkDraft,
  draftFromConfig,
  fieldMessage,
  fieldOfPath,
  idFromName,
  toAddInput,
  toPatch,
  type FieldErrors,
  type ServerDraft,
} from './server-draft';
import { TRUST_HELP } from './status';
import { HttpFields } from './HttpFields';
import { ServerNameFields } from './ServerNameFields';
import { StdioFields } from './StdioFields';
import { FormStatus } from '../../components/FormStatus';

const FIELD_ORDER = ['id', 'name', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers'];

export function ServerForm(props: {
  /** The server being edited; absent to add one. */
  server?: McpServerInfo;
  onDone(server: McpServerInfo): void;
  onCancel(): void;
}) {
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const editing = props.server;
  const adding = !editing;
  const [draft, setDraft] = useState<ServerDraft>(() => draftFromConfig(editing?.config));
  const [idTouched, setIdTouched] = useState(Boolean(editing));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);

  const kit = fieldKit(uid, errors, { testIdPrefix: 'mcp-error-', wrap: true });
  const { fid } = kit;
  const set = (patch: Partial<ServerDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setName = (name: string) => setDraft((d) => ({ ...d, name, ...(idTouched ? {} : { id: idFromName(name) }) }));

  /** The element to focus for a field key: the first row of a list, the argument itself for `args.<n>`. */
  const focusTarget = (field: string): string => {
    if (field.startsWith('args.')) return fid(`arg-${field.slice(5)}`);
    if (field === 'args') return draft.args.length ? fid('arg-0') : fid('add-arg');
    if (field === 'env') return draft.env.length ? fid('env-key-0') : fid('add-env');
    if (field === 'headers') return draft.headers.length ? fid('header-key-0') : fid('add-header');
    if (field === 'transport') return fid('transport-stdio');
    return fid(field);
  };
  const focusFirst = (found: FieldErrors) => {
    const keys = Object.keys(found);
    const first = FIELD_ORDER.flatMap((f) => keys.filter((k) => k === f || (f === 'args' && k.startsWith('args.'))))[0];
    if (first) document.getElementById(focusTarget(first))?.focus();
  };

  const showHostError = (error: HostError) => {
    const field = fieldOfPath(error.path);
    if (field && (field !== 'id' || adding)) {
      const found = { [field]: fieldMessage(error) };
      setErrors(found);
      setFormError(null);
      focusFirst(found);
    } else {
      setErrors({});
      setFormError(error);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = checkDraft(draft, adding);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length) return focusFirst(found);
    setBusy(true);
    const result = editing ? await updateMcpServer(store, host, editing.config.id, toPatch(draft)) : await addMcpServer(store, host, toAddInput(draft));
    if (!mounted.current) return;
    setBusy(false);
    if (!result.ok) return showHostError(result.error);
    props.onDone(result.value);
  };

  const title = editing ? `Edit ${editing.config.name}` : 'Add an MCP server';
  return (
    <section className="card profile-form mcp-form" aria-labelledby={fid('title')} data-testid="mcp-form">
      <h2 id={fid('title')} className="card__title">
        {title}
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined}>
        <ServerNameFields
          draft={draft}
          fixedId={editing ? editing.config.id : null}
          kit={kit}
          setName={setName}
          setId={(id) => {
            setIdTouched(true);
            set({ id });
          }}
        />

        <fieldset className="field-group">
          <legend className="field-group__legend">Transport</legend>
          <div className="radio-row">
            <label className="radio">
              <input
                id={fid('transport-stdio')}
                type="radio"
                name={fid('transport')}
                checked={draft.transport === 'stdio'}
                onChange={() => set({ transport: 'stdio' })}
              />
              <span>Local program (stdio)</span>
            </label>
            <label className="radio">
              <input type="radio" name={fid('transport')} checked={draft.transport === 'http'} onChange={() => set({ transport: 'http' })} />
              <span>Remote URL (Streamable HTTP)</span>
            </label>
          </div>
          {kit.errorFor('transport')}
        </fieldset>

        {draft.transport === 'stdio' ? (
          <StdioFields draft={draft} errors={errors} kit={kit} set={set} />
        ) : (
          <HttpFields draft={draft} errors={errors} kit={kit} set={set} />
        )}

        <div className="mcp-form__checks">
          <label className="perm-check">
            <input type="checkbox" checked={draft.trusted} aria-describedby={fid('trusted-help')} onChange={(e) => set({ trusted: e.target.checked })} />
            <span>
              <strong>Trusted</strong>
              <span className="field__hint mcp-form__check-help" id={fid('trusted-help')}>
                {TRUST_HELP}
              </span>
            </span>
          </label>
          <label className="perm-check">
            <input type="checkbox" checked={draft.enabled} aria-describedby={fid('enabled-help')} onChange={(e) => set({ enabled: e.target.checked })} />
            <span>
              <strong>Enabled</strong>
              <span className="field__hint mcp-form__check-help" id={fid('enabled-help')}>
                Connect it now and whenever the host starts.
              </span>
            </span>
          </label>
        </div>

        {formError && <InlineError error={formError} title={editing ? 'Could not save' : 'Could not add the server'} />}

        <div className="form-actions">
          <button type="submit" className="btn btn--primary" aria-disabled={busy || undefined}>
            <Icon name="check" />
            {busy ? 'Saving…' : editing ? 'Save changes' : 'Add server'}
          </button>
          <button type="button" className="btn btn--ghost" onClick={props.onCancel}>
            Cancel
          </button>
          <FormStatus busy={busy && `Saving${draft.enabled ? ' and starting the server' : ''}…`} />
        </div>
      </form>
    </section>
  );
}
