// Extension actions: ask the host, mirror its answer into the store (the matching event may also arrive), and
// hand the result back so the panel can show a failure next to the control that caused it.
import type { ExtensionInfo } from '../../../../shared/contract/events';
import type { Result } from '../../../../shared/errors';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';

export type Permission = ExtensionInfo['requested'][number];

function mirror(store: AppStore, result: Result<ExtensionInfo>): Result<ExtensionInfo> {
  if (result.ok) store.getState().extensionChanged(result.value);
  return result;
}

export async function setExtensionEnabled(store: AppStore, host: HostConnection, id: string, enabled: boolean): Promise<Result<ExtensionInfo>> {
  return mirror(store, await host.invoke(enabled ? 'extensions.enable' : 'extensions.disable', { id }));
}

export async function restartExtension(store: AppStore, host: HostConnection, id: string): Promise<Result<ExtensionInfo>> {
  return mirror(store, await host.invoke('extensions.restart', { id }));
}

export async function setPermission(
  store: AppStore,
  host: HostConnection,
  id: string,
  permission: Permission,
  granted: boolean,
  /** A grant the manifest does not ask for (the person chose it under Other permissions). */
  unrequested = false,
): Promise<Result<ExtensionInfo>> {
  if (!granted) return mirror(store, await host.invoke('extensions.revoke', { id, permission }));
  return mirror(store, await host.invoke('extensions.grant', { id, permission, ...(unrequested ? { unrequested: true } : {}) }));
}

export async function removeExtension(store: AppStore, host: HostConnection, id: string): Promise<Result<{ removed: boolean }>> {
  const result = await host.invoke('extensions.remove', { id });
  // removed:false means the host no longer has it: either way it should not be listed.
  if (result.ok) store.getState().extensionRemoved(id);
  return result;
}

export async function installExtension(
  store: AppStore,
  host: HostConnection,
  source: string | ExtensionUpload,
  grant: readonly Permission[] | 'requested',
  trust = false,
  replace = false,
): Promise<Result<ExtensionInfo>> {
  const options = { grant: grant === 'requested' ? ('requested' as const) : [...grant], ...(trust ? { trust } : {}), ...(replace ? { replace } : {}) };
  return mirror(store, await (typeof source === 'string' ? host.invoke('extensions.install', { folder: source, ...options }) : host.invoke('extensions.installUpload', { upload: source, ...options })));
}

/** An extension's .zip chosen or dropped in the window, as the host takes it. */
export interface ExtensionUpload {
  fileName: string;
  data: string;
}

/** What a folder or .zip on the host's machine, or an uploaded .zip, asks for, read before installing it. */
export function inspectExtension(host: HostConnection, source: string | ExtensionUpload) {
  return typeof source === 'string' ? host.invoke('extensions.inspect', { folder: source }) : host.invoke('extensions.inspectUpload', { upload: source });
}

export async function loadExtensionLog(store: AppStore, host: HostConnection, id: string): Promise<Result<{ lines: string[] }>> {
  const result = await host.invoke('extensions.log', { id });
  if (result.ok) store.getState().extensionLogLoaded(id, result.value.lines);
  return result;
}

/** What an extension's backend sent its frontend (the frontend messages console). */
export function loadFrontendMessages(host: HostConnection, id: string): Promise<Result<{ messages: Array<{ at: number; payload: unknown }> }>> {
  return host.invoke('extensions.frontend', { id });
}

/** Runs one of the extension's commands (spindle.commands): its backend hears it with the open chat. */
export function runExtensionCommand(host: HostConnection, id: string, commandId: string, chatId: string | null): Promise<Result<{ ran: true }>> {
  return host.invoke('extensions.runCommand', { id, commandId, ...(chatId ? { chatId } : {}) });
}

/** Hands a JSON message to the extension's onFrontendMessage handlers. */
export function sendFrontendMessage(host: HostConnection, id: string, payload: unknown): Promise<Result<{ delivered: boolean }>> {
  return host.invoke('extensions.sendFrontend', { id, payload });
}

/** Lets the extension's undeclared-mode tools run without asking (or makes them ask again). */
export async function setExtensionTrusted(store: AppStore, host: HostConnection, id: string, trusted: boolean): Promise<Result<ExtensionInfo>> {
  return mirror(store, await host.invoke('extensions.trust', { id, trusted }));
}

/** Calls back whenever the host says this extension changed (a new frontend message arrives that way); returns the unsubscribe. */
export function watchExtension(host: HostConnection, id: string, changed: () => void): () => void {
  return host.onEvent((event) => {
    if (event.type === 'extension.changed' && event.extension.id === id) changed();
  });
}
