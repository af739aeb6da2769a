// What each MCP server status means, in plain language, and how a server's transport reads. Plain data and helpers.
import type { McpServerConfig, McpServerStatus } from '../../../../shared/types/mcp';

export type Tone = 'ok' | 'warn' | 'danger' | 'neutral';

export const MCP_STATUS_INFO: Record<McpServerStatus, { label: string; tone: Tone; help: string }> = {
  stopped: { label: 'Stopped', tone: 'neutral', help: 'Not running: its tools are not registered. Connect starts it.' },
  connecting: { label: 'Connecting', tone: 'warn', help: 'Starting the server and waiting for it to answer initialize and list its tools.' },
  connected: { label: 'Connected', tone: 'ok', help: 'Up: its tools are registered and can be called.' },
  crashed: { label: 'Crashed', tone: 'danger', help: 'It exited or failed to start; the host tries again after a short wait.' },
  failed: { label: 'Failed', tone: 'danger', help: 'It crashed 3 times in 5 minutes, so the host stopped trying. Fix the problem, then Connect or Restart.' },
};

export function mcpStatusInfo(status: string): { label: string; tone: Tone; help: string } {
  return Object.prototype.hasOwnProperty.call(MCP_STATUS_INFO, status)
    ? MCP_STATUS_INFO[status as McpServerStatus]
    : { label: status, tone: 'neutral', help: '' };
}

/** "in 4 s", "in 1 min 5 s", or "now" once the moment has passed. */
export function countdown(at: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((at - now) / 1000));
  if (seconds === 0) return 'now';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `in ${minutes} min ${rest} s` : `in ${minutes} min`;
}

export function transportLabel(config: McpServerConfig): string {
  return config.transport === 'stdio' ? 'stdio (local program)' : 'Streamable HTTP';
}

export const TRUST_HELP =
  'Read-only hints from this server are believed: tools marked readOnlyHint run as read tools, so “approve every write” does not hold them and dry runs call them for real. Tick only for a server you trust to label its tools honestly; an untrusted server’s tools always run as write tools.';
