// Wires the MCP slice to the host outside React: mcp.changed / mcp.removed / mcp.log events, and mcp.list on every (re)connect.
import type { HostConnection } from '../api/connection';
import type { AppStore } from './app-store';
import { loadMcpServers } from './mcp-commands';

export function wireMcp(store: AppStore, host: HostConnection): () => void {
  const offEvents = host.onEvent((event) => {
    const state = store.getState();
    if (event.type === 'mcp.changed') state.mcpServerChanged(event.server);
    else if (event.type === 'mcp.removed') state.mcpServerRemoved(event.id);
    else if (event.type === 'mcp.log') state.mcpLogLine(event.id, event.line);
  });

  let connected = host.getInfo().state === 'connected';
  const offInfo = host.onInfo((info) => {
    const was = connected;
    connected = info.state === 'connected';
    if (connected && !was) void loadMcpServers(store, host);
  });
  if (connected) void loadMcpServers(store, host);

  return () => {
    offEvents();
    offInfo();
  };
}
