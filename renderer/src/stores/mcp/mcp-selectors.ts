// Selectors over the MCP slice. Ones returning fresh objects or arrays must be used with useShallow.
import type { AppState } from '../app/app-store';

export const selectMcpServers = (s: AppState) => s.mcp.items;
export const selectMcpLoaded = (s: AppState) => s.mcp.loaded;
export const selectMcpLoadError = (s: AppState) => s.mcp.loadError;
export const selectMcpServer = (id: string) => (s: AppState) => s.mcp.items.find((x) => x.config.id === id) ?? null;
export const selectMcpLog = (id: string) => (s: AppState) => (Object.prototype.hasOwnProperty.call(s.mcp.logs, id) ? s.mcp.logs[id]! : null);
