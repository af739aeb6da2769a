// One tool call in flight (its abort controller and backstop timer), and request ids.
import { randomUUID } from 'node:crypto';
import type { HostError } from '../../../shared/errors';
import type { ToolOutcome } from '../../../shared/types/tools';
import type { InvokeOptions } from './registry-types';

/** One invocation in flight: its one AbortController (the executor's signal) and its one backstop timer. */
export class Invocation {
  settled = false;
  readonly controller = new AbortController();
  /** The backstop timer: the executor owns the deadline, this stops waiting shortly after it. */
  timer: unknown = null;
  /** Handed to its executor (it had a turn); until then `withdraw` takes it out of the queue. */
  started = false;
  withdraw: () => void = () => undefined;
  readonly timeoutMs: number;
  /** The caller's signal, listened to with this object (handleEvent). */
  readonly callerSignal: AbortSignal | undefined;

  constructor(
    readonly q: string,
    readonly start: number,
    opts: InvokeOptions,
    readonly resolve: (outcome: ToolOutcome) => void,
    private readonly abortWith: (call: Invocation, error: HostError) => void,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.callerSignal = opts.signal;
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.abortWith(this, { code: 'CANCELLED', message: `Call to "${this.q}" was cancelled` });
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
