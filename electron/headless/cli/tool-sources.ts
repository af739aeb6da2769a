// Before a CLI command that uses tools: wait (bounded) for enabled extensions and MCP servers to finish starting.
import type { Host } from '../../core/host';
import { waitUntil } from '../../core/util/wait-until';

/** Long enough for an MCP server's initialize (10 s by default) and an extension's first registrations. */
export const TOOL_SOURCES_WAIT_MS = 15_000;

/**
 * Resolves once no extension is starting and no enabled MCP server is connecting, or at `timeoutMs`.
 * Returns a note per source that had not answered by then, so the person knows why its tools are missing.
 */
export async function waitForToolSources(host: Pick<Host, 'extensions' | 'mcp'>, timeoutMs = TOOL_SOURCES_WAIT_MS): Promise<string[]> {
  const connecting = () => host.mcp.list().filter((server) => server.status === 'connecting');
  const startedAt = Date.now();
  await host.extensions.whenSettled(timeoutMs);
  await waitUntil(() => connecting().length === 0, (listener) => host.mcp.onEvent(listener), Math.max(0, timeoutMs - (Date.now() - startedAt)));
  const seconds = Math.round(timeoutMs / 100) / 10;
  return [
    ...host.extensions.list().filter((e) => e.status === 'starting').map((e) => `Extension "${e.id}" was still starting after ${seconds} s; its tools may be missing.`),
    ...connecting().map((s) => `MCP server "${s.config.id}" did not answer within ${seconds} s; its tools are missing.`),
  ];
}
