// The (re)connect trigger each slice's wiring shares: read the host's truth now if connected, and again on every
// reconnect (whatever events were missed while disconnected are covered by the new snapshot).
import type { HostConnection } from '../../api/connection';

/** Runs `resync` now if the host is connected and after every reconnect; returns the unsubscribe. */
export function resyncOnConnect(host: HostConnection, resync: () => unknown): () => void {
  let connected = host.getInfo().state === 'connected';
  const offInfo = host.onInfo((info) => {
    const was = connected;
    connected = info.state === 'connected';
    if (connected && !was) void resync();
  });
  if (connected) void resync();
  return offInfo;
}
