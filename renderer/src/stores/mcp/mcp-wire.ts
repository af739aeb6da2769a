// Wires the MCP slice to the host outside React: mcp.changed / mcp.removed / mcp.log events, and mcp.list on every (re)connect.
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';
import { loadMcpServers } from './mcp-commands';
import { resyncOnConnect } from '../app/on-connect';

export function wireMcp(store: AppStore, host: HostConnection): () => void {
  const offEvents = host.onEvent((event) => {
    const state = store.getState();
    if (event.type === 'mcp.changed') state.mcpServerChanged(event.server);
    else if (event.type === 'mcp.removed') state.mcpServerRemoved(event.id);
    else if (event.type === 'mcp.log') state.mcpLogLine(event.id, event.line);
  });

  const offInfo = resyncOnConnect(host, () => loadMcpServers(store, host));

  return () => {
    offEvents();
    offInfo();
  };
}
