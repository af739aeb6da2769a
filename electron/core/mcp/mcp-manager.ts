// MCP servers as tool sources: configs in settings, one session per server, its tools in the registry, crash/backoff, logs.
//
// Each server's tools register under source `mcp-<id>` and are invoked through registry.invoke like
// every other tool; this manager is their ToolExecutor. A server's strings (tool names, descriptions,
// instructions, results, log lines) are data only: they are stored, shown as text and returned to
// models, and never reach spawn, a shell, a URL opener or the file system.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { HostError } from '../../../shared/errors';
import { HostFailure } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import { mcpSourceId, type McpServerConfig, type McpServerInfo, type McpServerStatus, type McpToolView } from '../../../shared/types/mcp';
import { CrashTracker, type CrashTrackerOptions } from '../extensions/crash-tracker';
import { ExtensionLog, formatLogEntry, LOG_MAX_BYTES, LOG_MAX_LINES, type LogSource } from '../extensions/extension-log';
import type { Clock, Logger } from '../ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import type { ToolRegistry } from '../registry/tool-registry';
import { maskSecrets, SECRET_NAME } from '../../../shared/secret-mask';
import { parseMcpServersJson, validateServerConfig } from './config';
import { describeSkip, mapMcpTool } from './map-tool';
import { McpConnection, type OpenedSession } from './mcp-connection';
import { toolCallLine } from '../tool-call-log';
import { keepStoredSecrets, mergeConfigPatch, putting } from './config-changes';
import { callMcpTool } from './tool-call';

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

type RegistryPort = Pick<ToolRegistry, 'register' | 'unregister' | 'unregisterAll' | 'setSourceStatus'>;

export interface McpManagerOptions {
  store: McpConfigStore;
  registry: RegistryPort;
  clock: Clock;
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

interface ServerState {
  config: McpServerConfig;
  status: McpServerStatus;
  log: ExtensionLog;
  crash: CrashTracker;
  conn: McpConnection | null;
  /** Bumped by every start and stop: async steps of an older attempt see the mismatch and back off. */
  gen: number;
  session?: OpenedSession;
  views: McpToolView[];
  registered: Set<string>;
  /** Tools whose inputSchema declares `context`: only they receive the host's context argument. */
  wantsContext: Set<string>;
  lastError?: HostError;
  restartTimer: ReturnType<typeof setTimeout> | null;
  restartAt?: number;
  refreshTimer: ReturnType<typeof setTimeout> | null;
  refreshing: Promise<void> | null;
  refreshAgain: boolean;
  starting: Promise<void> | null;
  executor: ToolExecutor;
}

export class McpManager {
  private readonly servers = new Map<string, ServerState>();
  private readonly listeners = new Set<(event: McpEvent) => void>();
  private readonly closing = new Set<Promise<void>>();
  private readonly initializeTimeoutMs: number;
  private readonly listTimeoutMs: number;
  private readonly refreshDebounceMs: number;
  private readonly maxLogEvents: number;
  private readonly maxLogNotifications: number;
  private readonly redact: (text: string) => string;
  private disposed = false;

  constructor(private readonly options: McpManagerOptions) {
    this.initializeTimeoutMs = options.initializeTimeoutMs ?? 10_000;
    this.listTimeoutMs = options.listTimeoutMs ?? 30_000;
    this.refreshDebounceMs = options.refreshDebounceMs ?? 250;
    this.maxLogEvents = options.maxLogEventsPerSecond ?? 100;
    this.maxLogNotifications = options.maxLogNotificationsPerSecond ?? 200;
    this.redact = options.redact ?? ((text) => text);
    for (const raw of options.store.read()) {
      const checked = validateServerConfig(raw);
      if (checked.ok && !this.servers.has(checked.value.id)) this.servers.set(checked.value.id, this.newState(checked.value));
      else options.log.warn('mcp: ignored an invalid server config in settings', checked.ok ? 'duplicate id' : checked.error.message);
    }
  }

  onEvent(listener: (event: McpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts every enabled server without waiting for any of them. */
  startEnabled(): void {
    for (const state of this.servers.values()) if (state.config.enabled) void this.start(state);
  }

  list(): McpServerInfo[] {
    return [...this.servers.values()].map((state) => this.info(state));
  }

  get(id: string): McpServerInfo {
    return this.info(this.require(id));
  }

  async add(input: Record<string, unknown>): Promise<McpServerInfo> {
    const checked = validateServerConfig(keepStoredSecrets(input, null, ''));
    if (!checked.ok) throw new HostFailure(checked.error);
    if (this.servers.has(checked.value.id)) {
      throw new HostFailure({ code: 'CONFLICT', message: `An MCP server with id "${checked.value.id}" already exists`, path: '/id' });
    }
    const state = this.newState(checked.value);
    this.servers.set(state.config.id, state);
    try {
      await this.options.store.change(putting([state.config]));
    } catch (error) {
      this.servers.delete(state.config.id);
      throw error;
    }
    this.changed(state);
    if (state.config.enabled) void this.start(state);
    return this.info(state);
  }

  /** Fields in `patch` replace the config's; null removes an optional field. A running server restarts. */
  async update(id: string, patch: Record<string, unknown>): Promise<McpServerInfo> {
    const state = this.require(id);
    const checked = validateServerConfig(mergeConfigPatch(state.config, keepStoredSecrets(patch, state.config, '/patch')));
    if (!checked.ok) throw new HostFailure(checked.error);
    const previous = state.config;
    state.config = checked.value;
    this.registerSecrets(state.config);
    try {
      await this.options.store.change(putting([state.config]));
    } catch (error) {
      state.config = previous;
      throw error;
    }
    // Disabling stops; enabling starts; any other change restarts a server that is up (or trying to be).
    const running = state.status !== 'stopped';
    if (patch.enabled === false) await this.stop(state);
    else if (running || (patch.enabled === true && !previous.enabled)) {
      state.crash.reset();
      await this.stop(state, { quiet: true });
      void this.start(state);
    }
    this.changed(state);
    return this.info(state);
  }

  async remove(id: string): Promise<boolean> {
    const state = this.servers.get(id);
    if (!state) return false;
    await this.stop(state, { quiet: true });
    this.servers.delete(id);
    await this.options.store.change((stored) => stored.filter((config) => config.id !== id));
    this.emit({ type: 'mcp.removed', id });
    return true;
  }

  async importJson(json: string, options: { enable?: boolean } = {}): Promise<{ added: McpServerInfo[]; errors: HostError[] }> {
    const { configs, errors } = parseMcpServersJson(json, this.servers.keys(), options);
    const added: ServerState[] = [];
    for (const config of configs) {
      const state = this.newState(config);
      this.servers.set(config.id, state);
      added.push(state);
    }
    if (added.length > 0) {
      try {
        await this.options.store.change(putting(added.map((state) => state.config)));
      } catch (error) {
        for (const state of added) this.servers.delete(state.config.id);
        throw error;
      }
    }
    for (const state of added) {
      this.changed(state);
      if (state.config.enabled) void this.start(state);
    }
    return { added: added.map((state) => this.info(state)), errors };
  }

  /** Starts now (a failed server too, with a clean crash budget) and resolves once connected or down. */
  async connect(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    if (state.status === 'connected') return this.info(state);
    if (state.status === 'connecting' && state.starting) {
      await state.starting;
      return this.info(state);
    }
    state.crash.reset();
    await this.start(state);
    return this.info(state);
  }

  async disconnect(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    await this.stop(state);
    return this.info(state);
  }

  async restart(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    state.crash.reset();
    await this.stop(state, { quiet: true });
    await this.start(state);
    return this.info(state);
  }

  tools(id: string): McpToolView[] {
    return this.require(id).views.map((view) => ({ ...view }));
  }

  logLines(id: string): string[] {
    return this.require(id).log.read().map(formatLogEntry);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([...this.servers.values()].map((state) => this.stop(state, { quiet: true })));
    await Promise.all([...this.closing]);
    this.listeners.clear();
  }

  // ── lifecycle ────────────────────────────────────────────────────────────

  private start(state: ServerState): Promise<void> {
    if (this.disposed) return Promise.resolve();
    const run = this.run(state).finally(() => {
      if (state.starting === run) state.starting = null;
    });
    state.starting = run;
    return run;
  }

  private async run(state: ServerState): Promise<void> {
    const gen = ++state.gen;
    this.clearTimers(state);
    if (state.conn) this.closeInBackground(state.conn);
    state.status = 'connecting';
    state.restartAt = undefined;
    this.changed(state);
    const { config } = state;
    this.hostLog(state, 'info', config.transport === 'stdio' ? `starting: ${JSON.stringify([config.command, ...(config.args ?? [])])}` : `connecting to ${config.url}`);

    const conn = new McpConnection(config, {
      onStderr: (line) => this.append(state, 'info', 'stderr', line),
      onLogMessage: (level, text) => this.append(state, toLogLevel(level), 'worker', text),
      onToolsChanged: () => {
        if (state.conn === conn) this.scheduleRefresh(state);
      },
      onUnexpectedClose: () => {
        if (state.conn === conn && state.gen === gen) {
          this.crashed(state, gen, { code: 'WORKER_CRASHED', message: `MCP server "${config.id}" ${config.transport === 'stdio' ? 'exited' : 'closed the connection'}${this.lastStderr(state)}` });
        }
      },
      onTransportError: (error) => {
        if (state.gen === gen) this.hostLog(state, 'warn', `transport error: ${error.message}`);
      },
      onLogDropped: (count) => {
        if (state.gen === gen) this.hostLog(state, 'warn', `dropped ${count} log notifications (more than ${this.maxLogNotifications} per second)`);
      },
    }, { maxLogPerSecond: this.maxLogNotifications });
    state.conn = conn;
    try {
      state.session = await conn.open(this.initializeTimeoutMs);
      if (state.gen !== gen) return;
      await this.refresh(state, conn);
      if (state.gen !== gen) return;
      this.options.registry.setSourceStatus(mcpSourceId(config.id), 'available');
      state.status = 'connected';
      state.lastError = undefined;
      this.hostLog(state, 'info', `connected to ${state.session.name || 'server'} ${state.session.version}; ${state.registered.size} tools`);
      this.changed(state);
    } catch (error) {
      if (state.gen !== gen) return;
      this.crashed(state, gen, this.startError(state, error));
    }
  }

  /** A start failure or an exit: tools stay registered but unavailable; restart with backoff, or fail. */
  private crashed(state: ServerState, gen: number, error: HostError): void {
    if (state.gen !== gen || this.disposed) return;
    const conn = state.conn;
    state.conn = null;
    if (conn) this.closeInBackground(conn);
    this.options.registry.setSourceStatus(mcpSourceId(state.config.id), 'unavailable');
    state.lastError = { ...error, message: this.redact(error.message) };
    this.hostLog(state, 'error', state.lastError.message);
    const decision = state.crash.recordCrash();
    if (decision.action === 'fail') {
      state.status = 'failed';
      this.hostLog(state, 'error', `stopped after ${decision.crashesInWindow} failures in 5 minutes; restart it to try again`);
    } else {
      state.status = 'crashed';
      state.restartAt = this.options.clock.now() + decision.delayMs;
      this.hostLog(state, 'warn', `restarting in ${decision.delayMs} ms (failure ${decision.crashesInWindow})`);
      state.restartTimer = setTimeout(() => {
        state.restartTimer = null;
        if (state.gen === gen) void this.start(state);
      }, decision.delayMs);
      state.restartTimer.unref?.();
    }
    this.changed(state);
  }

  private async stop(state: ServerState, options: { quiet?: boolean } = {}): Promise<void> {
    state.gen++;
    this.clearTimers(state);
    const conn = state.conn;
    state.conn = null;
    state.starting = null;
    this.options.registry.unregisterAll(mcpSourceId(state.config.id));
    state.registered.clear();
    state.views = state.views.map((view) => ({ ...view, registered: false }));
    const wasRunning = state.status !== 'stopped';
    state.status = 'stopped';
    state.restartAt = undefined;
    if (conn) {
      if (wasRunning) this.hostLog(state, 'info', 'stopping');
      const closed = conn.close();
      this.closing.add(closed);
      await closed.finally(() => this.closing.delete(closed));
    }
    if (!options.quiet || wasRunning) this.changed(state);
  }

  private closeInBackground(conn: McpConnection): void {
    const closed = conn.close().finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }

  private clearTimers(state: ServerState): void {
    if (state.restartTimer) clearTimeout(state.restartTimer);
    if (state.refreshTimer) clearTimeout(state.refreshTimer);
    state.restartTimer = null;
    state.refreshTimer = null;
    state.refreshAgain = false;
  }

  private startError(state: ServerState, error: unknown): HostError {
    const { config } = state;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return {
        code: 'MCP_INIT_TIMEOUT',
        message: `MCP server "${config.id}" did not answer initialize within ${this.initializeTimeoutMs} ms`,
        hint: 'Check the command and its arguments; the server may be waiting for input or writing logs to stdout.',
      };
    }
    const errno = (error as NodeJS.ErrnoException)?.code;
    if (errno === 'ENOENT') {
      return {
        code: 'MCP_CONNECT_FAILED',
        message: `MCP server "${config.id}": command not found: ${JSON.stringify(config.command)}`,
        hint: 'Use the full path of the program, or add its folder to PATH in the server env.',
        path: '/command',
      };
    }
    const detail = error instanceof Error ? error.message : String(error);
    return { code: 'MCP_CONNECT_FAILED', message: `MCP server "${config.id}" failed to start: ${detail.slice(0, 500)}${this.lastStderr(state)}` };
  }

  private lastStderr(state: ServerState): string {
    const last = state.log
      .read()
      .filter((entry) => entry.source === 'stderr' && entry.text.trim() !== '')
      .pop();
    return last ? ` (stderr: ${last.text.slice(0, 300)})` : '';
  }

  // ── tools ────────────────────────────────────────────────────────────────

  private scheduleRefresh(state: ServerState): void {
    if (state.refreshTimer) return;
    state.refreshTimer = setTimeout(() => {
      state.refreshTimer = null;
      const conn = state.conn;
      if (!conn || state.status !== 'connected') return;
      if (state.refreshing) {
        state.refreshAgain = true;
        return;
      }
      void this.refresh(state, conn)
        .then(() => this.changed(state))
        .catch((error: unknown) => this.hostLog(state, 'warn', `tools/list failed: ${error instanceof Error ? error.message : String(error)}`));
    }, this.refreshDebounceMs);
    state.refreshTimer.unref?.();
  }

  /** Lists the tools and brings the registry in line: new and changed ones registered, vanished ones dropped, bad ones skipped and logged. */
  private refresh(state: ServerState, conn: McpConnection): Promise<void> {
    const gen = state.gen;
    const run = (async () => {
      const listed = await conn.listTools(this.listTimeoutMs);
      if (state.gen !== gen || state.conn !== conn) return;
      const sourceId = mcpSourceId(state.config.id);
      const views: McpToolView[] = [];
      const seen = new Set<string>();
      const wantsContext = new Set<string>();
      for (const raw of listed) {
        const { view, dto } = mapMcpTool(raw, sourceId, state.config.trusted);
        if (dto && seen.has(view.name)) {
          view.error = { code: 'CONFLICT', message: `The server listed "${view.name}" more than once; the first one is used`, path: '/name' };
        } else if (dto) {
          const result = this.options.registry.register({ kind: 'mcp', id: sourceId }, dto, state.executor);
          if (result.ok) {
            view.registered = true;
            view.qualifiedName = result.value.qualifiedName;
            view.alias = result.value.alias;
            seen.add(view.name);
            if (declaresContext(dto.parameters)) wantsContext.add(view.name);
          } else {
            view.error = describeSkip(result.error);
          }
        }
        if (view.error) this.hostLog(state, 'warn', `tool ${JSON.stringify(view.name.slice(0, 128))} skipped: ${view.error.code} ${view.error.message}`);
        for (const note of view.notes ?? []) this.hostLog(state, 'warn', `tool ${JSON.stringify(view.name.slice(0, 128))}: ${note}`);
        views.push(view);
      }
      for (const name of state.registered) if (!seen.has(name)) this.options.registry.unregister(sourceId, name);
      state.registered = seen;
      state.wantsContext = wantsContext;
      state.views = views;
    })();
    state.refreshing = run;
    return run.finally(() => {
      if (state.refreshing === run) state.refreshing = null;
      if (state.refreshAgain && state.gen === gen) {
        state.refreshAgain = false;
        this.scheduleRefresh(state);
      }
    });
  }

  private async execute(state: ServerState, request: ExecuteRequest): Promise<ExecuteResult> {
    const started = this.options.clock.now();
    const result = await this.callTool(state, request);
    const line = toolCallLine(request.toolName, result, this.options.clock.now() - started);
    this.hostLog(state, line.level, line.text);
    return result;
  }

  private async callTool(state: ServerState, request: ExecuteRequest): Promise<ExecuteResult> {
    const conn = state.conn;
    if (!conn || state.status !== 'connected') {
      return { ok: false, error: { code: 'TOOL_UNAVAILABLE', message: `MCP server "${state.config.id}" is not connected` } };
    }
    return callMcpTool(
      {
        id: state.config.id,
        transport: state.config.transport,
        conn,
        wantsContext: state.wantsContext.has(request.toolName),
        now: this.options.clock.now(),
        redact: this.redact,
        lost: (error) => {
          if (state.conn === conn) this.crashed(state, state.gen, error);
        },
      },
      request,
    );
  }

  // ── state, events, logs ─────────────────────────────────────────────────

  private newState(config: McpServerConfig): ServerState {
    this.registerSecrets(config);
    const state: ServerState = {
      config,
      status: 'stopped',
      log: new ExtensionLog({ maxLines: LOG_MAX_LINES, maxBytes: LOG_MAX_BYTES, maxStreamedPerSecond: this.maxLogEvents }),
      crash: new CrashTracker({ clock: this.options.clock, ...this.options.crash }),
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
      executor: { execute: (request) => this.execute(state, request) },
    };
    return state;
  }

  /** Values of secret-looking env vars and headers are scrubbed from every log line and error. */
  private registerSecrets(config: McpServerConfig): void {
    const add = this.options.addSecret;
    if (!add) return;
    for (const [key, value] of Object.entries({ ...config.env, ...config.headers })) if (SECRET_NAME.test(key)) add(value);
  }

  private require(id: string): ServerState {
    const state = this.servers.get(id);
    if (!state) throw new HostFailure({ code: 'NOT_FOUND', message: `No MCP server with id "${id}"`, path: '/id' });
    return state;
  }

  private info(state: ServerState): McpServerInfo {
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

  private changed(state: ServerState): void {
    if (this.servers.get(state.config.id) !== state) return;
    this.emit({ type: 'mcp.changed', server: this.info(state) });
  }

  private hostLog(state: ServerState, level: LogLevel, text: string): void {
    this.append(state, level, 'host', text);
  }

  /** Every line goes to the capped log; mcp.log events are rate-limited so a flooding server cannot flood the UI. */
  private append(state: ServerState, level: LogLevel, source: LogSource, text: string): void {
    const id = state.config.id;
    state.log.record(this.options.clock.now(), level, source, this.redact(text), (entry) => this.emit({ type: 'mcp.log', id, line: formatLogEntry(entry) }));
  }

  private emit(event: McpEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.log.error('mcp event listener failed', error);
      }
    }
  }
}

function toLogLevel(level: string): LogLevel {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  if (level === 'warning') return 'warn';
  return 'error';
}

function declaresContext(schema: unknown): boolean {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null && Object.prototype.hasOwnProperty.call(properties, 'context');
}
