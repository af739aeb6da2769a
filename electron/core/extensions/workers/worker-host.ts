// One running extension worker: start, init, calls in flight, host requests, liveness, memory cap, exit handling.
import type { HostError, Result } from '../../../../shared/errors';
import {
  type CancelReason,
  type HostToWorkerMessage,
  type LogLevel,
} from '../../../../shared/protocol';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { systemClock, systemTimers, type Clock, type Timers } from '../../ports';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../../registry-port';
import { CallPayloads } from './call-payload';
import { readWorkerMessage } from './read-worker-message';
import { dispatch, type MessageHandlers } from '../../../../shared/protocol/dispatch';
import type { WorkerToHostMessage } from '../../../../shared/protocol/worker-schemas';
import { minimalWorkerEnv, type WorkerHandle } from './launcher';
import { hostError, pipelineValue, refused, WorkerCalls } from './worker-calls';
import { exitError, type WorkerExit, type WorkerExitReason } from './worker-exit';
import { WorkerOutput } from './worker-output';
import { workerRpc, type WorkerRpc } from './worker-rpc';
import { BackendProcesses } from './backend-processes';
import { DEFAULT_WORKER_TIMINGS, WorkerLiveness, type WorkerHostTimings } from './worker-liveness';
import { toolCallLine } from '../../tool-call-log';
import type { WorkerHostCallbacks, WorkerHostOptions, WorkerState } from './worker-host-types';

export type { WorkerExit, WorkerExitError, WorkerExitReason } from './worker-exit';
export { DEFAULT_WORKER_TIMINGS, type WorkerHostTimings } from './worker-liveness';

export type { WorkerHostCallbacks, WorkerHostOptions, WorkerState } from './worker-host-types';

/** Resident memory is read every this many heartbeats. */
const MEMORY_SAMPLE_TICKS = 2;

export class WorkerHost implements ToolExecutor {
  readonly id: string;
  /** Every call ends at its deadline on this host's own timer (W1). */
  readonly ownsDeadline = true;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly timings: WorkerHostTimings;
  private readonly callbacks: WorkerHostCallbacks;
  private readonly granted: Set<ExtensionPermission>;
  private readonly calls: WorkerCalls;
  private readonly payloads = new CallPayloads();
  private readonly liveness: WorkerLiveness;
  /** Its spindle.* calls to the host. */
  private readonly rpc: WorkerRpc;
  /** The managed backend processes it spawned (spindle.backendProcesses); they end with it. */
  readonly processes: BackendProcesses;
  private handle: WorkerHandle | null = null;
  private stateValue: WorkerState = 'idle';
  private graceTimer: unknown = null;
  private ticks = 0;
  private saidLateRegistration = false;
  private killReason: WorkerExitReason | null = null;
  /** Events with handlers in the worker (events_wanted); null until it says, and then every event goes to it. */
  private wanted: Set<string> | null = null;
  private killDetail: string | null = null;
  private stopError: HostError | null = null;
  /** Its stdout/stderr into the log, and the lines a crash is explained by. */
  private readonly output: WorkerOutput;
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
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.output = new WorkerOutput((level, source, text) => this.callbacks.onLog?.(level, source, text));
    this.calls = new WorkerCalls(
      this.timers,
      { cancel: (requestId, reason) => this.send({ type: 'cancel', requestId, reason }) },
      (toolName) => hostError('TOOL_TIMEOUT', `${toolName} (extension "${this.id}") did not answer within its deadline.`, 'The extension may be slow or stuck; a later answer is discarded.'),
      (level, text) => this.log(level, text),
    );
    this.rpc = workerRpc(
      (message) => void this.send(message),
      (method, params, _bytes, signal, emit) => this.answerRequest(method, params, signal, emit),
    );
    this.processes = new BackendProcesses({
      extensionId: this.id,
      extensionPath: options.extensionPath,
      launcher: options.launcher,
      runtimeEntry: options.entry,
      clock: this.clock,
      timers: this.timers,
      notify: (message) => void this.send(message),
      log: (level, text) => this.log(level, text),
      flooded: () => this.liveness.flooded(),
    });
    this.liveness = new WorkerLiveness(this.clock, this.timers, this.timings, {
      ping: (seq) => this.send({ type: 'ping', seq }),
      unresponsive: (silentMs) => {
        this.log('error', `Not responding: no heartbeat for ${silentMs} ms (its event loop is blocked). The worker was killed.`);
        this.kill('unresponsive');
      },
      tick: () => this.sampleMemory(),
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
    let handle: WorkerHandle;
    try {
      handle = this.options.launcher.launch({
        id: this.id,
        entry: this.options.entry,
        env: minimalWorkerEnv({ SPINDLE_EXTENSION_ID: this.id, ...this.options.env }),
        cwd: this.options.extensionPath,
        readable: [this.options.extensionPath],
      });
    } catch (err) {
      this.log('error', `The worker could not be started: ${(err as Error).message}`);
      queueMicrotask(() => this.onProcessExit(null, null));
      return;
    }
    this.handle = handle;
    handle.onMessage((message) => this.onMessage(message));
    handle.onProtocolError((detail) => {
      this.log('error', `Stopped: ${detail}. The worker broke the protocol and was killed.`);
      this.kill('protocol', detail);
    });
    handle.onExit((code, signal) => this.onProcessExit(code, signal));
    this.output.pipe(handle.stdout, 'stdout', 'info');
    this.output.pipe(handle.stderr, 'stderr', 'warn');
    this.send({ type: 'init', manifest: this.options.manifest, granted: [...this.granted], extensionPath: this.options.extensionPath });
    this.liveness.start();
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

  /** The person ran one of its commands (spindle.commands.onInvoked). */
  sendCommand(commandId: string, context: unknown): void {
    this.send({ type: 'command_invoked', commandId, context });
  }

  /** Hands a message to the extension's onFrontendMessage handlers. */
  sendFrontendMessage(payload: unknown): void {
    this.send({ type: 'frontend_message', payload });
  }

  /** The events it has `spindle.on` handlers for, as it last said (null: it has not said; it gets every event). */
  get wantedEvents(): readonly string[] | null {
    return this.wanted && [...this.wanted];
  }

  /** A notification event for its `spindle.on` handlers (dropped when the worker is gone, or has no handler for it). */
  sendEvent(event: string, payload: unknown): void {
    if (this.stateValue === 'running' && (this.wanted === null || this.wanted.has(event))) this.send({ type: 'event', event, payload });
  }

  /**
   * Runs one of its registered pipeline handlers (the caller checked the permission): the same
   * deadline, cancel, in-flight cap and result checks as a tool call; `label` names it in errors.
   */
  callPipeline(call: { requestId: string; kind: string; id: string; args: unknown[]; label: string; deadline: number; signal: AbortSignal }): Promise<ExecuteResult> {
    const refusal = this.refusal(call.requestId, call.deadline, call.signal);
    if (refusal) return refused(refusal);
    const message = { type: 'pipeline_call', requestId: call.requestId, kind: call.kind, id: call.id, args: call.args } as const;
    return this.track(call.requestId, call.label, call.deadline - this.clock.now(), call.signal, message).then((result) => (result.ok ? pipelineValue(call.label, result.value as string) : result));
  }

  /** Ends every in-flight call with `error` and tells the worker to cancel them. */
  rejectInFlight(error: HostError, reason: CancelReason): void {
    this.calls.settleAll(error, reason);
  }

  /**
   * Stops the worker on purpose: pending calls end with `error` right away, the worker gets
   * `shutdown` and is killed after the grace period.
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
    const started = this.clock.now();
    return this.begin(type, request).then((result) => {
      const line = toolCallLine(request.toolName, result, this.clock.now() - started, type === 'tool_simulation' ? 'simulate' : 'call');
      this.log(line.level, line.text);
      return result;
    });
  }

  private begin(type: 'tool_invocation' | 'tool_simulation', request: ExecuteRequest): Promise<ExecuteResult> {
    if (this.stateValue === 'starting' || this.stateValue === 'running') {
      if (!this.granted.has('tools')) return refused(hostError('PERMISSION_DENIED', `Extension "${this.id}" does not have the tools permission.`));
    }
    const refusal = this.refusal(request.requestId, request.deadline, request.signal);
    if (refusal) return refused(refusal);
    return this.track(request.requestId, request.toolName, request.deadline - this.clock.now(), request.signal, this.payloads.message(type, request));
  }

  /** Why a call cannot start now, if it cannot. */
  private refusal(requestId: string, deadline: number, signal: AbortSignal): HostError | null {
    if (this.stateValue !== 'starting' && this.stateValue !== 'running') return hostError('TOOL_UNAVAILABLE', `Extension "${this.id}" is not running.`);
    return this.calls.refusal(requestId, deadline - this.clock.now(), signal, this.timings.maxInFlight, this.id);
  }

  private track(requestId: string, label: string, remaining: number, signal: AbortSignal, message: HostToWorkerMessage): Promise<ExecuteResult> {
    return new Promise<ExecuteResult>((resolve) => {
      this.calls.add(requestId, label, remaining, signal, resolve);
      if (!this.send(message)) {
        this.calls.settle(requestId, { ok: false, error: hostError('WORKER_CRASHED', `Extension "${this.id}" cannot be reached.`) });
      }
    });
  }

  private onMessage(raw: Record<string, unknown>): void {
    if (this.killReason || this.stateValue === 'exited') {
      // security.md R15: a worker that was replaced or stopped is nobody now; its registrations are said once.
      if (raw.type === 'register_tool' && !this.saidLateRegistration) {
        this.saidLateRegistration = true;
        const name = String((raw.tool as { name?: unknown } | undefined)?.name).slice(0, 64);
        this.log('warn', `registerTool(${JSON.stringify(name)}) ignored: the worker has exited; later messages from it are ignored too.`);
      }
      return;
    }
    // The answer to a call in flight was asked for (the in-flight cap bounds those); all else counts towards the flood cap.
    const awaited = raw.type === 'tool_invocation_result' && typeof raw.requestId === 'string' && this.calls.has(raw.requestId);
    if (!awaited && this.liveness.flooded()) {
      this.log('error', `Stopped: the extension sent more than ${this.timings.maxMessagesPerSecond} messages within one second.`);
      this.kill('flood');
      return;
    }
    const read = readWorkerMessage(raw);
    if (!read.ok) {
      this.log('warn', `Ignored a malformed message from the worker: ${read.reason}.`);
      // A call waiting for that answer ends now rather than at its deadline.
      if (awaited) this.calls.settle(raw.requestId as string, { ok: false, error: hostError('INVALID_RESULT', `The extension answered with a malformed result (${read.reason}).`) });
      return;
    }
    dispatch(this.inbound, read.message);
  }

  private get live(): boolean {
    return this.stateValue === 'starting' || this.stateValue === 'running';
  }

  /** What the host does with each message a worker sends (shared/protocol/worker-schemas.ts), once it is read. */
  private readonly inbound: MessageHandlers<WorkerToHostMessage> = {
    heartbeat: (message) => this.liveness.beat(message.seq),
    events_wanted: (message) => {
      this.wanted = new Set(message.events);
      this.callbacks.onEventsWanted?.(message.events);
    },
    ready: (message) => {
      this.liveness.beat();
      if (this.stateValue !== 'starting') return;
      this.stateValue = 'running';
      this.callbacks.onReady?.({ permissionModel: message.contained === true, networkNamespace: message.networkIsolated === true });
    },
    register_tool: (message) => {
      // security.md R15: a registration outside the worker's life (it was told to stop) is ignored, and said so.
      if (this.live) this.callbacks.onRegisterTool?.(message.tool);
      else this.log('warn', `registerTool(${JSON.stringify(String((message.tool as { name?: unknown }).name).slice(0, 64))}) ignored: the worker is ${this.stateValue}.`);
    },
    unregister_tool: (message) => this.callbacks.onUnregisterTool?.(message.name),
    log: (message) => {
      if (message.level === 'error') this.output.remember(message.message);
      this.callbacks.onLog?.(message.level, 'worker', message.message);
    },
    tool_invocation_result: (message) => this.calls.answer(message),
    rpc: (message) => this.rpc.receive(message.message),
  };

  /** One spindle.* call: a stopping worker may still be finishing an event's handler (saving its state), so it is answered. */
  private answerRequest(method: string, params: unknown, signal: AbortSignal, emit: (chunk: unknown) => void): Promise<Result<unknown>> {
    if (!this.live && this.stateValue !== 'stopping') return refused(hostError('TOOL_UNAVAILABLE', `Extension "${this.id}" is not running.`));
    if (!this.callbacks.onRequest) return refused(hostError('UNSUPPORTED_HERE', `spindle.${method} is not available here.`));
    return this.callbacks.onRequest(method, params, { signal, emit });
  }

  private sampleMemory(): void {
    if (!this.timings.memoryCapBytes || ++this.ticks % MEMORY_SAMPLE_TICKS !== 0) return;
    // Its managed processes count with it: sixteen children cannot each take what the cap allows the worker.
    const own = this.handle?.residentBytes() ?? null;
    const bytes = own === null ? null : own + this.processes.residentBytes();
    if (bytes === null || bytes <= this.timings.memoryCapBytes) return;
    const mb = (n: number) => Math.round(n / (1024 * 1024));
    this.log('error', `Stopped: it used ${mb(bytes)} MB of memory; the cap is ${mb(this.timings.memoryCapBytes)} MB.`);
    this.kill('memory', `${mb(bytes)} MB over the ${mb(this.timings.memoryCapBytes)} MB cap`);
  }

  /** Kills the process now; pending calls end at once with the matching error. */
  private kill(reason: WorkerExitReason, detail?: string): void {
    if (this.killReason || this.stateValue === 'exited') return;
    this.killReason = reason;
    this.killDetail = detail ?? null;
    this.liveness.stop();
    this.processes.stopAll();
    if (reason !== 'killed') this.rejectInFlight(this.exitErrorFor(reason, null, null), reason === 'unresponsive' ? 'timeout' : 'shutdown');
    this.handle?.kill();
  }

  private exitErrorFor(reason: WorkerExitReason, exitCode: number | null, signal: string | null) {
    return exitError(this.id, { reason, exitCode, signal, detail: this.killDetail, crashLine: this.output.crashLine() });
  }

  private onProcessExit(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    const expected = this.stopError !== null;
    const reason: WorkerExitReason =
      this.killReason ?? (code === null && signal === null ? 'launch-failed' : signal ? 'crashed' : code === 0 ? 'clean-exit' : 'abnormal-exit');
    this.stateValue = 'exited';
    this.liveness.stop();
    this.processes.stopAll();
    this.rpc.end();
    if (this.graceTimer !== null) this.timers.clearTimeout(this.graceTimer);
    const error = expected && this.stopError ? this.stopError : this.exitErrorFor(reason, code, signal);
    this.rejectInFlight(error, 'shutdown');
    if (!expected) this.log('error', `The worker exited (${reason}${code !== null ? `, exit code ${code}` : ''}${signal ? `, signal ${signal}` : ''}).`);
    const line = this.output.crashLine();
    this.finishExit({ reason, exitCode: code, signal, expected, ...(line && !expected ? { crashLine: line } : {}), ...(this.killDetail ? { detail: this.killDetail } : {}) });
  }

  /** Everything the worker sent so far has arrived (WorkerLiveness.caughtUp); at once when it is not running. */
  caughtUpNow(): Promise<void> {
    return this.live ? this.liveness.caughtUp() : Promise.resolve();
  }

  private finishExit(exit: WorkerExit): void {
    this.exitInfo = exit;
    this.callbacks.onExit?.(exit);
    this.resolveExited(exit);
  }

  /** False when the worker cannot be reached at all. */
  private send(message: HostToWorkerMessage): boolean {
    if (!this.handle || this.stateValue === 'exited' || this.killReason) return false;
    return this.handle.send(message);
  }

  private log(level: LogLevel, text: string): void {
    this.callbacks.onLog?.(level, 'host', text);
  }
}
