// The tool calls one worker has in flight: each with its own deadline timer and abort listener, and a memory of recently ended ids.
import type { HostError } from '../../../../shared/errors';
import type { CancelReason } from '../../../../shared/protocol';
import type { Timers } from '../../ports';
import type { ExecuteResult } from '../../registry-port';

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
  ) {}

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
