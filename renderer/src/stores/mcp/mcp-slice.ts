// MCP slice: configured MCP servers as the host reports them (config, status, counts, last error), plus the log lines of open logs.
import type { HostError } from '../../../../shared/errors';
import type { McpServerInfo } from '../../../../shared/types/mcp';
import type { Slice } from '../app/slice';

/** Most lines kept per open log; the host keeps its own capped log (mcp.log reads it). */
export const MCP_LOG_LINES_CAP = 500;

export interface McpSlice {
  mcp: {
    /** Host truth as last reported, in the host's order. */
    items: readonly McpServerInfo[];
    /** False until the first mcp.list answer. */
    loaded: boolean;
    /** Why the list could not be read (shown in the panel, not as a global notice). */
    loadError: HostError | null;
    /** Log lines per server, only for logs read with mcp.log; live mcp.log lines are appended to those. */
    logs: Readonly<Record<string, readonly string[]>>;
  };
  mcpServersReplaced(list: readonly McpServerInfo[]): void;
  mcpLoadFailed(error: HostError): void;
  mcpServerChanged(server: McpServerInfo): void;
  mcpServerRemoved(id: string): void;
  mcpLogLoaded(id: string, lines: readonly string[]): void;
  mcpLogLine(id: string, line: string): void;
  mcpLogClosed(id: string): void;
}

/** Defines rather than assigns: a server id is host data, and `__proto__` must stay a plain key. */
function withOwn<T>(record: Readonly<Record<string, T>>, key: string, value: T | undefined): Record<string, T> {
  const next: Record<string, T> = {};
  const put = (k: string, v: T) => Object.defineProperty(next, k, { value: v, writable: true, enumerable: true, configurable: true });
  for (const [k, v] of Object.entries(record)) if (k !== key) put(k, v);
  if (value !== undefined) put(key, value);
  return next;
}

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

export const createMcpSlice: Slice<McpSlice> = (set) => ({
  mcp: { items: [], loaded: false, loadError: null, logs: {} },
  mcpServersReplaced: (list) =>
    set((s) => {
      const ids = new Set(list.map((server) => server.config.id));
      let logs = s.mcp.logs;
      for (const id of Object.keys(logs)) if (!ids.has(id)) logs = withOwn(logs, id, undefined);
      return { mcp: { items: [...list], loaded: true, loadError: null, logs } };
    }),
  mcpLoadFailed: (error) => set((s) => ({ mcp: { ...s.mcp, loadError: error } })),
  mcpServerChanged: (server) =>
    set((s) => {
      const items = s.mcp.items;
      const id = server.config.id;
      const next = items.some((x) => x.config.id === id) ? items.map((x) => (x.config.id === id ? server : x)) : [...items, server];
      return { mcp: { ...s.mcp, items: next } };
    }),
  mcpServerRemoved: (id) =>
    set((s) => ({ mcp: { ...s.mcp, items: s.mcp.items.filter((x) => x.config.id !== id), logs: withOwn(s.mcp.logs, id, undefined) } })),
  mcpLogLoaded: (id, lines) => set((s) => ({ mcp: { ...s.mcp, logs: withOwn(s.mcp.logs, id, lines.slice(-MCP_LOG_LINES_CAP)) } })),
  mcpLogLine: (id, line) =>
    set((s) => {
      if (!hasOwn(s.mcp.logs, id)) return s;
      const lines = [...s.mcp.logs[id]!, line].slice(-MCP_LOG_LINES_CAP);
      return { mcp: { ...s.mcp, logs: withOwn(s.mcp.logs, id, lines) } };
    }),
  mcpLogClosed: (id) => set((s) => (hasOwn(s.mcp.logs, id) ? { mcp: { ...s.mcp, logs: withOwn(s.mcp.logs, id, undefined) } } : s)),
});
