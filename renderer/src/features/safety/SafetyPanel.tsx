// Safety section: what waits for approval, the write policy and the dry-run default, the tools always allowed (with
// revoke), and the Workbench's allowed read/write paths. Every value is the host's; changes go through settings.update.
import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { readSafetySettings } from '../../../../shared/types/safety';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { reloadAllowed, revokeAllowed, updateSafety } from '../../stores/safety-commands';
import { selectAllowed, selectApprovalCount } from '../../stores/safety-selectors';
import { useAction } from '../council/use-action';
import { PathListEditor } from './PathListEditor';
import './safety.css';
import { AskingHost } from '../../components/AskingHost';

function when(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function Policy() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const loaded = useAppStore((s) => s.settings !== null);
  const { approveAllWrites, dryRun } = useAppStore(useShallow((s) => {
    const safety = readSafetySettings(s.settings?.safety);
    return { approveAllWrites: safety.approveAllWrites, dryRun: safety.dryRun };
  }));
  const { busy, error, run } = useAction<'writes' | 'dry'>();
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="safety-policy">
      <h2 id={`${id}-title`} className="card__title">
        Policy
      </h2>
      <div className="safety-switches">
        <div>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={approveAllWrites}
              disabled={!loaded}
              aria-describedby={`${id}-writes-help`}
              aria-busy={busy === 'writes' || undefined}
              onChange={(e) => void run('writes', 'Could not change the write policy', () => updateSafety(store, host, { approveAllWrites: e.target.checked }))}
              data-testid="approve-all-writes"
            />
            <span className="switch__track" aria-hidden="true" />
            <span>Ask before every write tool</span>
          </label>
          <p className="safety-switch__help" id={`${id}-writes-help`}>
            {approveAllWrites
              ? 'On: any tool that can change things waits for your approval (tools you chose to always allow excepted).'
              : 'Off: only tools that declare they need approval ask first; other write tools run at once.'}
          </p>
        </div>
        <div>
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              checked={dryRun}
              disabled={!loaded}
              aria-describedby={`${id}-dry-help`}
              aria-busy={busy === 'dry' || undefined}
              onChange={(e) => void run('dry', 'Could not change the dry-run default', () => updateSafety(store, host, { dryRun: e.target.checked }))}
              data-testid="dry-run-default"
            />
            <span className="switch__track" aria-hidden="true" />
            <span>Dry run by default</span>
          </label>
          <p className="safety-switch__help" id={`${id}-dry-help`}>
            Council runs and Workbench messages simulate write tools instead of running them (results are marked simulated). Each run and message can still choose.
          </p>
        </div>
      </div>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}

function AlwaysAllowed() {
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
        <ul className="allowed-list">
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

const NO_LISTS: { allowedReadPaths?: string[]; allowedWritePaths?: string[] } = {};

function WorkbenchPaths() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const loaded = useAppStore((s) => s.settings !== null);
  const workbench = useAppStore((s) => s.settings?.safety?.workbench) ?? NO_LISTS;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="workbench-paths">
      <h2 id={`${id}-title`} className="card__title">
        Workbench paths
      </h2>
      <p className="card__lead">
        Which notes the Workbench chat’s tool calls and Try it may touch (council members have their own lists, in the Council section). Paths are relative to the notes folder.
      </p>
      <div className="path-lists">
        <PathListEditor
          label="Read paths"
          owner="the Workbench"
          kind="read"
          value={workbench.allowedReadPaths}
          disabled={!loaded}
          onSave={(list) => updateSafety(store, host, { workbench: { allowedReadPaths: list } })}
        />
        <PathListEditor
          label="Write paths"
          owner="the Workbench"
          kind="write"
          value={workbench.allowedWritePaths}
          disabled={!loaded}
          onSave={(list) => updateSafety(store, host, { workbench: { allowedWritePaths: list } })}
        />
      </div>
    </section>
  );
}

const SPEC = sectionById('safety');

export function SafetyPanel() {
  const pending = useAppStore(selectApprovalCount);
  const noneAllowed = useAppStore((s) => s.allowed.items.length === 0);
  return (
    <div className="safety-layout">
      {/* Nothing waiting and nothing always allowed: say what this section is for, above its controls. */}
      {pending === 0 && noneAllowed && <EmptyState icon="safety" {...SPEC.empty} />}
      <p className="panel-note" role="status" data-testid="pending-approvals">
        {pending === 0 ? 'No tool call is waiting for approval.' : `${pending} tool ${pending === 1 ? 'call is' : 'calls are'} waiting for approval.`}
      </p>
      <Policy />
      <AlwaysAllowed />
      <WorkbenchPaths />
    </div>
  );
}
