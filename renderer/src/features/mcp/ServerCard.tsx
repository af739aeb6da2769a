// One configured MCP server: how it starts, trust, enabled, status with its last error and restart countdown, counts,
// instructions (as text), actions (connect/disconnect/restart/edit/remove), and its tools and log on demand.
import { useEffect, useId, useRef, useState } from 'react';
import { mcpSourceId, type McpServerInfo } from '../../../../shared/types/mcp';
import { useAppStoreApi, useHost } from '../../app/context';
import { EnabledSwitch } from '../../components/EnabledSwitch';
import { Icon } from '../../components/Icon';
import { WaitingNote } from '../../components/WaitingNote';
import { StatusBadge } from '../../components/StatusBadge';
import { useNow } from '../../components/use-now';
import { InlineError } from '../../components/InlineError';
import { connectMcpServer, disconnectMcpServer, removeMcpServer, restartMcpServer, updateMcpServer } from '../../stores/mcp/mcp-commands';
import { LogView } from './LogView';
import { ServerForm } from './ServerForm';
import { countdown, mcpStatusInfo, transportLabel, TRUST_HELP } from './status';
import { ToolsView } from './ToolsView';
import { useAction } from '../../components/use-action';
import { useEnabledToggle } from '../../components/use-enabled-toggle';
import { AskRemoveButton, ConfirmRemove, useConfirmRemove } from '../../components/ConfirmRemove';
import { NO_TOOL_FILTERS } from '../../stores/app/ui-slice';
import { TransportFacts } from './TransportFacts';

type Busy = null | 'enable' | 'disable' | 'connect' | 'disconnect' | 'restart' | 'remove';

/** A disabled server can still be connected by hand: then it runs now but does not start with the host. */
function enabledLabel(enabled: boolean, status: string): string {
  if (enabled) return 'Enabled';
  return status === 'stopped' || status === 'failed' ? 'Disabled' : 'Not started with the host';
}

/** What removing loses, after "Remove <name>". */
const REMOVE_CONSEQUENCE = '? It is disconnected, its tools disappear and its settings are deleted. This cannot be undone.';

export function ServerCard(props: { server: McpServerInfo }) {
  const { server } = props;
  const { config } = server;
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const { busy, error, run: act } = useAction<Exclude<Busy, null>>();
  const confirm = useConfirmRemove();
  const [editing, setEditing] = useState(false);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  // Closing the form gives focus back to its Edit button once the card is drawn again (in that commit, not on a timer).
  const refocus = useRef(false);
  const closeForm = () => {
    refocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    editRef.current?.focus();
  }, [editing]);
  const now = useNow(server.status === 'crashed' && server.restartAt !== undefined, 500);

  const { enabled, toggle: toggleEnabled } = useEnabledToggle(config.enabled, busy, act, (next) => updateMcpServer(store, host, config.id, { enabled: next }));
  const remove = () =>
    void act('remove', 'Could not remove', async () => {
      const result = await removeMcpServer(store, host, config.id);
      if (result.ok) document.getElementById('main')?.focus();
      return result;
    });
  const viewTools = () => {
    const state = store.getState();
    state.toolFiltersChanged({ ...NO_TOOL_FILTERS, source: 'mcp', search: `${mcpSourceId(config.id)}:` });
    state.sectionSelected('tools');
  };

  const status = mcpStatusInfo(server.status);
  const titleId = `${uid}-title`;
  const toolsId = `${uid}-tools`;
  const logId = `${uid}-log`;
  const running = server.status === 'connected' || server.status === 'connecting';
  const showProblem = server.status === 'crashed' || server.status === 'failed' || (server.lastError !== undefined && server.status !== 'connected');
  const instructions = server.server?.instructions;

  if (editing) {
    return (
      <li>
        <ServerForm
          server={server}
          onCancel={closeForm}
          onDone={closeForm}
        />
      </li>
    );
  }

  return (
    <li>
      <article
        className={`card ext-card mcp-card ext-card--${status.tone}`}
        aria-labelledby={titleId}
        aria-busy={busy !== null || server.status === 'connecting' || undefined}
        data-testid="mcp-server"
        data-id={config.id}
      >
        <header className="ext-card__header">
          <div className="ext-card__heading">
            <h2 id={titleId} className="ext-card__title">
              {config.name}
            </h2>
            <StatusBadge status={server.status} info={mcpStatusInfo(server.status)} pulse={server.status === 'connecting'} testId="mcp-status" />
            {config.trusted ? (
              <span className="badge badge--ok" title={TRUST_HELP} data-testid="mcp-trusted">
                Trusted
              </span>
            ) : (
              <span className="badge" title="Its read-only hints are not believed: every tool runs as a write tool." data-testid="mcp-trusted">
                Untrusted
              </span>
            )}
          </div>
          <EnabledSwitch
            name={config.name}
            enabled={enabled}
            busy={busy}
            label={enabledLabel(enabled, server.status)}
            title={enabled ? 'Disable to stop it and unregister its tools' : 'Enable to start it now and whenever the host starts'}
            onToggle={toggleEnabled}
          />
        </header>
        <p className="ext-card__meta" data-testid="mcp-meta">
          <code>{config.id}</code>
          <span aria-hidden="true"> · </span>
          {transportLabel(config)}
          <span aria-hidden="true"> · </span>
          <span data-testid="mcp-tool-count">
            {server.toolCount} {server.toolCount === 1 ? 'tool' : 'tools'}
          </span>
          {server.skippedToolCount > 0 && (
            <>
              <span aria-hidden="true"> · </span>
              <span className="mcp-card__skipped" data-testid="mcp-skipped-count">
                {server.skippedToolCount} skipped
              </span>
            </>
          )}
          {server.server && (
            <>
              <span aria-hidden="true"> · </span>
              <span className="mcp-card__server" title="serverInfo the server reported">
                {server.server.name} {server.server.version}
              </span>
            </>
          )}
        </p>
        <TransportFacts server={server} />

        {server.status === 'connecting' && (
          <p className="mcp-card__progress" role="status" data-testid="mcp-connecting">
            <span className="spinner" aria-hidden="true" /> Connecting: starting it and waiting for it to answer and list its tools…
          </p>
        )}
        {showProblem && (
          <div className={`ext-card__problem ext-card__problem--${status.tone === 'danger' ? 'danger' : 'warn'}`} data-testid="mcp-problem">
            <Icon name={status.tone === 'danger' ? 'error' : 'warning'} />
            <div className="mcp-card__problem-body">
              <p className="ext-card__problem-status">
                {status.help}
                {server.status === 'crashed' && server.restartAt !== undefined && (
                  <strong className="mcp-card__countdown" data-testid="mcp-restart-countdown">
                    {' '}
                    Restarting {countdown(server.restartAt, now)}
                    {server.recentCrashes > 0 && ` (crash ${server.recentCrashes} of 3)`}.
                  </strong>
                )}
              </p>
              {server.lastError && (
                <div className="mcp-card__last-error" data-testid="mcp-last-error" data-code={server.lastError.code}>
                  <code className="inline-error__code">{server.lastError.code}</code>
                  <p className="ext-card__problem-error">{server.lastError.message}</p>
                  {server.lastError.hint && <p className="inline-error__hint">{server.lastError.hint}</p>}
                </div>
              )}
            </div>
          </div>
        )}

        {instructions && (
          <details className="mcp-card__instructions" data-testid="mcp-instructions">
            <summary>Instructions from the server</summary>
            <p className="field__hint">The server’s own text, shown as is: nothing in it is followed, opened or run.</p>
            <p className="mcp-card__instructions-text">{instructions}</p>
          </details>
        )}

        <div className="ext-card__actions">
          {running ? (
            <button
              type="button"
              className="btn"
              aria-disabled={busy !== null || undefined}
              aria-label={`Disconnect ${config.name}`}
              onClick={() => busy === null && void act('disconnect', 'Could not disconnect', () => disconnectMcpServer(store, host, config.id))}
            >
              <Icon name="power" />
              <span aria-hidden="true">{busy === 'disconnect' ? 'Disconnecting…' : 'Disconnect'}</span>
            </button>
          ) : (
            <button
              type="button"
              className="btn btn--primary"
              aria-disabled={busy !== null || undefined}
              aria-label={`Connect ${config.name}`}
              onClick={() => busy === null && void act('connect', 'Could not connect', () => connectMcpServer(store, host, config.id))}
            >
              <Icon name="play" />
              <span aria-hidden="true">{busy === 'connect' ? 'Connecting…' : 'Connect'}</span>
            </button>
          )}
          {server.status !== 'stopped' && (
            <button
              type="button"
              className="btn"
              aria-disabled={busy !== null || undefined}
              aria-label={`Restart ${config.name}`}
              title="Disconnect and connect again with a clean crash budget"
              onClick={() => busy === null && void act('restart', 'Could not restart', () => restartMcpServer(store, host, config.id))}
            >
              <Icon name="refresh" />
              <span aria-hidden="true">{busy === 'restart' ? 'Restarting…' : 'Restart'}</span>
            </button>
          )}
          <button type="button" ref={editRef} className="btn" aria-label={`Edit ${config.name}`} onClick={() => setEditing(true)}>
            <span aria-hidden="true">Edit</span>
          </button>
          <button type="button" className="btn" aria-expanded={toolsOpen} aria-controls={toolsId} onClick={() => setToolsOpen((o) => !o)}>
            <Icon name="tools" />
            {toolsOpen ? 'Hide tools' : 'Show tools'}
          </button>
          <button type="button" className="btn" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((o) => !o)}>
            <Icon name="terminal" />
            {logOpen ? 'Hide log' : 'Show log'}
          </button>
          {!confirm.open && (
            <AskRemoveButton name={config.name} busy={busy !== null} buttonRef={confirm.removeRef} onAsk={confirm.ask} />
          )}
          {busy !== null && (
            <WaitingNote>{busy === 'connect' || busy === 'restart' ? 'Waiting for the server to connect…' : 'Waiting for the host…'}</WaitingNote>
          )}
        </div>
        <ConfirmRemove confirm={confirm} name={config.name} consequence={REMOVE_CONSEQUENCE} busy={busy} onRemove={remove} />
        {error && <InlineError error={error.error} title={error.title} />}
        {toolsOpen && <ToolsView server={server} domId={toolsId} onViewInTools={viewTools} />}
        {logOpen && <LogView id={config.id} name={config.name} domId={logId} />}
      </article>
    </li>
  );
}
