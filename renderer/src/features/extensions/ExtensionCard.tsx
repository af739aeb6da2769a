// One installed extension: status, trust, permissions requested and granted, its tools, log and frontend messages,
// and the actions (enable/disable, restart, trust, grant/revoke, remove).
import { useId, useState } from 'react';
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { useAppStoreApi, useHost } from '../../app/context';
import { EnabledSwitch } from '../../components/EnabledSwitch';
import { Icon } from '../../components/Icon';
import { WaitingNote } from '../../components/WaitingNote';
import { StatusBadge } from '../../components/StatusBadge';
import { InlineError } from '../../components/InlineError';
import { removeExtension, restartExtension, setExtensionEnabled, setExtensionTrusted, setPermission } from '../../stores/extensions/extension-commands';
import { NO_TOOL_FILTERS } from '../../stores/app/ui-slice';
import { ExtensionFacts } from './ExtensionFacts';
import { ExtensionCommands } from './ExtensionCommands';
import { CardSurfaces } from '../frontends/CardSurfaces';
import { FrontendConsole } from './FrontendConsole';
import { LogViewer } from './LogViewer';
import { statusInfo, type Permission } from './permissions';
import { PermissionRow } from './PermissionRow';
import { OtherPermissions } from './OtherPermissions';
import { useAction } from '../../components/use-action';
import { useEnabledToggle } from '../../components/use-enabled-toggle';
import { AskRemoveButton, ConfirmRemove, useConfirmRemove } from '../../components/ConfirmRemove';

/** What is in flight for one card; every control of the card waits for it. */
export type Busy = null | 'enable' | 'disable' | 'restart' | 'remove' | 'trust' | `grant:${string}` | `revoke:${string}`;

/** What removing loses, after "Remove <name>". */
const REMOVE_CONSEQUENCE = '? Its copy in the data folder is deleted and its tools disappear. This cannot be undone.';

export function ExtensionCard(props: { extension: ExtensionInfo }) {
  const ext = props.extension;
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const { busy, error, run: act } = useAction<Exclude<Busy, null>>();
  const confirm = useConfirmRemove();
  const [logOpen, setLogOpen] = useState(false);
  const [consoleOpen, setConsoleOpen] = useState(false);

  const { enabled, toggle: toggleEnabled } = useEnabledToggle(ext.enabled, busy, act, (next) => setExtensionEnabled(store, host, ext.id, next));
  const togglePermission = (permission: Permission, grant: boolean) =>
    void act(`${grant ? 'grant' : 'revoke'}:${permission}`, grant ? `Could not grant ${permission}` : `Could not revoke ${permission}`, () =>
      setPermission(store, host, ext.id, permission, grant, !ext.requested.includes(permission)),
    );
  const remove = () =>
    void act('remove', 'Could not remove', async () => {
      const result = await removeExtension(store, host, ext.id);
      if (result.ok) document.getElementById('main')?.focus();
      return result;
    });
  const viewTools = () => {
    const state = store.getState();
    state.toolFiltersChanged({ ...NO_TOOL_FILTERS, extensionId: ext.id });
    state.sectionSelected('tools');
  };

  const permissions = [...new Set<string>([...ext.requested, ...ext.granted])];
  const status = statusInfo(ext.status);
  const titleId = `${uid}-title`;
  const logId = `${uid}-log`;
  const consoleId = `${uid}-frontend`;
  const showError = ext.error && ext.status !== 'running';

  return (
    <li>
      <article
        className={`card ext-card ext-card--${status.tone}`}
        aria-labelledby={titleId}
        aria-busy={busy !== null || undefined}
        data-testid="extension"
        data-id={ext.id}
      >
        <header className="ext-card__header">
          <div className="ext-card__heading">
            <h2 id={titleId} className="ext-card__title">
              {ext.name}
            </h2>
            {ext.version && <span className="ext-card__version">v{ext.version}</span>}
            <span className="badge badge--neutral">{ext.source === 'bundled' ? 'Bundled' : 'User-installed'}</span>
            <StatusBadge status={ext.status} info={statusInfo(ext.status)} pulse={ext.status === 'starting'} testId="extension-status" />
          </div>
          <EnabledSwitch
            name={ext.name}
            enabled={enabled}
            busy={busy}
            label={enabled ? 'Enabled' : 'Disabled'}
            title={enabled ? 'Disable to stop its worker and unregister its tools' : 'Enable to start it'}
            onToggle={toggleEnabled}
          />
        </header>
        <p className="ext-card__meta">
          <code>{ext.id}</code>
          <span aria-hidden="true"> · </span>
          {ext.toolCount} {ext.toolCount === 1 ? 'tool' : 'tools'}
          {ext.toolCount > 0 && (
            <button type="button" className="link-button" onClick={viewTools}>
              View its tools
            </button>
          )}
        </p>
        {ext.description && <p className="ext-card__description">{ext.description}</p>}
        {(showError || ext.status === 'failed' || ext.status === 'crashed') && (
          <div className={`ext-card__problem ext-card__problem--${status.tone}`} data-testid="extension-problem">
            <Icon name={status.tone === 'danger' ? 'error' : 'warning'} />
            <div>
              <p className="ext-card__problem-status">{status.help}</p>
              {ext.error && <p className="ext-card__problem-error">{ext.error}</p>}
            </div>
          </div>
        )}

        <ExtensionFacts
          extension={ext}
          busy={busy !== null}
          onTrust={(trusted) => void act('trust', 'Could not change trust', () => setExtensionTrusted(store, host, ext.id, trusted))}
        />
        <ExtensionCommands extension={ext} />
        <CardSurfaces extensionId={ext.id} />

        <section className="ext-card__perms" aria-label={`Permissions of ${ext.name}`}>
          <h3 className="ext-card__subtitle">Permissions</h3>
          {permissions.length === 0 ? (
            <p className="panel-note">Asks for no permissions.</p>
          ) : (
            <ul className="stack-list perm-list">
              {permissions.map((p) => (
                <PermissionRow
                  key={p}
                  permission={p}
                  requested={ext.requested.includes(p as Permission)}
                  granted={ext.granted.includes(p as Permission)}
                  extensionName={ext.name}
                  busy={busy}
                  onToggle={(grant) => togglePermission(p as Permission, grant)}
                />
              ))}
            </ul>
          )}
          <OtherPermissions ext={ext} busy={busy} onGrant={(p) => togglePermission(p, true)} />
        </section>

        <div className="ext-card__actions">
          <button
            type="button"
            className={`btn${ext.status === 'failed' ? ' btn--primary' : ''}`}
            aria-disabled={busy !== null || !ext.enabled || undefined}
            title={ext.enabled ? 'Stop and start its worker again (also clears a failed state)' : 'Enable it first'}
            aria-label={`Restart ${ext.name}`}
            onClick={() => busy === null && ext.enabled && void act('restart', 'Could not restart', () => restartExtension(store, host, ext.id))}
          >
            <Icon name="refresh" />
            <span aria-hidden="true">{busy === 'restart' ? 'Restarting…' : 'Restart'}</span>
          </button>
          <button type="button" className="btn" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((o) => !o)}>
            <Icon name="terminal" />
            {logOpen ? 'Hide log' : 'Show log'}
          </button>
          <button type="button" className="btn" aria-expanded={consoleOpen} aria-controls={consoleId} onClick={() => setConsoleOpen((o) => !o)}>
            {consoleOpen ? 'Hide frontend messages' : 'Frontend messages'}
          </button>
          {ext.source === 'user' && !confirm.open && (
            <AskRemoveButton name={ext.name} busy={busy !== null} buttonRef={confirm.removeRef} onAsk={confirm.ask} />
          )}
          {busy !== null && (
            <WaitingNote>Waiting for the host…</WaitingNote>
          )}
        </div>
        <ConfirmRemove confirm={confirm} name={ext.name} consequence={REMOVE_CONSEQUENCE} busy={busy} onRemove={remove} />
        {error && <InlineError error={error.error} title={error.title} />}
        {logOpen && <LogViewer id={ext.id} name={ext.name} domId={logId} />}
        {consoleOpen && <FrontendConsole id={ext.id} name={ext.name} domId={consoleId} />}
      </article>
    </li>
  );
}
