// "Install": a typed folder or .zip path (browser mode has no native picker), read first so the grants offered are the
// permissions it asks for (or everything it asks for), whether its tools may run without asking, and what an extension
// can and cannot reach.
import { useId, useRef, useState, type FormEvent } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { inspectExtension, installExtension } from '../../stores/extension-commands';
import { PERMISSION_INFO, type Permission } from './permissions';

export function InstallForm() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const [folder, setFolder] = useState('');
  const [grant, setGrant] = useState<ReadonlySet<Permission>>(new Set());
  const [allRequested, setAllRequested] = useState(false);
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The manifest of the path as it was read (null: not read yet, or the path changed since).
  const [inspected, setInspected] = useState<(MethodOutput<'extensions.inspect'> & { path: string }) | null>(null);
  const [reading, setReading] = useState(false);
  const readFor = useRef('');

  const read = async () => {
    const path = folder.trim();
    if (!path || reading || inspected?.path === path) return;
    readFor.current = path;
    setReading(true);
    setError(null);
    const result = await inspectExtension(host, path);
    setReading(false);
    if (readFor.current !== path) return;
    if (!result.ok) return setError(result.error);
    setInspected({ ...result.value, path });
    setGrant(new Set());
  };
  const offered: readonly Permission[] = inspected?.path === folder.trim() ? inspected.requested : [];

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
    const path = folder.trim();
    setDone(null);
    if (!path) {
      setError({ code: 'INVALID_INPUT', message: 'Enter the folder that holds the extension’s spindle.json, or its .zip file.' });
      document.getElementById(`${id}-folder`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await installExtension(store, host, path, allRequested ? 'requested' : offered.filter((p) => grant.has(p)), trust);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setDone(`Installed ${result.value.name} ${result.value.version}.`);
    setFolder('');
    setGrant(new Set());
    setAllRequested(false);
    setTrust(false);
    setInspected(null);
  };

  return (
    <section className="card install" aria-labelledby={`${id}-title`} data-testid="install-form">
      <h2 id={`${id}-title`} className="card__title">
        Install from a folder or a .zip
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
          <label className="field__label" htmlFor={`${id}-folder`}>
            Extension folder or .zip
          </label>
          <input
            id={`${id}-folder`}
            type="text"
            className="input input--mono"
            value={folder}
            placeholder="/home/you/extensions/my-extension"
            autoComplete="off"
            spellCheck={false}
            required
            onChange={(e) => setFolder(e.target.value)}
            onBlur={() => void read()}
          />
          <button type="button" className="btn btn--small" aria-disabled={reading || !folder.trim() || undefined} onClick={() => void read()}>
            {reading ? 'Reading…' : 'Read what it asks for'}
          </button>
        </div>
        <fieldset className="field-group install__grants">
          <legend className="field-group__legend">Grant at install</legend>
          {offered.length === 0 ? (
            <p className="field__hint" data-testid="install-requested">
              {inspected?.path === folder.trim()
                ? `${inspected.name} ${inspected.version} asks for no permissions.`
                : 'Enter its folder or .zip: what its spindle.json asks for is listed here to grant (and only that).'}
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
