// Worker liveness: a ping each interval, and silence measured in time the host itself was awake.
//
// A heartbeat that is old because the worker's event loop is blocked means the worker is stuck. One
// that is old because the host's own event loop was blocked (a long validation, a big JSON parse)
// means nothing: the worker may have answered long ago, unread. So every tick measures how late it
// fired (the host's event-loop lag) and only time the host was awake counts as silence. A host
// blocked for seconds kills no healthy worker; a worker blocked while the host runs is still found.
import type { Clock } from '../ports';
import type { Timers } from '../registry/timers';

export interface HeartbeatOptions {
  clock: Clock;
  timers: Timers;
  intervalMs: number;
  /** Awake time without a beat after which a worker that has beaten before is unresponsive. */
  unresponsiveAfterMs: number;
  /** Awake time a fresh worker gets for its first beat. */
  startupTimeoutMs: number;
  /** Each tick while the worker is not judged silent: send a ping. */
  onTick(): void;
  /** Fires once; the monitor stops. */
  onSilent(silence: { awakeMs: number; hostLagMs: number }): void;
}

export class Heartbeat {
  private timer: unknown = null;
  private lastTickAt = 0;
  private dueAt = 0;
  /** Time the host was awake since the last beat (or the start), as of the last tick. */
  private silentAwakeMs = 0;
  /** Lag the host showed since the last beat: only for the message. */
  private hostLagMs = 0;
  private beaten = false;

  constructor(private readonly options: HeartbeatOptions) {}

  start(): void {
    this.lastTickAt = this.options.clock.now();
    this.schedule();
  }

  /** The worker answered: its event loop runs. */
  beat(): void {
    this.beaten = true;
    this.silentAwakeMs = 0;
    this.hostLagMs = 0;
  }

  stop(): void {
    if (this.timer !== null) this.options.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.dueAt = this.lastTickAt + this.options.intervalMs;
    this.timer = this.options.timers.setTimeout(() => this.tick(), this.options.intervalMs);
  }

  private tick(): void {
    this.timer = null;
    const now = this.options.clock.now();
    // How late this timer fired is how long the host's event loop could not run it.
    const lag = Math.max(0, now - this.dueAt);
    this.silentAwakeMs += Math.max(0, now - this.lastTickAt - lag);
    this.hostLagMs += lag;
    this.lastTickAt = now;
    const limit = this.beaten ? this.options.unresponsiveAfterMs : this.options.startupTimeoutMs;
    if (this.silentAwakeMs > limit) {
      this.options.onSilent({ awakeMs: this.silentAwakeMs, hostLagMs: this.hostLagMs });
      return;
    }
    this.options.onTick();
    this.schedule();
  }
}
