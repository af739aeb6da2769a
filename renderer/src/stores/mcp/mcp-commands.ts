// MCP server actions: ask the host, mirror its answer into the store (the matching mcp.changed event may also arrive),
// and hand the result back so the panel can show a failure next to the control that caused it.
import type { MethodInput } from '../../../../shared/contract';
import type { Result } from '../../../../shared/errors';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';

export type McpAddInput = MethodInput<'mcp.add'>;
export type McpPatch = MethodInput<'mcp.update'>['patch'];

function mirror(store: AppStore, result: Result<McpServerInfo>): Result<McpServerInfo> {
  if (result.ok) store.getState().mcpServerChanged(result.value);
  return result;
}

export async function loadMcpServers(store: AppStore, host: HostConnection) {
  const result = await host.invoke('mcp.list', {});
  if (result.ok) store.getState().mcpServersReplaced(result.value);
  else if (result.error.code !== 'HOST_SHUTDOWN') store.getState().mcpLoadFailed(result.error);
  return result;
}

export async function addMcpServer(store: AppStore, host: HostConnection, input: McpAddInput) {
  return mirror(store, await host.invoke('mcp.add', input));
}

export async function updateMcpServer(store: AppStore, host: HostConnection, id: string, patch: McpPatch) {
  return mirror(store, await host.invoke('mcp.update', { id, patch }));
}

export async function removeMcpServer(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('mcp.remove', { id });
  // removed:false means the host no longer has it: either way it should not be listed.
  if (result.ok) store.getState().mcpServerRemoved(id);
  return result;
}

export async function importMcpJson(store: AppStore, host: HostConnection, json: string, enable: boolean) {
  const result = await host.invoke('mcp.importJson', enable ? { json, enable: true } : { json });
  if (result.ok) for (const server of result.value.added) store.getState().mcpServerChanged(server);
  return result;
}

export async function connectMcpServer(store: AppStore, host: HostConnection, id: string) {
  return mirror(store, await host.invoke('mcp.connect', { id }));
}

export async function disconnectMcpServer(store: AppStore, host: HostConnection, id: string) {
  return mirror(store, await host.invoke('mcp.disconnect', { id }));
}

export async function restartMcpServer(store: AppStore, host: HostConnection, id: string) {
  return mirror(store, await host.invoke('mcp.restart', { id }));
}

/** A server's tools, registered and skipped. Not stored: the view reads them while it is open. */
export function loadMcpTools(host: HostConnection, id: string) {
  return host.invoke('mcp.tools', { id });
}

export async function loadMcpLog(store: AppStore, host: HostConnection, id: string) {
  const result = await host.invoke('mcp.log', { id });
  if (result.ok) store.getState().mcpLogLoaded(id, result.value.lines);
  return result;
}
