// Wires the safety slice to the host outside React: approval.* events, approvals.allowed.changed, and a read of the
// pending approvals and the always-allowed list on every (re)connect.
import type { HostEvent } from '../../../../shared/contract/events';
import type { HostConnection } from '../../api/connection';
import type { AppState, AppStore } from '../app/app-store';
import { reloadAllowed, reloadApprovals } from './safety-commands';
import { resyncOnConnect } from '../app/on-connect';

/** Applies an approval event; false for any other event type. */
export function applySafetyEvent(state: AppState, event: HostEvent): boolean {
  switch (event.type) {
    case 'approval.requested':
      state.approvalRequested(event.request);
      return true;
    case 'approval.resolved':
      state.approvalResolved(event.id, event.toolQualifiedName, event.resolution);
      return true;
    default:
      return false;
  }
}

export async function resyncSafety(store: AppStore, host: HostConnection): Promise<void> {
  await Promise.all([reloadApprovals(store, host), reloadAllowed(store, host)]);
}

export function wireSafety(store: AppStore, host: HostConnection): () => void {
  const offEvents = host.onEvent((event) => {
    if (event.type === 'approvals.allowed.changed') void reloadAllowed(store, host);
    else applySafetyEvent(store.getState(), event);
  });
  const offInfo = resyncOnConnect(host, () => resyncSafety(store, host));
  return () => {
    offEvents();
    offInfo();
  };
}
