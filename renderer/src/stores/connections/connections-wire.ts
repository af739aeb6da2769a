// Wires the connections and sidecar slices to the host outside React. There are no connection or sidecar events:
// the lists are read on every (re)connect and again when settings.changed shows their settings sections changed
// (a save from the CLI or another window). The sidecar is read again too when an extension's providers, status or
// chats grant change: its sidecar endpoints are offered in the picker while it runs granted chats.
import type { Settings } from '../../../../shared/settings';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';
import { loadConnections, loadSecretsInfo, loadSidecar } from './connections-commands';
import { resyncOnConnect } from '../app/on-connect';

function sections(settings: Settings): { connections: string; sidecar: string } {
  return { connections: JSON.stringify(settings.connections ?? []), sidecar: JSON.stringify(settings.sidecarSettings ?? null) };
}

export function wireConnections(store: AppStore, host: HostConnection): () => void {
  let seen: { connections: string; sidecar: string } | null = null;
  const offered = new Map<string, string>();

  const offEvents = host.onEvent((event) => {
    if (event.type === 'extension.changed') {
      const { id, status, registrations, granted } = event.extension;
      // Offered while it runs granted chats (sidecar/extension-endpoints.ts).
      const now = status === 'running' && granted.includes('chats') ? JSON.stringify(registrations?.providers ?? []) : '[]';
      if ((offered.get(id) ?? '[]') !== now) void loadSidecar(store, host);
      offered.set(id, now);
      return;
    }
    if (event.type !== 'settings.changed') return;
    const now = sections(event.settings);
    const before = seen;
    seen = now;
    if (before && before.connections !== now.connections) {
      void loadConnections(store, host);
      void loadSidecar(store, host);
    } else if (before && before.sidecar !== now.sidecar) {
      void loadSidecar(store, host);
    } else if (!before) {
      void loadConnections(store, host);
      void loadSidecar(store, host);
    }
  });

  const resync = async () => {
    await Promise.all([loadConnections(store, host), loadSecretsInfo(store, host), loadSidecar(store, host)]);
    const settings = store.getState().settings;
    if (settings) seen = sections(settings);
  };

  const offInfo = resyncOnConnect(host, resync);

  return () => {
    offEvents();
    offInfo();
  };
}
