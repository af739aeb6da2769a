// "Install from folder": a typed folder path (browser mode has no native picker) and the permissions to grant right away.
import { useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { installExtension } from '../../stores/extension-commands';
import { PERMISSION_INFO, PERMISSIONS, type Permission } from './permissions';

export function InstallForm() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const [folder, setFolder] = useState('');
  const [grant, setGrant] = useState<ReadonlySet<Permission>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const [done, setDone] = useState<string | null>(null);

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
      setError({ code: 'INVALID_INPUT', message: 'Enter the folder that holds the extension’s spindle.json.' });
      document.getElementById(`${id}-folder`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await installExtension(store, host, path, PERMISSIONS.filter((p) => grant.has(p)));
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setDone(`Installed ${result.value.name} ${result.value.version}.`);
    setFolder('');
    setGrant(new Set());
  };

  return (
    <section className="card install" aria-labelledby={`${id}-title`} data-testid="install-form">
      <h2 id={`${id}-title`} className="card__title">
        Install from folder
      </h2>
      <p className="card__lead">
        Copies an extension folder (one with a <code>spindle.json</code>) into the data folder and starts it in its own worker. The path is read on
        the machine the host runs on.
      </p>
      <form onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-folder`}>
            Extension folder
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
          />
        </div>
        <fieldset className="field-group install__grants">
          <legend className="field-group__legend">Grant at install</legend>
          <p className="field__hint">
            Check only permissions the extension asks for in its <code>spindle.json</code>: the host refuses a grant it did not request. You can
            grant or revoke later.
          </p>
          {PERMISSIONS.map((permission) => (
            <label key={permission} className="perm-check">
              <input type="checkbox" checked={grant.has(permission)} onChange={(e) => toggle(permission, e.target.checked)} />
              <span>
                <code className="perm__name">{permission}</code>
                <span className="perm__explanation">{PERMISSION_INFO[permission].explanation}</span>
              </span>
            </label>
          ))}
        </fieldset>
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
