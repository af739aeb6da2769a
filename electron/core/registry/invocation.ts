// One tool call in flight: the executor's cancellation and request objects, and request ids.
import { randomUUID } from 'node:crypto';
import type { HostError } from '../../../shared/errors';
import type { HostFailure } from '../../../shared/errors';
import type { CouncilMemberContext, LlmMessageDTO } from '../../../shared/types/spindle';
import type { ToolOutcome } from '../../../shared/types/tools';
import type { Cancellation, ExecuteRequest } from '../registry-port';
import type { InvokeOptions } from './registry-types';

/**
 * One invocation in flight. It is the executor's Cancellation (the AbortSignal is made only if the
 * executor reads `request.signal`) and the listener on the caller's signal.
 */
export class Invocation implements Cancellation {
  settled = false;
  aborted = false;
  readonly backstopAt: number;
  readonly timeoutMs: number;
  /** The caller's signal, listened to with this object (handleEvent). */
  readonly callerSignal: AbortSignal | undefined;
  private controller: AbortController | null = null;
  private reason: HostFailure | null = null;
  private listener: (() => void) | null = null;

  constructor(
    readonly q: string,
    readonly start: number,
    opts: InvokeOptions,
    graceMs: number,
    readonly resolve: (outcome: ToolOutcome) => void,
    private readonly abortWith: (call: Invocation, error: HostError) => void,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.backstopAt = start + opts.timeoutMs + graceMs;
    this.callerSignal = opts.signal;
  }

  /** The executor's AbortSignal, made on first read; already aborted if the call was. */
  executorSignal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  onAbort(listener: (() => void) | null): void {
    this.listener = listener;
  }

  abort(reason: HostFailure): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listener = this.listener;
    this.listener = null;
    listener?.();
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.abortWith(this, { code: 'CANCELLED', message: `Call to "${this.q}" was cancelled` });
  }
}

/** What the executor receives. `signal` is an accessor: the AbortSignal is made on first read. */
export class CallRequest implements ExecuteRequest {
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  readonly requestId: string;
  readonly deadline: number;
  declare readonly councilMember?: CouncilMemberContext;
  declare readonly contextMessages?: LlmMessageDTO[];
  declare readonly mayWrite?: (path: string) => boolean;

  constructor(
    base: Omit<ExecuteRequest, 'signal' | 'cancellation'>,
    readonly cancellation: Invocation,
  ) {
    this.toolName = base.toolName;
    this.args = base.args;
    this.requestId = base.requestId;
    this.deadline = base.deadline;
    if (base.councilMember) this.councilMember = base.councilMember;
    if (base.contextMessages) this.contextMessages = base.contextMessages;
    if (base.mayWrite) this.mayWrite = base.mayWrite;
  }

  get signal(): AbortSignal {
    return this.cancellation.executorSignal();
  }
}

/**
 * Request ids unique within this host: a random UUID once, then a counter in its last 12 hex
 * digits. A UUID per call costs more than a trivial tool call.
 */
export function requestIdCounter(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let seq = 0;
  return () => prefix + (seq++).toString(16).padStart(12, '0');
}
