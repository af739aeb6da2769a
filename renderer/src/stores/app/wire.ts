// Wires the store to the host outside React: connection state, host events, and a resync on every (re)connect.
import type { HostEvent } from '../../../../shared/contract/events';
import type { HostConnection } from '../../api/connection';
import type { AppState, AppStore } from './app-store';
import { wireChat } from '../chat/chat-wire';
import { wireConnections } from '../connections/connections-wire';
import { wireCouncil } from '../council/council-wire';
import { wireMcp } from '../mcp/mcp-wire';
import { wireSafety } from '../safety/safety-wire';

/** Applies one host event to the mirror. Unknown event types (from a newer host) are ignored. */
export function applyHostEvent(state: AppState, event: HostEvent): void {
  switch (event.type) {
    case 'settings.changed':
      state.settingsLoaded(event.settings);
      return;
    case 'notice.added':
      state.noticeAdded(event.notice);
      return;
    case 'notice.dismissed':
      state.noticeRemoved(event.id);
      return;
    case 'tools.changed':
      state.toolsReplaced(event.tools);
      return;
    case 'extension.changed':
      state.extensionChanged(event.extension);
      return;
    case 'extension.removed':
      state.extensionRemoved(event.id);
      return;
    case 'extension.log':
      state.extensionLogLine(event.id, event.line);
      return;
    default:
      return;
  }
}

/**
 * Reads the host's truth after a (re)connect: whatever events were missed while disconnected are
 * covered by the snapshot. Results and events travel in order on one channel, so an event that
 * arrives after a snapshot is newer than it and applying in arrival order is correct.
 */
export async function resync(store: AppStore, host: HostConnection): Promise<void> {
  const [status, settings, tools, extensions] = await Promise.all([
    host.invoke('host.status', {}),
    host.invoke('settings.get', {}),
    host.invoke('tools.list', {}),
    host.invoke('extensions.list', {}),
  ]);
  const state = store.getState();
  if (status.ok) {
    const { notices, ...rest } = status.value;
    state.hostStatusLoaded(rest);
    state.noticesReplaced(notices);
  } else if (status.error.code !== 'HOST_SHUTDOWN') {
    state.errorReported('Could not read the host status', status.error);
  }
  if (settings.ok) state.settingsLoaded(settings.value);
  else if (settings.error.code !== 'HOST_SHUTDOWN') state.errorReported('Could not read settings', settings.error);
  if (tools.ok) state.toolsReplaced(tools.value);
  else if (tools.error.code !== 'HOST_SHUTDOWN') state.errorReported('Could not read the tool list', tools.error);
  if (extensions.ok) state.extensionsReplaced(extensions.value);
  else if (extensions.error.code !== 'HOST_SHUTDOWN') state.errorReported('Could not read the extension list', extensions.error);
}

export function wireHost(store: AppStore, host: HostConnection): () => void {
  const offEvents = host.onEvent((event) => applyHostEvent(store.getState(), event));
  // Connections, sidecar and the Workbench chat keep themselves in sync (their own events and reloads).
  const offConnections = wireConnections(store, host);
  const offChat = wireChat(store, host);
  // The council, its packs and runs: council.* / packs.* / council.run.* events and their own resync.
  const offCouncil = wireCouncil(store, host);
  // MCP servers: mcp.* events and mcp.list on every (re)connect.
  const offMcp = wireMcp(store, host);
  // Safe tool use: approval.* events, the always-allowed list, and approvals.list on every (re)connect.
  const offSafety = wireSafety(store, host);
  const offInfo = host.onInfo((info) => {
    const wasConnected = store.getState().connection.state === 'connected';
    store.getState().connectionChanged(info);
    if (info.state === 'connected' && !wasConnected) void resync(store, host);
  });
  const info = host.getInfo();
  store.getState().connectionChanged(info);
  if (info.state === 'connected') void resync(store, host);
  return () => {
    offEvents();
    offInfo();
    offConnections();
    offChat();
    offCouncil();
    offMcp();
    offSafety();
  };
}
