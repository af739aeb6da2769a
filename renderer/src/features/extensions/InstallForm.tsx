// "Install": a .zip chosen or dropped here (uploaded to the host), or a folder or .zip path on the host's machine, read
// first so the grants offered are the permissions it asks for (or everything it asks for), whether its tools may run
// without asking, and what an extension can and cannot reach.
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { inspectExtension, installExtension, type ExtensionUpload } from '../../stores/extensions/extension-commands';
import { selectExtensions } from '../../stores/app/selectors';
import { bytesToBase64 } from '../workbench/files';
import { PERMISSION_INFO, type Permission } from './permissions';

/** An extension .zip is uploaded up to this size (base64 in one call stays under the host's import cap). */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export function InstallForm() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const [folder, setFolder] = useState('');
  const [grant, setGrant] = useState<ReadonlySet<Permission>>(new Set());
  const [allRequested, setAllRequested] = useState(false);
  const [trust, setTrust] = useState(false);
  const [replace, setReplace] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // A .zip chosen or dropped here; else the typed path is the source.
  const [upload, setUpload] = useState<ExtensionUpload | null>(null);
  const source = upload ?? folder.trim();
  const sourceKey = upload ? `upload:${upload.fileName}` : folder.trim();
  // The manifest of the source as it was read (null: not read yet, or the source changed since).
  const [inspected, setInspected] = useState<(MethodOutput<'extensions.inspect'> & { source: string }) | null>(null);
  const [reading, setReading] = useState(false);
  const readFor = useRef('');

  const read = async (what: string | ExtensionUpload = source) => {
    const key = typeof what === 'string' ? what : `upload:${what.fileName}`;
    if (!key || inspected?.source === key) return;
    readFor.current = key;
    setReading(true);
    setError(null);
    const result = await inspectExtension(host, what);
    setReading(false);
    if (readFor.current !== key) return;
    if (!result.ok) return setError(result.error);
    setInspected({ ...result.value, source: key });
    setGrant(new Set());
  };
  const offered: readonly Permission[] = inspected?.source === sourceKey ? inspected.requested : [];
  // The same id installed by the user: this install is an update, which replaces it (its stored data is kept).
  const installedAlready = useAppStore(selectExtensions).find((e) => inspected?.source === sourceKey && e.id === inspected.id && e.source === 'user');

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setDone(null);
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) return setError({ code: 'INPUT_TOO_LARGE', message: `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; an extension .zip is uploaded up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, path: '/upload' });
    const chosen = { fileName: file.name, data: bytesToBase64(new Uint8Array(await file.arrayBuffer())) };
    setUpload(chosen);
    setFolder('');
    await read(chosen);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    void choose(event.dataTransfer.files[0]);
  };

  const toggle = (permission: Permission, on: boolean) =>
    setGrant((g) => {
      const next = new Set(g);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setDone(null);
    if (!source) {
      setError({ code: 'INVALID_INPUT', message: 'Choose the extension’s .zip, or enter the folder (or .zip) on this machine that holds its spindle.json.' });
      document.getElementById(`${id}-folder`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await installExtension(store, host, source, allRequested ? 'requested' : offered.filter((p) => grant.has(p)), trust, installedAlready !== undefined && replace);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setDone(`Installed ${result.value.name} ${result.value.version}.`);
    setFolder('');
    setUpload(null);
    setGrant(new Set());
    setAllRequested(false);
    setTrust(false);
    setReplace(true);
    setInspected(null);
  };

  return (
    <section className="card install" aria-labelledby={`${id}-title`} data-testid="install-form" onDragOver={(e) => e.dataTransfer.types.includes('Files') && e.preventDefault()} onDrop={onDrop}>
      <h2 id={`${id}-title`} className="card__title">
        Install from a .zip or a folder
      </h2>
      <p className="card__lead">
        Copies an extension (a folder with a <code>spindle.json</code>, or its <code>.zip</code> as GitHub serves it) into the data folder, builds{' '}
        <code>src/backend.ts</code> when that is all it ships, and starts it in its own worker. The path is read on the machine the host runs on.
      </p>
      <p className="field__hint" data-testid="install-reach">
        <strong>What it can reach:</strong> its own folder and its storage through the Workbench; the tools, events and services you grant below.{' '}
        <strong>What it cannot:</strong> your API keys, settings and other files, other processes, the network (except through{' '}
        <code>cors_proxy</code>), child processes and threads. Everything it starts dies with it.
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-zip`}>
            Extension .zip (choose, or drop it here)
          </label>
          <input id={`${id}-zip`} type="file" accept=".zip,application/zip" className="input" onChange={(e) => void choose(e.target.files?.[0])} />
          {upload && (
            <p className="field__hint" data-testid="install-upload">
              {upload.fileName}, ready to install
            </p>
          )}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-folder`}>
            Or a folder or .zip on the host’s machine
          </label>
          <input
            id={`${id}-folder`}
            type="text"
            className="input input--mono"
            value={folder}
            placeholder="/home/you/extensions/my-extension"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setFolder(e.target.value);
              setUpload(null);
            }}
            onBlur={() => void read()}
          />
          <button type="button" className="btn btn--small" aria-disabled={reading || !source || undefined} onClick={() => void read()}>
            {reading ? 'Reading…' : 'Read what it asks for'}
          </button>
        </div>
        <fieldset className="field-group install__grants">
          <legend className="field-group__legend">Grant at install</legend>
          {offered.length === 0 ? (
            <p className="field__hint" data-testid="install-requested">
              {inspected?.source === sourceKey
                ? `${inspected.name} ${inspected.version} asks for no permissions.`
                : 'Choose its .zip or enter its folder: what its spindle.json asks for is listed here to grant (and only that).'}
            </p>
          ) : (
            <>
              <p className="field__hint" data-testid="install-requested">
                {inspected!.name} {inspected!.version} asks for these. You can grant or revoke them later.
              </p>
              <label className="perm-check">
                <input type="checkbox" checked={allRequested} onChange={(e) => setAllRequested(e.target.checked)} />
                <span>Everything it asks for</span>
              </label>
              {offered.map((permission) => (
                <label key={permission} className="perm-check">
                  <input type="checkbox" checked={allRequested || grant.has(permission)} disabled={allRequested} onChange={(e) => toggle(permission, e.target.checked)} />
                  <span>
                    <code className="perm__name">{permission}</code>
                    <span className="perm__explanation">{PERMISSION_INFO[permission].explanation}</span>
                  </span>
                </label>
              ))}
            </>
          )}
        </fieldset>
        <label className="perm-check">
          <input type="checkbox" checked={trust} onChange={(e) => setTrust(e.target.checked)} />
          <span>
            Let its tools run without asking
            <span className="perm__explanation">
              Lumiverse tools declare no mode, so each call asks first. Tools that declare mode <code>write</code> or <code>requires_approval</code> still ask.
            </span>
          </span>
        </label>
        {installedAlready && (
          <label className="perm-check" data-testid="install-replace">
            <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
            <span>
              Replace the installed {installedAlready.name} {installedAlready.version}
              <span className="perm__explanation">An update: its files are replaced and it restarts; what it stored is kept.</span>
            </span>
          </label>
        )}
        <div className="install__actions">
          <button type="submit" className="btn btn--primary" aria-disabled={busy || undefined}>
            <Icon name="plus" />
            {busy ? 'Installing…' : 'Install'}
          </button>
          <span role="status" className="install__status">
            {busy ? 'Copying and starting the extension…' : done}
          </span>
        </div>
        {error && <InlineError error={error} title="Could not install" />}
      </form>
    </section>
  );
}
