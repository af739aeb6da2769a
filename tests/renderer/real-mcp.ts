// MCP on the real core, for renderer tests: servers from the stdio fixture (a real MCP server on the SDK), and waiting
// for a server's state as the core reports it.
import path from 'node:path';
import type { McpServerInfo } from '../../shared/types/mcp';
import type { RealHost } from './real-host';

export const STDIO_FIXTURE = path.resolve(import.meta.dirname, '../fixtures/mcp/stdio-server.mjs');

/** mcp.add input for the fixture in `mode` (basic, exit-at-start, silent, bad-schemas); extra arguments go after the mode. */
export function fixtureServer(id: string, mode = 'basic', extra: { args?: string[] } & Record<string, unknown> = {}) {
  const { args = [], ...rest } = extra;
  return { id, transport: 'stdio' as const, command: process.execPath, args: [STDIO_FIXTURE, '--mode', mode, ...args], ...rest };
}

/**
 * Resolves once the core's server `id` satisfies `check` (looked at now and on each of the core's mcp.changed events);
 * fails after `timeoutMs` with the state it was in. For the server process's own pace; the core's timers are the test's.
 */
export function serverState(host: RealHost, id: string, check: (info: McpServerInfo) => boolean, timeoutMs = 10_000): Promise<McpServerInfo> {
  return new Promise((resolve, reject) => {
    const current = () => host.core.mcp.list().find((s) => s.config.id === id);
    const now = current();
    if (now && check(now)) return resolve(now);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`MCP server ${id} did not reach the expected state; it is ${JSON.stringify(current() ?? null)}`));
    }, timeoutMs);
    const off = host.core.onEvent((event) => {
      if (event.type !== 'mcp.changed' || event.server.config.id !== id || !check(event.server)) return;
      clearTimeout(timer);
      off();
      resolve(event.server);
    });
  });
}

export const status = (wanted: McpServerInfo['status']) => (info: McpServerInfo) => info.status === wanted;
