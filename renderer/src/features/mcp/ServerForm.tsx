// The add/edit form for one MCP server: stdio (program, arguments one per field, env rows, folder) or HTTP (URL, headers),
// trust and enabled. Checks run as the user saves; the host's field errors land on the field they name.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { addMcpServer, updateMcpServer } from '../../stores/mcp-commands';
import {
  checkDraft,
  draftFromConfig,
  fieldMessage,
  fieldOfPath,
  idFromName,
  nextRowId,
  toAddInput,
  toPatch,
  type FieldErrors,
  type ServerDraft,
} from './server-draft';
import { TRUST_HELP } from './status';
import { KeyValueRows } from '../../components/KeyValueRows';

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

  const fid = (field: string) => `${uid}-${field}`;
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

  const errorFor = (field: string): ReactNode =>
    errors[field] ? (
      <p className="field__error" id={fid(`${field}-error`)} data-testid={`mcp-error-${field}`}>
        <Icon name="error" />
        <span>{errors[field]}</span>
      </p>
    ) : null;
  const invalid = (field: string) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? fid(`${field}-error`) : undefined,
  });

  const updateArg = (rowId: number, value: string) => set({ args: draft.args.map((a) => (a.rowId === rowId ? { ...a, value } : a)) });
  const moveArg = (index: number, by: -1 | 1) => {
    const next = [...draft.args];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    set({ args: next });
    setTimeout(() => document.getElementById(fid(`arg-${index + by}`))?.focus());
  };
  const addArg = () => {
    set({ args: [...draft.args, { rowId: nextRowId(), value: '' }] });
    setTimeout(() => document.getElementById(fid(`arg-${draft.args.length}`))?.focus());
  };

  const title = editing ? `Edit ${editing.config.name}` : 'Add an MCP server';
  return (
    <section className="card profile-form mcp-form" aria-labelledby={fid('title')} data-testid="mcp-form">
      <h2 id={fid('title')} className="card__title">
        {title}
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined}>
        <div className="profile-form__grid">
          <div className="field">
            <label className="field__label" htmlFor={fid('name')}>
              Name
            </label>
            <input
              id={fid('name')}
              className="input"
              value={draft.name}
              maxLength={100}
              autoComplete="off"
              placeholder="GitHub"
              onChange={(e) => setName(e.target.value)}
              {...invalid('name')}
            />
            {errorFor('name')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={fid('id')}>
              Id
            </label>
            {adding ? (
              <input
                id={fid('id')}
                className="input input--mono"
                value={draft.id}
                maxLength={60}
                autoComplete="off"
                spellCheck={false}
                placeholder="github"
                onChange={(e) => {
                  setIdTouched(true);
                  set({ id: e.target.value });
                }}
                {...invalid('id')}
              />
            ) : (
              <input id={fid('id')} className="input input--mono" value={editing.config.id} readOnly aria-readonly="true" />
            )}
            {errorFor('id')}
            <p className="field__hint">
              {adding ? 'Lowercase letters, digits, - and _. ' : 'Fixed once added. '}
              Its tools are named <code>mcp-{draft.id || '<id>'}:&lt;tool&gt;</code>.
            </p>
          </div>
        </div>

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
          {errorFor('transport')}
        </fieldset>

        {draft.transport === 'stdio' ? (
          <>
            <div className="field">
              <label className="field__label" htmlFor={fid('command')}>
                Program
              </label>
              <input
                id={fid('command')}
                className="input input--mono"
                value={draft.command}
                autoComplete="off"
                spellCheck={false}
                placeholder="npx"
                onChange={(e) => set({ command: e.target.value })}
                {...invalid('command')}
              />
              {errorFor('command')}
              <p className="field__hint">The program itself — a name found on PATH or a full path. It is started directly, never through a shell.</p>
            </div>

            <fieldset className="field-group" aria-describedby={fid('args-note')}>
              <legend className="field-group__legend">Arguments</legend>
              <p className="field__hint mcp-form__literal" id={fid('args-note')}>
                <Icon name="info" />
                <span>
                  Arguments are passed literally, no shell: each field is one argument, exactly as typed. Quotes, spaces, <code>$VARIABLES</code>,{' '}
                  <code>~</code>, <code>*</code> and <code>|</code> mean nothing special.
                </span>
              </p>
              {draft.args.length > 0 && (
                <ol className="field-list mcp-args" data-testid="mcp-args">
                  {draft.args.map((arg, i) => (
                    <li key={arg.rowId} className="mcp-args__row">
                      <span className="mcp-args__index" aria-hidden="true">
                        {i + 1}
                      </span>
                      <input
                        id={fid(`arg-${i}`)}
                        className="input input--mono"
                        aria-label={`Argument ${i + 1}`}
                        value={arg.value}
                        autoComplete="off"
                        spellCheck={false}
                        onChange={(e) => updateArg(arg.rowId, e.target.value)}
                        {...invalid(`args.${i}`)}
                      />
                      <button type="button" className="btn btn--ghost btn--small" aria-label={`Move argument ${i + 1} up`} disabled={i === 0} onClick={() => moveArg(i, -1)}>
                        ↑
                      </button>
                      <button
                        type="button"
                        className="btn btn--ghost btn--small"
                        aria-label={`Move argument ${i + 1} down`}
                        disabled={i === draft.args.length - 1}
                        onClick={() => moveArg(i, 1)}
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        className="btn btn--ghost btn--small"
                        aria-label={`Remove argument ${i + 1}`}
                        onClick={() => set({ args: draft.args.filter((a) => a.rowId !== arg.rowId) })}
                      >
                        <Icon name="trash" />
                      </button>
                      {errors[`args.${i}`] && <div className="mcp-args__error">{errorFor(`args.${i}`)}</div>}
                    </li>
                  ))}
                </ol>
              )}
              {errorFor('args')}
              <button type="button" id={fid('add-arg')} className="btn btn--small" onClick={addArg}>
                <Icon name="plus" /> Add argument
              </button>
            </fieldset>

            <fieldset className="field-group">
              <legend className="field-group__legend">Environment</legend>
              <p className="field__hint">
                Only these variables reach the server, plus PATH. Nothing else from the host’s environment — API keys included — is passed on. Values are
                scrubbed from its log; those of secret-looking names (key, token, password…) are kept with your API keys, not in the settings file, and
                show as ••••••••; leave that to keep them.
              </p>
              <KeyValueRows
                rows={draft.env}
                what="Variable"
                keyPlaceholder="GITHUB_TOKEN"
                valuePlaceholder="value"
                idFor={(part, i) => fid(`env-${part}-${i}`)}
                invalid={Boolean(errors.env)}
                describedBy={errors.env ? fid('env-error') : undefined}
                onChange={(env) => set({ env })}
              />
              {errorFor('env')}
              <button
                type="button"
                id={fid('add-env')}
                className="btn btn--small"
                onClick={() => {
                  set({ env: [...draft.env, { rowId: nextRowId(), key: '', value: '' }] });
                  setTimeout(() => document.getElementById(fid(`env-key-${draft.env.length}`))?.focus());
                }}
              >
                <Icon name="plus" /> Add variable
              </button>
            </fieldset>

            <div className="field">
              <label className="field__label" htmlFor={fid('cwd')}>
                Working folder <span className="field__unset">optional</span>
              </label>
              <input
                id={fid('cwd')}
                className="input input--mono"
                value={draft.cwd}
                autoComplete="off"
                spellCheck={false}
                placeholder="/home/me/projects/my-server"
                onChange={(e) => set({ cwd: e.target.value })}
                {...invalid('cwd')}
              />
              {errorFor('cwd')}
              <p className="field__hint">Where the program starts. Leave empty for the host’s default.</p>
            </div>
          </>
        ) : (
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
                {...invalid('url')}
              />
              {errorFor('url')}
              <p className="field__hint">The server’s Streamable HTTP endpoint (http or https). The host connects, not this window.</p>
            </div>
            <fieldset className="field-group">
              <legend className="field-group__legend">Headers</legend>
              <p className="field__hint">
                Sent with every request, e.g. Authorization. Values are kept with your API keys, not in the settings file, and scrubbed from the server’s
                log: a stored one shows as ••••••••; leave that to keep it.
              </p>
              <KeyValueRows
                rows={draft.headers}
                what="Header"
                keyPlaceholder="Authorization"
                valuePlaceholder="Bearer …"
                idFor={(part, i) => fid(`header-${part}-${i}`)}
                invalid={Boolean(errors.headers)}
                describedBy={errors.headers ? fid('headers-error') : undefined}
                onChange={(headers) => set({ headers })}
              />
              {errorFor('headers')}
              <button
                type="button"
                id={fid('add-header')}
                className="btn btn--small"
                onClick={() => {
                  set({ headers: [...draft.headers, { rowId: nextRowId(), key: '', value: '' }] });
                  setTimeout(() => document.getElementById(fid(`header-key-${draft.headers.length}`))?.focus());
                }}
              >
                <Icon name="plus" /> Add header
              </button>
            </fieldset>
          </>
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
          <span className="form-actions__status" role="status">
            {busy && (
              <>
                <span className="spinner" aria-hidden="true" /> Saving{draft.enabled ? ' and starting the server' : ''}…
              </>
            )}
          </span>
        </div>
      </form>
    </section>
  );
}
