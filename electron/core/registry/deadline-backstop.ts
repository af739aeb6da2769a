// The registry's backstop for calls in flight: the executor owns each call's deadline, but a call it has not
// settled shortly after it is aborted here. One timer serves every call, armed for the earliest.
import type { HostError } from '../../../shared/errors';
import type { Clock } from '../ports';
import type { Invocation } from './invocation';
import type { Timers } from '../ports';

export class DeadlineBackstop {
  readonly inflight = new Set<Invocation>();
  private timer: unknown = null;
  private at = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly expire: (call: Invocation, error: HostError) => void,
  ) {}

  add(call: Invocation): void {
    this.inflight.add(call);
    if (call.backstopAt < this.at) this.arm(call.backstopAt);
    else if (this.inflight.size === 1 && this.timer !== null) this.timers.setRef?.(this.timer, true);
  }

  remove(call: Invocation): void {
    this.inflight.delete(call);
    // Once nothing is in flight the timer stays armed but no longer keeps the process alive: the
    // next call, whose backstop is later, needs no new timer (a setTimeout/clearTimeout pair per
    // call cost about 0.5 KB of allocation and a timer-list insert). When it fires it finds nothing due.
    if (this.inflight.size === 0) this.idle();
  }

  dispose(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.at = Infinity;
  }

  private arm(at: number): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.at = at;
    this.timer = this.timers.setTimeout(() => this.expireDue(at), Math.max(1, at - this.clock.now()));
  }

  private idle(): void {
    if (this.timer === null) return;
    if (this.timers.setRef) this.timers.setRef(this.timer, false);
    else this.dispose();
  }

  /** The timer armed for `armedFor` fired: that time has come even if the clock lags behind. */
  private expireDue(armedFor: number): void {
    this.timer = null;
    this.at = Infinity;
    const now = Math.max(armedFor, this.clock.now());
    let next = Infinity;
    for (const call of [...this.inflight]) {
      if (call.backstopAt <= now) {
        this.expire(call, {
          code: 'TOOL_TIMEOUT',
          message: `Tool "${call.q}" did not answer within ${call.timeoutMs} ms`,
          hint: 'The tool may be slow or stuck; continue without it or try again later.',
        });
      } else if (call.backstopAt < next) next = call.backstopAt;
    }
    if (next < this.at && this.inflight.size > 0) this.arm(next);
  }
}
