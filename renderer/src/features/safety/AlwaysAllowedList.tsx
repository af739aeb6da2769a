// The tools allowed to run without asking ("Always allow" in the approval dialog), each with Revoke.
import { useId, useState } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { reloadAllowed, revokeAllowed } from '../../stores/safety/safety-commands';
import { selectAllowed } from '../../stores/safety/safety-selectors';
import { useAction } from '../../components/use-action';
import { AskingHost } from '../../components/AskingHost';

function when(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function AlwaysAllowedList() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const allowed = useAppStore(selectAllowed);
  const { busy, error, run } = useAction<string>();
  const [announce, setAnnounce] = useState('');
  const revoke = (qualifiedName: string, name: string) =>
    void run(`revoke:${qualifiedName}`, `Could not revoke ${name}`, () => revokeAllowed(store, host, qualifiedName)).then((r) => {
      if (r?.ok) {
        setAnnounce(`${name} will ask for approval again.`);
        document.getElementById(`${id}-title`)?.focus();
      }
    });
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="always-allowed">
      <div className="card__head">
        <h2 id={`${id}-title`} className="card__title" tabIndex={-1}>
          Always allowed
        </h2>
        <button type="button" className="btn btn--small btn--ghost" aria-label="Reload the always-allowed list" onClick={() => void reloadAllowed(store, host)}>
          <Icon name="refresh" />
        </button>
      </div>
      <p className="card__lead">Tools you answered with “Always allow”. They run without asking while their definition stays the same; a changed tool asks again.</p>
      {allowed.error && <InlineError error={allowed.error} title="Could not read the list" />}
      {!allowed.loaded ? (
        <AskingHost>for the safety settings</AskingHost>
      ) : allowed.items.length === 0 ? (
        <p className="panel-note" data-testid="always-allowed-empty">
          No tool is always allowed.
        </p>
      ) : (
        <ul className="stack-list allowed-list">
          {allowed.items.map((entry) => {
            const name = entry.displayName ?? entry.qualifiedName;
            return (
              <li key={entry.qualifiedName} className="allowed-row" data-testid="allowed-entry" data-qualified-name={entry.qualifiedName}>
                <div className="allowed-row__text">
                  <strong>{name}</strong>
                  <code>{entry.qualifiedName}</code>
                  {entry.current ? (
                    <span className="badge badge--ok">allowed</span>
                  ) : (
                    <span className="badge badge--write" data-testid="allowed-stale" title="The tool changed (or is gone) since you allowed it, so it asks again.">
                      {entry.displayName === null ? 'gone — will ask again' : 'changed since — will ask again'}
                    </span>
                  )}
                  {entry.grantedAt !== undefined && <span className="allowed-row__when">since {when(entry.grantedAt)}</span>}
                </div>
                <button
                  type="button"
                  className="btn btn--small btn--danger-ghost"
                  aria-label={`Revoke ${name}`}
                  aria-disabled={busy !== null || undefined}
                  onClick={() => busy === null && revoke(entry.qualifiedName, name)}
                >
                  <span aria-hidden="true">{busy === `revoke:${entry.qualifiedName}` ? 'Revoking…' : 'Revoke'}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
      <p className="visually-hidden" role="status">
        {announce}
      </p>
    </section>
  );
}
