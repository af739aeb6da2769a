// The calls one worker has in flight: whether a call may start, each call's deadline timer and abort listener, its
// answer checked as it came, and a memory of recently ended ids.
import type { HostError } from '../../../../shared/errors';
import { MAX_RESULT_BYTES, REQUEST_ID_PATTERN, utf8ByteLength, type CancelReason, type LogLevel, type ToolInvocationResultMessage } from '../../../../shared/protocol';
import type { Timers } from '../../ports';
import type { ExecuteResult } from '../../registry-port';

/** A HostError, with its hint when there is one. */
export function hostError(code: HostError['code'], message: string, hint?: string): HostError {
  return hint ? { code, message, hint } : { code, message };
}

/** A pipeline handler's answer: the JSON of its value, parsed here once. */
export function pipelineValue(label: string, json: string): ExecuteResult {
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false, error: hostError('INVALID_RESULT', `${label} returned a value that is not JSON.`) };
  }
}

/** A call refused before it starts, answered as any call is. */
export function refused(error: HostError): Promise<ExecuteResult> {
  return Promise.resolve({ ok: false, error });
}

interface PendingCall {
  toolName: string;
  resolve(result: ExecuteResult): void;
  timer: unknown;
  signal: AbortSignal;
  onAbort: () => void;
}

const RECENTLY_ENDED_CAP = 1000;

export interface CallEnded {
  /** Tells the worker to stop working on a call that ended without its answer. */
  cancel(requestId: string, reason: CancelReason): void;
}

export class WorkerCalls {
  private readonly pending = new Map<string, PendingCall>();
  /**
   * Why the last RECENTLY_ENDED_CAP calls ended, to tell a late result from a foreign one: a ring,
   * written on every call and searched only when a stray result comes.
   */
  private readonly endedIds: string[] = [];
  private readonly endedWhy: string[] = [];
  private endedAt = 0;

  constructor(
    private readonly timers: Timers,
    private readonly worker: CallEnded,
    private readonly timeoutError: (toolName: string) => HostError,
    private readonly log: (level: LogLevel, text: string) => void = () => {},
  ) {}

  /** Why a call cannot start now (`remainingMs` before its deadline), if it cannot; the worker's state is the caller's to check. */
  refusal(requestId: string, remainingMs: number, signal: AbortSignal, maxInFlight: number, extensionId: string): HostError | null {
    if (signal.aborted) return hostError('CANCELLED', 'The tool call was cancelled before it started.');
    if (remainingMs <= 0) return hostError('TOOL_TIMEOUT', 'The tool call reached its deadline before it started.');
    if (!REQUEST_ID_PATTERN.test(requestId)) return hostError('INVALID_INPUT', 'A request id is 1–128 printable ASCII characters without spaces.');
    if (this.pending.has(requestId)) return hostError('DUPLICATE_CALL_ID', `A call with request id ${requestId} is already running.`);
    if (this.pending.size >= maxInFlight) return hostError('TOOL_UNAVAILABLE', `Extension "${extensionId}" already has ${this.pending.size} calls running.`, 'Try again when some have finished.');
    return null;
  }

  /** The worker's answer to a call: settles it, or says why it was dropped (late, or never asked). */
  answer(message: ToolInvocationResultMessage): void {
    const toolName = this.toolName(message.requestId);
    if (toolName === undefined) {
      const ended = this.whyEnded(message.requestId);
      this.log('warn', ended ? `Late result for request ${message.requestId} dropped: the call had already ended (${ended}).` : `Result for unknown request ${message.requestId} dropped.`);
      return;
    }
    if (!message.ok) return this.settle(message.requestId, { ok: false, error: message.error });
    // The runtime refuses big results; extension code can bypass it, so check again (on the text as it came).
    const bytes = utf8ByteLength(message.text);
    if (bytes > MAX_RESULT_BYTES) {
      const error = hostError('RESULT_TOO_LARGE', `${toolName} returned ${bytes} bytes; the limit is ${MAX_RESULT_BYTES}.`, 'Return a summary or a smaller page of results.');
      this.log('warn', `${error.message} (request ${message.requestId})`);
      return this.settle(message.requestId, { ok: false, error });
    }
    this.settle(message.requestId, { ok: true, value: message.text });
  }

  get size(): number {
    return this.pending.size;
  }

  has(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  /** Tracks a call until its answer, its deadline (`delayMs` from now) or its signal, whichever comes first. */
  add(requestId: string, toolName: string, delayMs: number, signal: AbortSignal, resolve: (result: ExecuteResult) => void): void {
    const call: PendingCall = {
      toolName,
      resolve,
      signal,
      timer: this.timers.setTimeout(() => this.settle(requestId, { ok: false, error: this.timeoutError(toolName) }, 'timeout'), delayMs),
      onAbort: () => this.settle(requestId, { ok: false, error: { code: 'CANCELLED', message: 'The tool call was cancelled.' } }, 'cancelled'),
    };
    this.pending.set(requestId, call);
    signal.addEventListener('abort', call.onAbort, { once: true });
  }

  toolName(requestId: string): string | undefined {
    return this.pending.get(requestId)?.toolName;
  }

  /** Ends a call; `cancel` also tells the worker to stop (the call ended without the worker's answer). */
  settle(requestId: string, result: ExecuteResult, cancel?: CancelReason): void {
    const call = this.pending.get(requestId);
    if (!call) return;
    this.pending.delete(requestId);
    this.timers.clearTimeout(call.timer);
    call.signal.removeEventListener('abort', call.onAbort);
    this.endedIds[this.endedAt] = requestId;
    this.endedWhy[this.endedAt] = result.ok ? 'answered' : result.error.code;
    this.endedAt = (this.endedAt + 1) % RECENTLY_ENDED_CAP;
    if (cancel) this.worker.cancel(requestId, cancel);
    call.resolve(result);
  }

  /** Ends every call with `error`. */
  settleAll(error: HostError, cancel?: CancelReason): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId, { ok: false, error }, cancel);
  }

  /** Why a call that is no longer pending ended, if it ended recently. */
  whyEnded(requestId: string): string | undefined {
    const index = this.endedIds.lastIndexOf(requestId);
    return index === -1 ? undefined : this.endedWhy[index];
  }
}
