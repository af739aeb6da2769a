// The banner shown while this window is not connected to the host, or has lost the connection, with Reconnect.
import { Icon } from '../components/Icon';
import { reconnectHost } from '../stores/app/commands';
import { selectConnection } from '../stores/app/selectors';
import { useAppStore, useHost } from './context';

export function ConnectionBanner() {
  const host = useHost();
  const connection = useAppStore(selectConnection);
  if (connection.state === 'unauthorized') {
    return (
      <div className="banner banner--error" role="alert" data-testid="connection-banner">
        <Icon name="error" className="banner__icon" />
        <div className="banner__content">
          <strong>This window is not connected to the host.</strong>
          <p>{connection.detail ?? 'The host did not accept this window’s access token.'}</p>
          <p className="banner__hint">
            Open the address the host printed when it started (it ends with <code>#token=…</code>).
          </p>
        </div>
        <button type="button" className="btn" onClick={() => reconnectHost(host)}>
          <Icon name="refresh" /> Try again
        </button>
      </div>
    );
  }
  if (connection.state === 'disconnected' && !connection.willRetry) {
    return (
      <div className="banner banner--warning" role="alert" data-testid="connection-banner">
        <Icon name="warning" className="banner__icon" />
        <div className="banner__content">
          <strong>Lost the connection to the host.</strong>
          <p>{connection.detail ?? 'The host stopped answering.'} The workbench stopped retrying; what you see may be out of date.</p>
        </div>
        <button type="button" className="btn" onClick={() => reconnectHost(host)}>
          <Icon name="refresh" /> Reconnect
        </button>
      </div>
    );
  }
  return null;
}
