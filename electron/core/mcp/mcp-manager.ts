// MCP servers as tool sources: configs in settings, one session per server, its tools in the registry, crash/backoff, logs.
//
// Each server's tools register under source `mcp-<id>` and are invoked through registry.invoke like
// every other tool; this manager is their ToolExecutor. A server's strings (tool names, descriptions,
// instructions, results, log lines) are data only: they are stored, shown as text and returned to
// models, and never reach spawn, a shell, a URL opener or the file system.
import type { HostError } from '../../../shared/errors';
import { HostFailure } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import { mcpSourceId, type McpServerConfig, type McpServerInfo, type McpToolView } from '../../../shared/types/mcp';
import { formatLogEntry, type LogSource } from '../extensions/extension-log';
import type { ExecuteRequest, ExecuteResult } from '../registry-port';
import { toolCallLine } from '../tool-call-log';
import { validateServerConfig } from '../../../shared/mcp-config';
import { parseMcpServersJson } from './config';
import { keepStoredSecrets, mergeConfigPatch, putting } from './config-changes';
import type { McpConnector, McpSession } from './mcp-connection';
import { sdkConnector } from './sdk-connector';
import { clearServerTimers, createServerState, secretValues, serverInfo, toLogLevel, type McpEvent, type McpManagerOptions, type ServerState } from './mcp-types';
import { lastStderr } from './last-stderr';
import { Emitter } from '../util/emitter';
import { ToolLists } from './tool-lists';
import { systemTimers, type Timers } from '../ports';

export type { McpConfigStore, McpEvent, McpManagerOptions } from './mcp-types';

export class McpManager {
  private readonly servers = new Map<string, ServerState>();
  private readonly events: Emitter<McpEvent>;
  private readonly closing = new Set<Promise<void>>();
  private readonly initializeTimeoutMs: number;
  private readonly timers: Timers;
  private readonly connector: McpConnector;
  private readonly maxLogEvents: number;
  private readonly maxLogNotifications: number;
  private readonly redact: (text: string) => string;
  private readonly toolLists: ToolLists;
  private disposed = false;

  constructor(private readonly options: McpManagerOptions) {
    ({
      initializeTimeoutMs: this.initializeTimeoutMs = 10_000,
      maxLogEventsPerSecond: this.maxLogEvents = 100,
      maxLogNotificationsPerSecond: this.maxLogNotifications = 200,
      redact: this.redact = (text) => text,
      timers: this.timers = systemTimers,
      connector: this.connector = sdkConnector,
    } = options);
    this.events = new Emitter<McpEvent>((error) => options.log.error('mcp event listener failed', error));
    this.toolLists = new ToolLists({
      timers: this.timers,
      debounceMs: options.refreshDebounceMs ?? 250,
      listTimeoutMs: options.listTimeoutMs ?? 30_000,
      registry: options.registry,
      warn: (state, text) => this.hostLog(state, 'warn', text),
      changed: (state) => this.changed(state),
    });
    for (const raw of options.store.read()) {
      const checked = validateServerConfig(raw);
      if (checked.ok && !this.servers.has(checked.value.id)) this.servers.set(checked.value.id, this.newState(checked.value));
      else options.log.warn('mcp: ignored an invalid server config in settings', checked.ok ? 'duplicate id' : checked.error.message);
    }
  }

  onEvent(listener: (event: McpEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Starts every enabled server without waiting for any of them. */
  startEnabled(): void {
    for (const state of this.servers.values()) if (state.config.enabled) void this.start(state);
  }

  list(): McpServerInfo[] {
    return [...this.servers.values()].map((state) => serverInfo(state));
  }

  get(id: string): McpServerInfo {
    return serverInfo(this.require(id));
  }

  async add(input: Record<string, unknown>): Promise<McpServerInfo> {
    const checked = validateServerConfig(keepStoredSecrets(input, null, ''));
    if (!checked.ok) throw new HostFailure(checked.error);
    if (this.servers.has(checked.value.id)) {
      throw new HostFailure({ code: 'CONFLICT', message: `An MCP server with id "${checked.value.id}" already exists`, path: '/id' });
    }
    const [info] = await this.addAll([checked.value]);
    return info!;
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
    return serverInfo(state);
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
    return { added: configs.length ? await this.addAll(configs) : [], errors };
  }

  /** New servers: kept in settings first (none is added if that fails), then announced and started when enabled. */
  private async addAll(configs: McpServerConfig[]): Promise<McpServerInfo[]> {
    const added = configs.map((config) => this.newState(config));
    for (const state of added) this.servers.set(state.config.id, state);
    try {
      await this.options.store.change(putting(configs));
    } catch (error) {
      for (const state of added) this.servers.delete(state.config.id);
      throw error;
    }
    for (const state of added) {
      this.changed(state);
      if (state.config.enabled) void this.start(state);
    }
    return added.map((state) => serverInfo(state));
  }

  /** Starts now (a failed server too, with a clean crash budget) and resolves once connected or down. */
  async connect(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    if (state.status === 'connected') return serverInfo(state);
    if (state.status === 'connecting' && state.starting) {
      await state.starting;
      return serverInfo(state);
    }
    state.crash.reset();
    await this.start(state);
    return serverInfo(state);
  }

  async disconnect(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    await this.stop(state);
    return serverInfo(state);
  }

  async restart(id: string): Promise<McpServerInfo> {
    const state = this.require(id);
    state.crash.reset();
    await this.stop(state, { quiet: true });
    await this.start(state);
    return serverInfo(state);
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
    this.events.clear();
  }

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
    clearServerTimers(state, this.timers);
    if (state.conn) this.closeInBackground(state.conn);
    state.status = 'connecting';
    state.restartAt = undefined;
    this.changed(state);
    const { config } = state;
    this.hostLog(state, 'info', config.transport === 'stdio' ? `starting: ${JSON.stringify([config.command, ...(config.args ?? [])])}` : `connecting to ${config.url}`);

    const conn = this.connector(config, {
      onStderr: (line) => this.append(state, 'info', 'stderr', line),
      onLogMessage: (level, text) => this.append(state, toLogLevel(level), 'worker', text),
      onToolsChanged: () => {
        if (state.conn === conn) this.toolLists.schedule(state);
      },
      onUnexpectedClose: () => {
        if (state.conn === conn && state.gen === gen) {
          this.crashed(state, gen, { code: 'WORKER_CRASHED', message: `MCP server "${config.id}" ${config.transport === 'stdio' ? 'exited' : 'closed the connection'}${lastStderr(state.log)}` });
        }
      },
      onTransportError: (error) => {
        if (state.gen === gen) this.hostLog(state, 'warn', `transport error: ${error.message}`);
      },
      onLogDropped: (count) => {
        if (state.gen === gen) this.hostLog(state, 'warn', `dropped ${count} log notifications (more than ${this.maxLogNotifications} per second)`);
      },
    }, { maxLogPerSecond: this.maxLogNotifications, timers: this.timers });
    state.conn = conn;
    try {
      state.session = await conn.open(this.initializeTimeoutMs);
      if (state.gen !== gen) return;
      await this.toolLists.refresh(state, conn);
      if (state.gen !== gen) return;
      this.options.registry.setSourceStatus(mcpSourceId(config.id), 'available');
      state.status = 'connected';
      state.lastError = undefined;
      this.hostLog(state, 'info', `connected to ${state.session.name || 'server'} ${state.session.version}; ${state.registered.size} tools`);
      this.changed(state);
    } catch (error) {
      if (state.gen !== gen) return;
      // Loaded here, not at start: it reads the SDK's error classes (mcp-connection has loaded them by now).
      const { startError } = await import('./start-error');
      this.crashed(state, gen, startError(state.config, state.log, error, this.initializeTimeoutMs));
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
      state.restartTimer = this.timers.setTimeout(() => {
        state.restartTimer = null;
        if (state.gen === gen) void this.start(state);
      }, decision.delayMs);
      this.timers.setRef?.(state.restartTimer, false);
    }
    this.changed(state);
  }

  private async stop(state: ServerState, options: { quiet?: boolean } = {}): Promise<void> {
    state.gen++;
    clearServerTimers(state, this.timers);
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

  private closeInBackground(conn: McpSession): void {
    const closed = conn.close().finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }


  /** The executor of every tool of this server: one call, and its line in the server's log. */
  private async execute(state: ServerState, request: ExecuteRequest): Promise<ExecuteResult> {
    const started = this.options.clock.now();
    const conn = state.conn;
    const result: ExecuteResult =
      !conn || state.status !== 'connected'
        ? { ok: false, error: { code: 'TOOL_UNAVAILABLE', message: `MCP server "${state.config.id}" is not connected` } }
        : await (await import('./tool-call')).callMcpTool(
            {
              id: state.config.id,
              transport: state.config.transport,
              conn,
              wantsContext: state.wantsContext.has(request.toolName),
              now: started,
              redact: this.redact,
              lost: (error) => {
                if (state.conn === conn) this.crashed(state, state.gen, error);
              },
            },
            request,
          );
    const line = toolCallLine(request.toolName, result, this.options.clock.now() - started);
    this.hostLog(state, line.level, line.text);
    return result;
  }

  private newState(config: McpServerConfig): ServerState {
    this.registerSecrets(config);
    return createServerState(config, this.options.clock, this.options.crash, this.maxLogEvents, (state, request) => this.execute(state, request));
  }

  /** Values of secret-looking env vars and headers are scrubbed from every log line and error. */
  private registerSecrets(config: McpServerConfig): void {
    for (const value of secretValues(config)) this.options.addSecret?.(value);
  }

  private require(id: string): ServerState {
    const state = this.servers.get(id);
    if (!state) throw new HostFailure({ code: 'NOT_FOUND', message: `No MCP server with id "${id}"`, path: '/id' });
    return state;
  }

  private changed(state: ServerState): void {
    if (this.servers.get(state.config.id) !== state) return;
    this.emit({ type: 'mcp.changed', server: serverInfo(state) });
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
    this.events.emit(event);
  }
}
