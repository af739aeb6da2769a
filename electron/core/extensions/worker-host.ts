// One running extension worker: start, init, in-flight calls with deadlines, heartbeat, flood cap, exit handling.
import type { HostError } from '../../../shared/errors';
import {
  HEARTBEAT_INTERVAL_MS,
  MAX_BATCH_BYTES,
  FLUSH_BATCH_ITEMS,
  MAX_BATCH_ITEMS,
  MAX_IN_FLIGHT_PER_WORKER,
  MAX_RESULT_BYTES,
  MAX_SHARED_CONTEXTS,
  MAX_WORKER_MESSAGES_PER_SECOND,
  SHUTDOWN_GRACE_MS,
  STARTUP_TIMEOUT_MS,
  UNRESPONSIVE_AFTER_MS,
  Outbox,
  isBatch,
  jsonBytesBound,
  measureResult,
  parseWorkerMessage,
  REQUEST_ID_PATTERN,
  type CancelReason,
  type GenerateRequestMessage,
  type HostToWorkerMessage,
  type LogLevel,
  type ToolInvocationResultMessage,
} from '../../../shared/protocol';
import type { ExtensionManifest, ExtensionPermission, LlmMessageDTO, ToolInvocationPayloadDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import { systemClock, type Clock } from '../ports';
import type { Cancellation, ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import { LineSplitter, type LogSource } from './extension-log';
import { minimalWorkerEnv, type Launcher, type WorkerHandle } from './launcher';

export type WorkerExitReason = 'clean-exit' | 'abnormal-exit' | 'crashed' | 'killed' | 'unresponsive' | 'flood' | 'launch-failed';

export interface WorkerExit {
  reason: WorkerExitReason;
  exitCode: number | null;
  signal: string | null;
  /** Stopped on purpose (stop, disable, restart, shutdown): not a crash. */
  expected: boolean;
}

/** WORKER_CRASHED / WORKER_UNRESPONSIVE carry how the process ended. */
export interface WorkerExitError extends HostError {
  details: { reason: WorkerExitReason; exitCode: number | null; signal: string | null };
}

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
  /** Worker runtime script (see workerRuntimeSource). */
  entry: string;
  /** Extra plain variables for the worker; secrets are filtered out. */
  env?: Record<string, string>;
  clock?: Clock;
  timings?: Partial<WorkerHostTimings>;
  callbacks?: WorkerHostCallbacks;
}

export type WorkerState = 'idle' | 'starting' | 'running' | 'stopping' | 'exited';

interface PendingCall {
  toolName: string;
  resolve(result: ExecuteResult): void;
  /** Absolute, on the host clock. */
  deadline: number;
  /** The registry's light cancellation hook, or else the request's AbortSignal and its listener. */
  cancellation: Cancellation | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | null;
}

/** A chat context this worker holds (shared/protocol/context.ts), recognised by identity. */
interface SentContext {
  id: string;
  messages: LlmMessageDTO[];
  context: string | undefined;
}

const RECENTLY_ENDED_CAP = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const IDENTITY_ARGS = ['__userId', '__user_id', 'userId'];
/** Calls are not worth batching with others when their payload may be bigger than this. */
const BATCHABLE_PAYLOAD_BYTES = 64 * 1024;

function hasIdentityArg(args: Record<string, unknown>): boolean {
  for (const key of IDENTITY_ARGS) if (key in args) return true;
  return false;
}

/** A call's payload, with long strings measured, so a call with a few KB of inline context stays batchable. */
function callBytes(message: HostToWorkerMessage): number {
  return jsonBytesBound('payload' in message ? message.payload : message, BATCHABLE_PAYLOAD_BYTES);
}

function hostError(code: HostError['code'], message: string, hint?: string): HostError {
  return hint ? { code, message, hint } : { code, message };
}

function refused(error: HostError): Promise<ExecuteResult> {
  return Promise.resolve({ ok: false, error });
}

export class WorkerHost implements ToolExecutor {
  readonly id: string;
  private readonly clock: Clock;
  private readonly timings: WorkerHostTimings;
  private readonly callbacks: WorkerHostCallbacks;
  private readonly granted: Set<ExtensionPermission>;
  private handle: WorkerHandle | null = null;
  private stateValue: WorkerState = 'idle';
  private readonly pending = new Map<string, PendingCall>();
  /** The last RECENTLY_ENDED_CAP request ids and why each ended, to tell a late result from a foreign one. */
  private readonly endedIds: string[] = [];
  private readonly endedWhy: string[] = [];
  private endedIndex = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  /**
   * One timer for every call's deadline, armed for the earliest: a setTimeout/clearTimeout pair per
   * call costs more than the trivial call itself. A call that ends leaves it alone; when it fires it
   * ends what is due and re-arms for the next deadline.
   */
  private deadlineTimer: ReturnType<typeof setTimeout> | null = null;
  private deadlineAt = Infinity;
  /** Messages queued in this tick; they leave as one write (see shared/protocol/batch.ts). */
  private readonly outbox: Outbox<HostToWorkerMessage>;
  /** Contexts sent to this worker by context_put, least recently used first. A new worker starts with none. */
  private readonly contexts: SentContext[] = [];
  private contextSeq = 0;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private startedAt = 0;
  private lastBeatAt: number | null = null;
  private pingSeq = 0;
  /** Arrival times of the last `maxMessagesPerSecond` messages (a ring). */
  private readonly recentArrivals: Float64Array;
  private arrivalIndex = 0;
  private killReason: WorkerExitReason | null = null;
  private stopError: HostError | null = null;
  private exitInfo: WorkerExit | null = null;
  private readonly exited: Promise<WorkerExit>;
  private resolveExited!: (exit: WorkerExit) => void;

  constructor(private readonly options: WorkerHostOptions) {
    this.id = options.manifest.id;
    this.clock = options.clock ?? systemClock;
    this.timings = { ...DEFAULT_WORKER_TIMINGS, ...options.timings };
    this.callbacks = options.callbacks ?? {};
    this.granted = new Set(options.granted);
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.recentArrivals = new Float64Array(Math.max(1, this.timings.maxMessagesPerSecond)).fill(-Infinity);
    this.outbox = new Outbox<HostToWorkerMessage>({
      write: (message) => !!this.handle && this.stateValue !== 'exited' && this.handle.send(message),
      schedule: (flush) => process.nextTick(flush),
      onDropped: (items) => this.onDropped(items),
      maxItems: FLUSH_BATCH_ITEMS,
      maxBytes: MAX_BATCH_BYTES,
    });
  }

  get state(): WorkerState {
    return this.stateValue;
  }

  get pid(): number | undefined {
    return this.handle?.pid;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Resolves when the process has ended, however it ended. */
  whenExited(): Promise<WorkerExit> {
    return this.exited;
  }

  start(): void {
    if (this.stateValue !== 'idle') throw new Error(`Worker ${this.id} was already started.`);
    this.stateValue = 'starting';
    this.startedAt = this.clock.now();
    let handle: WorkerHandle;
    try {
      handle = this.options.launcher.launch({
        id: this.id,
        entry: this.options.entry,
        env: minimalWorkerEnv({ SPINDLE_EXTENSION_ID: this.id, ...this.options.env }),
        cwd: this.options.extensionPath,
      });
    } catch (err) {
      this.log('error', `The worker could not be started: ${(err as Error).message}`);
      queueMicrotask(() => this.onProcessExit(null, null));
      return;
    }
    this.handle = handle;
    handle.onMessage((message) => this.onMessage(message));
    handle.onExit((code, signal) => this.onProcessExit(code, signal));
    this.pipe(handle.stdout, 'stdout', 'info');
    this.pipe(handle.stderr, 'stderr', 'warn');
    this.send({
      type: 'init',
      manifest: this.options.manifest,
      granted: [...this.granted],
      extensionPath: this.options.extensionPath,
      dataPath: this.options.dataPath,
    });
    this.heartbeat = setInterval(() => this.tick(), this.timings.heartbeatIntervalMs);
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
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, { ok: false, error }, reason);
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
    this.graceTimer = setTimeout(() => this.kill('killed'), this.timings.shutdownGraceMs);
    return this.exited;
  }

  private call(type: 'tool_invocation' | 'tool_simulation', request: ExecuteRequest): Promise<ExecuteResult> {
    if (this.stateValue !== 'starting' && this.stateValue !== 'running') {
      return refused(hostError('TOOL_UNAVAILABLE', `Extension "${this.id}" is not running.`));
    }
    if (!this.granted.has('tools')) {
      return refused(hostError('PERMISSION_DENIED', `Extension "${this.id}" does not have the tools permission.`));
    }
    if (request.cancellation ? request.cancellation.aborted : request.signal.aborted) return refused(hostError('CANCELLED', 'The tool call was cancelled before it started.'));
    const remaining = request.deadline - this.clock.now();
    if (remaining <= 0) return refused(hostError('TOOL_TIMEOUT', 'The tool call reached its deadline before it started.'));
    if (!REQUEST_ID_PATTERN.test(request.requestId)) {
      return refused(hostError('INVALID_INPUT', 'A request id is 1–128 printable ASCII characters without spaces.'));
    }
    if (this.pending.has(request.requestId)) {
      return refused(hostError('CONFLICT', `A call with request id ${request.requestId} is already running.`));
    }
    if (this.pending.size >= this.timings.maxInFlight) {
      return refused(hostError('TOOL_UNAVAILABLE', `Extension "${this.id}" already has ${this.pending.size} calls running.`, 'Try again when some have finished.'));
    }

    let args = request.args;
    if (hasIdentityArg(args)) {
      args = { ...args };
      for (const key of IDENTITY_ARGS) delete args[key];
    }
    // Council calls share one chat context: it goes to the worker once (context_put), calls refer to it.
    const contextRef = request.contextMessages ? this.shareContext(request.contextMessages, args.context) : undefined;
    if (contextRef !== undefined && typeof args.context === 'string') args = { ...args, context: null };
    const payload: ToolInvocationPayloadDTO = { toolName: request.toolName, args, requestId: request.requestId };
    if (request.councilMember) payload.councilMember = request.councilMember;
    if (request.contextMessages && contextRef === undefined) payload.contextMessages = request.contextMessages;

    return new Promise<ExecuteResult>((resolve) => {
      const { requestId, cancellation } = request;
      const call: PendingCall = { toolName: request.toolName, resolve, deadline: request.deadline, cancellation, signal: undefined, onAbort: null };
      this.pending.set(requestId, call);
      // Sent first: the worker starts while the host finishes its bookkeeping. Nothing can answer or
      // abort the call before this synchronous block ends, and a failed write settles the call after it.
      const sent = this.send(contextRef === undefined ? { type, payload } : { type, payload, contextRef }, callBytes);
      if (cancellation) {
        cancellation.onAbort(() => this.cancelled(requestId));
      } else {
        call.signal = request.signal;
        call.onAbort = () => this.cancelled(requestId);
        call.signal.addEventListener('abort', call.onAbort, { once: true });
      }
      if (request.deadline < this.deadlineAt) this.armDeadline(request.deadline);
      if (!sent) this.settle(requestId, { ok: false, error: hostError('WORKER_CRASHED', `Extension "${this.id}" cannot be reached.`) });
    });
  }

  /**
   * The id under which this worker holds `messages` + `context`, sending a context_put first if it
   * does not yet; undefined when the worker cannot be reached (the call then goes inline and fails).
   */
  private shareContext(messages: LlmMessageDTO[], rawContext: unknown): string | undefined {
    const context = typeof rawContext === 'string' ? rawContext : undefined;
    const cache = this.contexts;
    for (let i = cache.length - 1; i >= 0; i--) {
      const entry = cache[i]!;
      if (entry.messages !== messages || entry.context !== context) continue;
      if (i !== cache.length - 1) cache.push(...cache.splice(i, 1));
      return entry.id;
    }
    const id = `ctx-${++this.contextSeq}`;
    if (!this.send(context === undefined ? { type: 'context_put', contextId: id, contextMessages: messages } : { type: 'context_put', contextId: id, contextMessages: messages, context })) {
      return undefined;
    }
    cache.push({ id, messages, context });
    // Calls already queued with the evicted id reach the worker before the drop.
    if (cache.length > MAX_SHARED_CONTEXTS) this.send({ type: 'context_drop', contextId: cache.shift()!.id });
    return id;
  }

  private cancelled(requestId: string): void {
    this.settle(requestId, { ok: false, error: hostError('CANCELLED', 'The tool call was cancelled.') }, 'cancelled');
  }

  private settle(requestId: string, result: ExecuteResult, cancel?: CancelReason): void {
    const call = this.pending.get(requestId);
    if (!call) return;
    this.pending.delete(requestId);
    if (call.cancellation) call.cancellation.onAbort(null);
    else if (call.signal && call.onAbort) call.signal.removeEventListener('abort', call.onAbort);
    // A ring, not a Map: it is written on every call and read only when a stray result comes.
    this.endedIds[this.endedIndex] = requestId;
    this.endedWhy[this.endedIndex] = result.ok ? 'answered' : result.error.code;
    this.endedIndex = (this.endedIndex + 1) % RECENTLY_ENDED_CAP;
    if (cancel) this.send({ type: 'cancel', requestId, reason: cancel });
    call.resolve(result);
  }

  private armDeadline(at: number): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineAt = at;
    const delay = Math.min(Math.max(1, at - this.clock.now()), MAX_TIMER_MS);
    this.deadlineTimer = setTimeout(() => this.expireDue(at), delay);
  }

  private disarmDeadline(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    this.deadlineAt = Infinity;
  }

  /** The timer armed for `armedFor` fired: that deadline has passed even if the clock lags behind. */
  private expireDue(armedFor: number): void {
    this.deadlineTimer = null;
    this.deadlineAt = Infinity;
    const now = Math.max(armedFor, this.clock.now());
    let next = Infinity;
    const due: string[] = [];
    for (const [requestId, call] of this.pending) {
      if (call.deadline <= now) due.push(requestId);
      else if (call.deadline < next) next = call.deadline;
    }
    for (const requestId of due) {
      const call = this.pending.get(requestId);
      if (!call) continue;
      const error = hostError(
        'TOOL_TIMEOUT',
        `${call.toolName} (extension "${this.id}") did not answer within its deadline.`,
        'The extension may be slow or stuck; a later answer is discarded.',
      );
      this.settle(requestId, { ok: false, error }, 'timeout');
    }
    // Settling can start new calls (which arm for themselves); only re-arm for an earlier one.
    if (next < this.deadlineAt && this.pending.size > 0) this.armDeadline(next);
  }

  /** A write failed (the channel is gone): calls that were in it cannot be answered. */
  private onDropped(items: HostToWorkerMessage[]): void {
    for (const item of items) {
      if (item.type === 'tool_invocation' || item.type === 'tool_simulation') {
        this.settle(item.payload.requestId, { ok: false, error: hostError('WORKER_CRASHED', `Extension "${this.id}" cannot be reached.`) });
      }
    }
  }

  private whyEnded(requestId: string): string | undefined {
    const index = this.endedIds.lastIndexOf(requestId);
    return index === -1 ? undefined : this.endedWhy[index];
  }

  private onResult(message: ToolInvocationResultMessage): void {
    const call = this.pending.get(message.requestId);
    if (!call) {
      const ended = this.whyEnded(message.requestId);
      this.log(
        'warn',
        ended
          ? `Late result for request ${message.requestId} dropped: the call had already ended (${ended}).`
          : `Result for unknown request ${message.requestId} dropped.`,
      );
      return;
    }
    if (!message.ok) {
      this.settle(message.requestId, { ok: false, error: message.error });
      return;
    }
    // The runtime refuses big results; extension code can bypass it, so check again.
    const measured = measureResult(message.value);
    if (!measured.ok || measured.bytes > MAX_RESULT_BYTES) {
      const error = !measured.ok
        ? hostError('INVALID_RESULT', `${call.toolName} returned a value that is not JSON.`)
        : hostError('RESULT_TOO_LARGE', `${call.toolName} returned ${measured.bytes} bytes; the limit is ${MAX_RESULT_BYTES}.`, 'Return a summary or a smaller page of results.');
      this.log('warn', `${error.message} (request ${message.requestId})`);
      this.settle(message.requestId, { ok: false, error });
      return;
    }
    this.settle(message.requestId, { ok: true, value: message.value });
  }

  private onMessage(raw: unknown): void {
    if (!isBatch(raw)) {
      this.onItem(raw);
      return;
    }
    const items = raw.messages;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) {
      // Counted like any unsolicited message, then dropped whole.
      if (this.killReason || this.stateValue === 'exited' || this.flooded(this.clock.now())) return;
      this.log('warn', `Ignored a malformed message from the worker: a batch of ${Array.isArray(items) ? items.length : 'no'} messages.`);
      return;
    }
    // Each item exactly as if it had come alone; a flood stops the rest.
    for (const item of items as unknown[]) {
      if (this.killReason || this.stateValue === 'exited') return;
      this.onItem(item);
    }
  }

  private onItem(raw: unknown): void {
    if (this.killReason || this.stateValue === 'exited') return;
    const now = this.clock.now();
    // The answer to a call still in flight was asked for: the in-flight cap already bounds those.
    // Everything else (logs, registrations, late or foreign results, junk) counts towards the cap.
    if (!this.isAwaitedResult(raw) && this.flooded(now)) return;
    const parsed = parseWorkerMessage(raw);
    if (!parsed.ok) {
      this.log('warn', `Ignored a malformed message from the worker: ${parsed.reason}.`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'heartbeat':
        this.lastBeatAt = now;
        return;
      case 'ready':
        // Its event loop just ran: from here on the short unresponsive limit applies, not the startup one.
        this.lastBeatAt = now;
        if (this.stateValue === 'starting') {
          this.stateValue = 'running';
          this.callbacks.onReady?.();
        }
        return;
      case 'register_tool':
        if (this.stateValue === 'starting' || this.stateValue === 'running') this.callbacks.onRegisterTool?.(message.tool);
        return;
      case 'unregister_tool':
        this.callbacks.onUnregisterTool?.(message.name);
        return;
      case 'log':
        this.callbacks.onLog?.(message.level, 'worker', message.message);
        return;
      case 'tool_invocation_result':
        this.onResult(message);
        return;
      case 'generate_request':
        if (this.stateValue !== 'starting' && this.stateValue !== 'running') return;
        if (this.callbacks.onGenerateRequest) this.callbacks.onGenerateRequest(message);
        else this.sendGenerateResult(message.requestId, { ok: false, error: hostError('GENERATION_UNAVAILABLE', 'This host runs no generations for extensions.') });
        return;
      case 'generate_cancel':
        this.callbacks.onGenerateCancel?.(message.requestId);
        return;
    }
  }

  private isAwaitedResult(raw: unknown): boolean {
    const m = raw as { type?: unknown; requestId?: unknown } | null;
    return typeof m === 'object' && m !== null && m.type === 'tool_invocation_result' && typeof m.requestId === 'string' && this.pending.has(m.requestId);
  }

  /** Sliding one-second window: the message `max` places back must be older than a second. */
  private flooded(now: number): boolean {
    const oldest = this.recentArrivals[this.arrivalIndex]!;
    this.recentArrivals[this.arrivalIndex] = now;
    this.arrivalIndex = (this.arrivalIndex + 1) % this.recentArrivals.length;
    if (now - oldest >= 1000) return false;
    this.log('error', `Stopped: the extension sent more than ${this.timings.maxMessagesPerSecond} messages within one second.`);
    this.kill('flood');
    return true;
  }

  private tick(): void {
    if (this.stateValue !== 'starting' && this.stateValue !== 'running') return;
    const now = this.clock.now();
    const limit =
      this.lastBeatAt === null ? this.startedAt + this.timings.startupTimeoutMs : this.lastBeatAt + this.timings.unresponsiveAfterMs;
    if (now > limit) {
      const waited = now - (this.lastBeatAt ?? this.startedAt);
      this.log('error', `Not responding: no heartbeat for ${waited} ms (its event loop is blocked). The worker was killed.`);
      this.kill('unresponsive');
      return;
    }
    this.send({ type: 'ping', seq: ++this.pingSeq });
  }

  /** Kills the process now; pending calls end at once with the matching error. */
  private kill(reason: WorkerExitReason): void {
    if (this.killReason || this.stateValue === 'exited') return;
    this.killReason = reason;
    this.outbox.clear();
    if (reason !== 'killed') this.rejectInFlight(this.exitError(reason, null, null), reason === 'unresponsive' ? 'timeout' : 'shutdown');
    this.handle?.kill();
  }

  private exitError(reason: WorkerExitReason, exitCode: number | null, signal: string | null): WorkerExitError {
    const details = { reason, exitCode, signal };
    if (reason === 'unresponsive') {
      return {
        code: 'WORKER_UNRESPONSIVE',
        message: `Extension "${this.id}" stopped responding and was restarted.`,
        hint: 'A tool handler blocked the event loop (a long synchronous loop).',
        details,
      };
    }
    const how = reason === 'flood' ? 'flooded the host with messages' : `stopped (${reason}${exitCode !== null ? `, exit code ${exitCode}` : ''}${signal ? `, ${signal}` : ''})`;
    return { code: 'WORKER_CRASHED', message: `Extension "${this.id}" ${how} while running this tool.`, details };
  }

  private onProcessExit(code: number | null, signal: string | null): void {
    if (this.exitInfo) return;
    const expected = this.stopError !== null;
    const reason: WorkerExitReason =
      this.killReason ?? (code === null && signal === null ? 'launch-failed' : signal ? 'crashed' : code === 0 ? 'clean-exit' : 'abnormal-exit');
    this.stateValue = 'exited';
    this.outbox.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.rejectInFlight(expected && this.stopError ? this.stopError : this.exitError(reason, code, signal), 'shutdown');
    this.disarmDeadline();
    if (!expected) {
      this.log('error', `The worker exited (${reason}${code !== null ? `, exit code ${code}` : ''}${signal ? `, signal ${signal}` : ''}).`);
    }
    this.finishExit({ reason, exitCode: code, signal, expected });
  }

  private finishExit(exit: WorkerExit): void {
    this.exitInfo = exit;
    this.callbacks.onExit?.(exit);
    this.resolveExited(exit);
  }

  /** Queues the message for this tick's write; false when the worker cannot be reached at all. */
  private send(message: HostToWorkerMessage, measure?: (message: HostToWorkerMessage) => number): boolean {
    if (!this.handle || this.stateValue === 'exited' || this.killReason) return false;
    this.outbox.push(message, measure);
    return true;
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
