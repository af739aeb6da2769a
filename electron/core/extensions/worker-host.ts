// One running extension worker: start, init, messages from it, liveness, memory cap, flood cap, stop and exit.
import type { HostError } from '../../../shared/errors';
import {
  HEARTBEAT_INTERVAL_MS,
  MAX_IN_FLIGHT_PER_WORKER,
  MAX_WORKER_MESSAGES_PER_SECOND,
  SHUTDOWN_GRACE_MS,
  STARTUP_TIMEOUT_MS,
  UNRESPONSIVE_AFTER_MS,
  type CancelReason,
  type GenerateRequestMessage,
  type HostToWorkerMessage,
  type LogLevel,
  type WorkerToHostMessage,
} from '../../../shared/protocol';
import { DEFAULT_EXTENSION_WORKER_SETTINGS } from '../../../shared/settings';
import type { ExtensionManifest, ExtensionPermission, ToolRegistrationDTO } from '../../../shared/types/spindle';
import { systemClock, type Clock } from '../ports';
import { systemTimers, type Timers } from '../registry/timers';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import { extensionContainment } from './containment';
import { LineSplitter, type LogSource } from './extension-log';
import { Heartbeat } from './heartbeat';
import { minimalWorkerEnv, type Launcher, type WorkerHandle } from './launcher';
import { MessageRate } from './message-rate';
import { CallTable, hostError } from './worker-calls';
import { exitReasonOf, workerExitError, type WorkerExit, type WorkerExitReason } from './worker-exit';

export type { WorkerExit, WorkerExitError, WorkerExitReason } from './worker-exit';

export interface WorkerHostTimings {
  heartbeatIntervalMs: number;
  unresponsiveAfterMs: number;
  startupTimeoutMs: number;
  shutdownGraceMs: number;
  maxMessagesPerSecond: number;
  maxInFlight: number;
}

export const DEFAULT_WORKER_TIMINGS: WorkerHostTimings = {
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  unresponsiveAfterMs: UNRESPONSIVE_AFTER_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  shutdownGraceMs: SHUTDOWN_GRACE_MS,
  maxMessagesPerSecond: MAX_WORKER_MESSAGES_PER_SECOND,
  maxInFlight: MAX_IN_FLIGHT_PER_WORKER,
};

export interface WorkerHostCallbacks {
  /** main loaded without throwing. */
  onReady?(): void;
  /** Unchecked: the caller decides on permission and hands it to the registry. */
  onRegisterTool?(tool: ToolRegistrationDTO): void;
  onUnregisterTool?(name: string): void;
  onLog?(level: LogLevel, source: LogSource, text: string): void;
  /** spindle.generate: unchecked (the caller checks permission and input) and answered with sendGenerateResult. */
  onGenerateRequest?(message: GenerateRequestMessage): void;
  onGenerateCancel?(requestId: string): void;
  /** Fires once; every pending call has been settled before it. */
  onExit?(exit: WorkerExit): void;
}

export interface WorkerHostOptions {
  manifest: ExtensionManifest;
  extensionPath: string;
  dataPath: string;
  granted: readonly ExtensionPermission[];
  launcher: Launcher;
  /** Worker runtime script (see runtime-script.ts). */
  entry: string;
  /** Extra plain variables for the worker; secrets are filtered out. */
  env?: Record<string, string>;
  clock?: Clock;
  timers?: Timers;
  timings?: Partial<WorkerHostTimings>;
  /** Resident memory cap in MB (settings: extensionWorkers.memoryLimitMb). */
  memoryLimitMb?: number;
  callbacks?: WorkerHostCallbacks;
}

export type WorkerState = 'idle' | 'starting' | 'running' | 'stopping' | 'exited';

export class WorkerHost implements ToolExecutor {
  readonly id: string;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly timings: WorkerHostTimings;
  private readonly callbacks: WorkerHostCallbacks;
  private readonly granted: Set<ExtensionPermission>;
  private readonly memoryLimitBytes: number;
  private readonly calls: CallTable;
  private readonly heartbeat: Heartbeat;
  private readonly rate: MessageRate;
  private handle: WorkerHandle | null = null;
  private stateValue: WorkerState = 'idle';
  private graceTimer: unknown = null;
  private pingSeq = 0;
  /** What the worker last said its resident memory was, for doors where the host cannot read it. */
  private reportedRss: number | null = null;
  private killedFor: { reason: WorkerExitReason; detail?: string } | null = null;
  private stopError: HostError | null = null;
  private exitInfo: WorkerExit | null = null;
  private readonly exited: Promise<WorkerExit>;
  private resolveExited!: (exit: WorkerExit) => void;

  constructor(private readonly options: WorkerHostOptions) {
    this.id = options.manifest.id;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.timings = { ...DEFAULT_WORKER_TIMINGS, ...options.timings };
    this.callbacks = options.callbacks ?? {};
    this.granted = new Set(options.granted);
    this.memoryLimitBytes = (options.memoryLimitMb ?? DEFAULT_EXTENSION_WORKER_SETTINGS.memoryLimitMb) * 1024 * 1024;
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.rate = new MessageRate(this.timings.maxMessagesPerSecond);
    this.calls = new CallTable({
      extensionId: this.id,
      clock: this.clock,
      timers: this.timers,
      maxInFlight: this.timings.maxInFlight,
      send: (message) => this.send(message),
      log: (level, text) => this.log(level, text),
    });
    this.heartbeat = new Heartbeat({
      clock: this.clock,
      timers: this.timers,
      intervalMs: this.timings.heartbeatIntervalMs,
      unresponsiveAfterMs: this.timings.unresponsiveAfterMs,
      startupTimeoutMs: this.timings.startupTimeoutMs,
      onTick: () => this.tick(),
      onSilent: ({ awakeMs, hostLagMs }) => {
        const lag = hostLagMs > 0 ? ` (not counting ${hostLagMs} ms the host itself was busy)` : '';
        this.log('error', `Not responding: no heartbeat for ${awakeMs} ms${lag}; its event loop is blocked. The worker was killed.`);
        this.kill('unresponsive');
      },
    });
  }

  get state(): WorkerState {
    return this.stateValue;
  }

  get pid(): number | undefined {
    return this.handle?.pid;
  }

  get inFlight(): number {
    return this.calls.size;
  }

  /** Resolves when the process has ended, however it ended. */
  whenExited(): Promise<WorkerExit> {
    return this.exited;
  }

  start(): void {
    if (this.stateValue !== 'idle') throw new Error(`Worker ${this.id} was already started.`);
    this.stateValue = 'starting';
    const { extensionPath, dataPath } = this.options;
    let handle: WorkerHandle;
    try {
      handle = this.options.launcher.launch({
        id: this.id,
        entry: this.options.entry,
        env: minimalWorkerEnv({ SPINDLE_EXTENSION_ID: this.id, ...this.options.env }),
        cwd: extensionPath,
        containment: extensionContainment({ extensionPath, dataPath }),
      });
    } catch (err) {
      this.log('error', `The worker could not be started: ${(err as Error).message}`);
      queueMicrotask(() => this.onProcessExit(null, null));
      return;
    }
    this.handle = handle;
    handle.onMessage((message) => this.onMessage(message));
    handle.onProtocolError((reason) => {
      this.log('error', `Stopped: the worker ${reason}.`);
      this.kill('protocol', `it ${reason}`);
    });
    handle.onExit((code, signal) => this.onProcessExit(code, signal));
    this.pipe(handle.stdout, 'stdout', 'info');
    this.pipe(handle.stderr, 'stderr', 'warn');
    this.send({ type: 'init', manifest: this.options.manifest, granted: [...this.granted], extensionPath, dataPath });
    this.heartbeat.start();
  }

  execute(request: ExecuteRequest): Promise<ExecuteResult> {
    return this.call('tool_invocation', request);
  }

  /** Dry run of a write tool: the extension's TOOL_SIMULATION handler, or the seed's placeholder result. */
  simulate(request: ExecuteRequest): Promise<ExecuteResult> {
    return this.call('tool_simulation', request);
  }

  /** Updates the permissions the worker works under and tells it. */
  setGranted(granted: readonly ExtensionPermission[]): void {
    this.granted.clear();
    for (const permission of granted) this.granted.add(permission);
    this.send({ type: 'permissions_changed', granted: [...this.granted] });
  }

  denyPermission(permission: ExtensionPermission, operation: string): void {
    this.send({ type: 'permission_denied', permission, operation });
  }

  reportError(operation: string, error: HostError): void {
    this.send({ type: 'error', operation, error });
  }

  /** Answers a generate_request; dropped when the worker is gone. */
  sendGenerateResult(requestId: string, result: { ok: true; value: unknown } | { ok: false; error: HostError }): void {
    this.send(result.ok ? { type: 'generate_result', requestId, ok: true, value: result.value } : { type: 'generate_result', requestId, ok: false, error: result.error });
  }

  /** Ends every in-flight call with `error` and tells the worker to cancel them. */
  rejectInFlight(error: HostError, reason: CancelReason): void {
    this.calls.settleAll(error, reason);
  }

  /**
   * Stops the worker on purpose: pending calls end with `error` right away, the worker gets
   * `shutdown` and is killed (with everything it started) after the grace period.
   */
  stop(error: HostError = hostError('TOOL_UNAVAILABLE', 'The extension was stopped.')): Promise<WorkerExit> {
    if (this.stateValue === 'idle') {
      this.stateValue = 'exited';
      this.finishExit({ reason: 'killed', exitCode: null, signal: null, expected: true });
    }
    if (this.stateValue === 'exited' || this.stateValue === 'stopping') return this.exited;
    this.stateValue = 'stopping';
    this.stopError = error;
    this.rejectInFlight(error, 'shutdown');
    this.send({ type: 'shutdown' });
    this.graceTimer = this.timers.setTimeout(() => this.kill('killed'), this.timings.shutdownGraceMs);
    return this.exited;
  }

  private call(type: 'tool_invocation' | 'tool_simulation', request: ExecuteRequest): Promise<ExecuteResult> {
    if (this.stateValue !== 'starting' && this.stateValue !== 'running') {
      return Promise.resolve({ ok: false, error: hostError('TOOL_UNAVAILABLE', `Extension "${this.id}" is not running.`) });
    }
    if (!this.granted.has('tools')) {
      return Promise.resolve({ ok: false, error: hostError('PERMISSION_DENIED', `Extension "${this.id}" does not have the tools permission.`) });
    }
    return this.calls.start(type, request);
  }

  private onMessage(message: WorkerToHostMessage): void {
    if (this.killedFor || this.stateValue === 'exited') return;
    // The answer to a call in flight was asked for: the in-flight cap already bounds those.
    // Everything else (logs, registrations, late or foreign results) counts towards the flood cap.
    const awaited = message.type === 'tool_invocation_result' && this.calls.isAwaited(message.requestId);
    if (!awaited && this.rate.exceeded(this.clock.now())) {
      this.log('error', `Stopped: the extension sent more than ${this.timings.maxMessagesPerSecond} messages within one second.`);
      this.kill('flood');
      return;
    }
    try {
      this.dispatch(message);
    } catch (err) {
      this.log('error', `Handling a ${message.type} message failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private dispatch(message: WorkerToHostMessage): void {
    const live = this.stateValue === 'starting' || this.stateValue === 'running';
    switch (message.type) {
      case 'heartbeat':
        this.heartbeat.beat();
        if (message.rss !== undefined) this.reportedRss = message.rss;
        return;
      case 'ready':
        // Its event loop just ran: from here on the short unresponsive limit applies, not the startup one.
        this.heartbeat.beat();
        if (this.stateValue === 'starting') {
          this.stateValue = 'running';
          this.callbacks.onReady?.();
        }
        return;
      case 'register_tool':
        if (live) this.callbacks.onRegisterTool?.(message.tool);
        return;
      case 'unregister_tool':
        this.callbacks.onUnregisterTool?.(message.name);
        return;
      case 'log':
        this.callbacks.onLog?.(message.level, 'worker', message.message);
        return;
      case 'tool_invocation_result':
        this.calls.answer(message);
        return;
      case 'generate_request':
        if (!live) return;
        if (this.callbacks.onGenerateRequest) this.callbacks.onGenerateRequest(message);
        else this.sendGenerateResult(message.requestId, { ok: false, error: hostError('GENERATION_UNAVAILABLE', 'This host runs no generations for extensions.') });
        return;
      case 'generate_cancel':
        this.callbacks.onGenerateCancel?.(message.requestId);
        return;
    }
  }

  /** Each heartbeat interval: the memory cap, then a ping. */
  private tick(): void {
    if (this.stateValue !== 'starting' && this.stateValue !== 'running') return;
    const rss = this.handle?.residentBytes() ?? this.reportedRss;
    if (rss !== null && rss > this.memoryLimitBytes) {
      const detail = `${Math.round(rss / 1048576)} MB resident, the limit is ${Math.round(this.memoryLimitBytes / 1048576)} MB`;
      this.log('error', `Stopped: ${detail}.`);
      this.kill('memory', detail);
      return;
    }
    this.send({ type: 'ping', seq: ++this.pingSeq });
  }

  /** Kills the process now; pending calls end at once with the matching error. */
  private kill(reason: WorkerExitReason, detail?: string): void {
    if (this.killedFor || this.stateValue === 'exited') return;
    this.killedFor = detail === undefined ? { reason } : { reason, detail };
    this.heartbeat.stop();
    if (reason !== 'killed') this.rejectInFlight(workerExitError(this.id, { ...this.killedFor, exitCode: null, signal: null }), reason === 'unresponsive' ? 'timeout' : 'shutdown');
    this.handle?.kill();
  }

  private onProcessExit(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    const expected = this.stopError !== null;
    const reason = this.killedFor?.reason ?? exitReasonOf(code, signal);
    const detail = this.killedFor?.detail;
    this.stateValue = 'exited';
    this.heartbeat.stop();
    if (this.graceTimer !== null) this.timers.clearTimeout(this.graceTimer);
    const exit: WorkerExit = detail === undefined ? { reason, exitCode: code, signal, expected } : { reason, exitCode: code, signal, expected, detail };
    this.rejectInFlight(expected && this.stopError ? this.stopError : workerExitError(this.id, exit), 'shutdown');
    // However it ended, nothing it started outlives it.
    this.handle?.kill();
    if (!expected && !this.killedFor) {
      this.log('error', `The worker exited (${reason}${code !== null ? `, exit code ${code}` : ''}${signal ? `, signal ${signal}` : ''}).`);
    }
    this.finishExit(exit);
  }

  private finishExit(exit: WorkerExit): void {
    this.exitInfo = exit;
    this.callbacks.onExit?.(exit);
    this.resolveExited(exit);
  }

  /** False when the worker cannot be reached; an oversized message is refused without harming it. */
  private send(message: HostToWorkerMessage): ReturnType<WorkerHandle['send']> {
    if (!this.handle || this.stateValue === 'exited' || this.killedFor) return 'closed';
    return this.handle.send(message);
  }

  private log(level: LogLevel, text: string): void {
    this.callbacks.onLog?.(level, 'host', text);
  }

  private pipe(stream: NodeJS.ReadableStream | null, source: LogSource, level: LogLevel): void {
    if (!stream) return;
    const splitter = new LineSplitter((line) => this.callbacks.onLog?.(level, source, line));
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => splitter.push(chunk));
    stream.on('end', () => splitter.flush());
    stream.on('error', () => {});
  }
}
