// The calls in flight to one worker: each with its deadline timer and its caller's AbortSignal, settled exactly once.
import type { HostError } from '../../../shared/errors';
import { MAX_RESULT_BYTES, measureResult, REQUEST_ID_PATTERN, type CancelReason, type HostToWorkerMessage, type ToolInvocationResultMessage } from '../../../shared/protocol';
import type { ToolInvocationPayloadDTO } from '../../../shared/types/spindle';
import type { Clock } from '../ports';
import type { Timers } from '../registry/timers';
import type { ExecuteRequest, ExecuteResult } from '../registry-port';
import type { SendOutcome } from './launcher';

interface PendingCall {
  toolName: string;
  resolve(result: ExecuteResult): void;
  timer: unknown;
  signal: AbortSignal;
  onAbort: () => void;
}

export interface CallTableOptions {
  extensionId: string;
  clock: Clock;
  timers: Timers;
  maxInFlight: number;
  send(message: HostToWorkerMessage): SendOutcome;
  log(level: 'warn', text: string): void;
}

/** Host-supplied identity travels in the envelope only, never in args an extension could spoof. */
const IDENTITY_ARGS = ['__userId', '__user_id', 'userId'];
/** Request ids remembered after their call ended, to tell a late answer from a foreign one. */
const RECENTLY_ENDED_CAP = 1000;

export function hostError(code: HostError['code'], message: string, hint?: string): HostError {
  return hint ? { code, message, hint } : { code, message };
}

export class CallTable {
  private readonly pending = new Map<string, PendingCall>();
  /** Request id → why it ended, oldest first, at most RECENTLY_ENDED_CAP. */
  private readonly ended = new Map<string, string>();

  constructor(private readonly options: CallTableOptions) {}

  get size(): number {
    return this.pending.size;
  }

  isAwaited(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  /** Sends one call and resolves with its answer, its deadline, its cancellation or the worker's end. */
  start(type: 'tool_invocation' | 'tool_simulation', request: ExecuteRequest): Promise<ExecuteResult> {
    const refusal = this.refusal(request);
    if (refusal) return Promise.resolve({ ok: false, error: refusal });
    const { requestId, signal } = request;
    const payload: ToolInvocationPayloadDTO = { toolName: request.toolName, args: withoutIdentity(request.args), requestId };
    if (request.councilMember) payload.councilMember = request.councilMember;
    if (request.contextMessages) payload.contextMessages = request.contextMessages;
    const sent = this.options.send({ type, payload });
    if (sent === 'oversized') {
      return Promise.resolve({ ok: false, error: hostError('INPUT_TOO_LARGE', `The call to ${request.toolName} is too large to send to extension "${this.options.extensionId}".`, 'Send smaller arguments or a shorter chat context.') });
    }
    if (sent === 'closed') return Promise.resolve({ ok: false, error: hostError('WORKER_CRASHED', `Extension "${this.options.extensionId}" cannot be reached.`) });
    return new Promise<ExecuteResult>((resolve) => {
      const onAbort = () => this.settle(requestId, { ok: false, error: hostError('CANCELLED', 'The tool call was cancelled.') }, 'cancelled');
      const delay = request.deadline - this.options.clock.now();
      const timer = this.options.timers.setTimeout(() => this.expire(requestId), delay);
      this.pending.set(requestId, { toolName: request.toolName, resolve, timer, signal, onAbort });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Ends one call; `cancel` tells the worker to abort the handler's signal. */
  settle(requestId: string, result: ExecuteResult, cancel?: CancelReason): void {
    const call = this.pending.get(requestId);
    if (!call) return;
    this.pending.delete(requestId);
    this.options.timers.clearTimeout(call.timer);
    call.signal.removeEventListener('abort', call.onAbort);
    this.ended.set(requestId, result.ok ? 'answered' : result.error.code);
    if (this.ended.size > RECENTLY_ENDED_CAP) this.ended.delete(this.ended.keys().next().value!);
    if (cancel) this.options.send({ type: 'cancel', requestId, reason: cancel });
    call.resolve(result);
  }

  /** Ends every call with `error`. */
  settleAll(error: HostError, cancel?: CancelReason): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, { ok: false, error }, cancel);
  }

  /** The worker's answer: checked again here, since extension code can write past the runtime's checks. */
  answer(message: ToolInvocationResultMessage): void {
    const call = this.pending.get(message.requestId);
    if (!call) {
      const ended = this.ended.get(message.requestId);
      this.options.log(
        'warn',
        ended
          ? `Late result for request ${message.requestId} dropped: the call had already ended (${ended}).`
          : `Result for unknown request ${message.requestId} dropped.`,
      );
      return;
    }
    if (!message.ok) return this.settle(message.requestId, { ok: false, error: message.error });
    const measured = measureResult(message.value);
    if (!measured.ok || measured.bytes > MAX_RESULT_BYTES) {
      const error = !measured.ok
        ? hostError('INVALID_RESULT', `${call.toolName} returned a value that is not JSON.`)
        : hostError('RESULT_TOO_LARGE', `${call.toolName} returned ${measured.bytes} bytes; the limit is ${MAX_RESULT_BYTES}.`, 'Return a summary or a smaller page of results.');
      this.options.log('warn', `${error.message} (request ${message.requestId})`);
      return this.settle(message.requestId, { ok: false, error });
    }
    this.settle(message.requestId, { ok: true, value: message.value });
  }

  private expire(requestId: string): void {
    const call = this.pending.get(requestId);
    if (!call) return;
    const error = hostError(
      'TOOL_TIMEOUT',
      `${call.toolName} (extension "${this.options.extensionId}") did not answer within its deadline.`,
      'The extension may be slow or stuck; a later answer is discarded.',
    );
    this.settle(requestId, { ok: false, error }, 'timeout');
  }

  private refusal(request: ExecuteRequest): HostError | null {
    const { extensionId, maxInFlight } = this.options;
    if (request.signal.aborted) return hostError('CANCELLED', 'The tool call was cancelled before it started.');
    if (request.deadline <= this.options.clock.now()) return hostError('TOOL_TIMEOUT', 'The tool call reached its deadline before it started.');
    if (!REQUEST_ID_PATTERN.test(request.requestId)) return hostError('INVALID_INPUT', 'A request id is 1–128 printable ASCII characters without spaces.');
    if (this.pending.has(request.requestId)) return hostError('CONFLICT', `A call with request id ${request.requestId} is already running.`);
    if (this.pending.size >= maxInFlight) {
      return hostError('TOOL_UNAVAILABLE', `Extension "${extensionId}" already has ${this.pending.size} calls running.`, 'Try again when some have finished.');
    }
    return null;
  }
}

function withoutIdentity(args: Record<string, unknown>): Record<string, unknown> {
  if (!IDENTITY_ARGS.some((key) => key in args)) return args;
  const copy = { ...args };
  for (const key of IDENTITY_ARGS) delete copy[key];
  return copy;
}
