// Bottom bar: connection state first, then where the host keeps its data and what it has loaded.
import { useShallow } from 'zustand/react/shallow';
import type { ConnectionInfo } from '../api/connection';
import { Icon } from '../components/Icon';
import { reconnectHost } from '../stores/app/commands';
import { selectStatusBar } from '../stores/app/selectors';
import { useAppStore, useHost } from './context';

export function connectionLabel(info: ConnectionInfo): string {
  switch (info.state) {
    case 'connecting':
      return info.attempt > 0 ? `Reconnecting… (attempt ${info.attempt + 1})` : 'Connecting…';
    case 'connected':
      return 'Connected';
    case 'disconnected':
      return info.willRetry ? 'Disconnected — retrying' : 'Disconnected';
    case 'unauthorized':
      return 'Not authorized';
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function StatusBar() {
  const host = useHost();
  const { connection, dataDir, settingsVersion, mode, extensionCount, toolCount, memberCount } = useAppStore(useShallow(selectStatusBar));
  const canReconnect = connection.state === 'disconnected' || connection.state === 'unauthorized';
  const transport = connection.transport === 'ipc' ? 'IPC' : 'WebSocket';

  return (
    <footer className="statusbar" aria-label="Status">
      <div
        className="statusbar__item statusbar__conn"
        data-testid="connection-status"
        data-state={connection.state}
        role="status"
        title={connection.detail ?? `${transport} transport`}
      >
        <span className="statusbar__dot" aria-hidden="true" />
        <span>
          <span className="visually-hidden">Host connection: </span>
          {connectionLabel(connection)}
        </span>
      </div>
      {canReconnect && (
        <button type="button" className="statusbar__action" onClick={() => reconnectHost(host)}>
          Reconnect now
        </button>
      )}
      {mode && (
        <div className="statusbar__item" data-testid="host-mode">
          {mode === 'desktop' ? 'Desktop' : mode === 'browser' ? 'Browser' : 'CLI'} · {transport}
        </div>
      )}
      <div className="statusbar__spacer" />
      {extensionCount !== null && toolCount !== null && memberCount !== null && (
        <div className="statusbar__item statusbar__counts">
          {plural(extensionCount, 'extension')} · {plural(toolCount, 'tool')} · {plural(memberCount, 'member')}
        </div>
      )}
      {dataDir && (
        <div className="statusbar__item statusbar__path" data-testid="data-dir" title={dataDir}>
          <Icon name="folder" />
          <span className="visually-hidden">Data folder: </span>
          <span className="statusbar__path-text">{dataDir}</span>
        </div>
      )}
      {settingsVersion !== null && (
        <div className="statusbar__item" data-testid="settings-version">
          Settings v{settingsVersion}
        </div>
      )}
    </footer>
  );
}
