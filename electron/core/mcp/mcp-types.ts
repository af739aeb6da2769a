// The MCP manager's shapes: its events, where configs live, its options, what it keeps per server (made fresh by
// createServerState) and what clients see of it.
import type { HostError } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import type { McpServerConfig, McpServerInfo, McpServerStatus, McpToolView } from '../../../shared/types/mcp';
import { maskSecrets, SECRET_NAME } from '../../../shared/secret-mask';
import { mcpSourceId } from '../../../shared/types/mcp';
import { CrashTracker, type CrashTrackerOptions } from '../extensions/workers/crash-tracker';
import { ExtensionLog, LOG_MAX_BYTES, LOG_MAX_LINES } from '../extensions/extension-log';
import type { Clock, Logger, Timers } from '../ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import type { ToolRegistry } from '../registry/tool-registry';
import type { McpConnector, McpSession, OpenedSession } from './mcp-connection';

export type McpEvent =
  | { type: 'mcp.changed'; server: McpServerInfo }
  | { type: 'mcp.removed'; id: string }
  | { type: 'mcp.log'; id: string; line: string };

/** Where configs live (settings `mcpServers`); tests pass an in-memory one. */
export interface McpConfigStore {
  read(): McpServerConfig[];
  /**
   * Applies a change to the list as stored at that moment, inside the settings queue: a server another process
   * (a CLI run) added or changed meanwhile is kept, not overwritten by this process's own list.
   */
  change(edit: (stored: McpServerConfig[]) => McpServerConfig[]): Promise<void>;
}

export type RegistryPort = Pick<ToolRegistry, 'register' | 'unregister' | 'unregisterAll' | 'setSourceStatus'>;

export interface McpManagerOptions {
  store: McpConfigStore;
  registry: RegistryPort;
  clock: Clock;
  /** Restart and refresh timers, the dropped-log counter. Default: the system's. */
  timers?: Timers;
  /** Opens a session with a server. Default: the SDK's (spawn or HTTP); tests pass fake servers. */
  connector?: McpConnector;
  log: Logger;
  /** A server that has not answered initialize by then is stopped and counted as a crash. */
  initializeTimeoutMs?: number;
  listTimeoutMs?: number;
  /** notifications/tools/list_changed bursts become one tools/list. */
  refreshDebounceMs?: number;
  crash?: Omit<CrashTrackerOptions, 'clock'>;
  /** mcp.log events per server per second; the log itself keeps every line (capped). */
  maxLogEventsPerSecond?: number;
  /** notifications/message per server per second accepted from a stdio server; more are dropped unparsed and counted. */
  maxLogNotificationsPerSecond?: number;
  /** Scrubs secrets from log lines and errors (the host's Redactor). */
  redact?: (text: string) => string;
  /** Registers a configured secret (env/header value) with the host's Redactor. */
  addSecret?: (secret: string) => void;
}

export interface ServerState {
  config: McpServerConfig;
  status: McpServerStatus;
  log: ExtensionLog;
  crash: CrashTracker;
  conn: McpSession | null;
  /** Bumped by every start and stop: async steps of an older attempt see the mismatch and back off. */
  gen: number;
  session?: OpenedSession;
  views: McpToolView[];
  registered: Set<string>;
  /** Tools whose inputSchema declares `context`: only they receive the host's context argument. */
  wantsContext: Set<string>;
  lastError?: HostError;
  restartTimer: unknown;
  restartAt?: number;
  refreshTimer: unknown;
  refreshing: Promise<void> | null;
  refreshAgain: boolean;
  starting: Promise<void> | null;
  executor: ToolExecutor;
}

/** What clients see of a server: its config with secrets masked, status, counts, last error, restart time. */
export function serverInfo(state: ServerState): McpServerInfo {
  const info: McpServerInfo = {
    config: maskSecrets(structuredClone(state.config)),
    status: state.status,
    sourceId: mcpSourceId(state.config.id),
    toolCount: state.registered.size,
    skippedToolCount: state.views.filter((view) => view.error !== undefined).length,
    recentCrashes: state.crash.recentCrashes(),
  };
  if (state.lastError) info.lastError = { ...state.lastError };
  if (state.session) info.server = { ...state.session };
  if (state.restartAt !== undefined) info.restartAt = state.restartAt;
  const pid = state.conn?.pid;
  if (pid !== undefined) info.pid = pid;
  return info;
}

/** A server's state before its first start. */
export function createServerState(
  config: McpServerConfig,
  clock: Clock,
  crash: Omit<CrashTrackerOptions, 'clock'> | undefined,
  maxLogEvents: number,
  execute: (state: ServerState, request: ExecuteRequest) => Promise<ExecuteResult>,
): ServerState {
  const state: ServerState = {
    config,
    status: 'stopped',
    log: new ExtensionLog({ maxLines: LOG_MAX_LINES, maxBytes: LOG_MAX_BYTES, maxStreamedPerSecond: maxLogEvents }),
    crash: new CrashTracker({ clock, ...crash }),
    conn: null,
    gen: 0,
    views: [],
    registered: new Set(),
    wantsContext: new Set(),
    restartTimer: null,
    refreshTimer: null,
    refreshing: null,
    refreshAgain: false,
    starting: null,
    // The SDK's request timeout ends every call at its deadline.
    executor: { execute: (request) => execute(state, request), ownsDeadline: true },
  };
  return state;
}

/** An MCP `notifications/message` level as a log level. */
export function toLogLevel(level: string): LogLevel {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  if (level === 'warning') return 'warn';
  return 'error';
}

/** The values of a config's secret-looking env vars and headers (the redactor learns them). */
export function secretValues(config: McpServerConfig): string[] {
  return Object.entries({ ...config.env, ...config.headers })
    .filter(([name]) => SECRET_NAME.test(name))
    .map(([, value]) => value);
}

/** No restart or tools/list pending for the server any more. */
export function clearServerTimers(state: ServerState, timers: Timers): void {
  if (state.restartTimer) timers.clearTimeout(state.restartTimer);
  if (state.refreshTimer) timers.clearTimeout(state.refreshTimer);
  state.restartTimer = null;
  state.refreshTimer = null;
  state.refreshAgain = false;
}
