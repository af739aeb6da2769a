// Is the worker alive? Heartbeats judged against the host's own event-loop lag, and the one-second flood window.
//
// The host pings every interval; a blocked worker cannot answer. When the host itself was blocked
// (a long synchronous task), its timer fires late and the worker's answers are still unread in the
// pipe: that lateness is added to the worker's allowance, so a busy host never kills a healthy worker.
import {
  HEARTBEAT_INTERVAL_MS,
  MAX_IN_FLIGHT_PER_WORKER,
  MAX_WORKER_MESSAGES_PER_SECOND,
  SHUTDOWN_GRACE_MS,
  STARTUP_TIMEOUT_MS,
  UNRESPONSIVE_AFTER_MS,
} from '../../../../shared/protocol';
import type { Clock, Timers } from '../../ports';

/** The limits one worker runs under (liveness, shutdown, floods, calls in flight, memory). */
export interface WorkerHostTimings {
  heartbeatIntervalMs: number;
  unresponsiveAfterMs: number;
  startupTimeoutMs: number;
  shutdownGraceMs: number;
  maxMessagesPerSecond: number;
  maxInFlight: number;
  /** Resident memory past which the worker is killed with WORKER_MEMORY; 0 for none. */
  memoryCapBytes: number;
}

export const DEFAULT_WORKER_TIMINGS: WorkerHostTimings = {
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  unresponsiveAfterMs: UNRESPONSIVE_AFTER_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  shutdownGraceMs: SHUTDOWN_GRACE_MS,
  maxMessagesPerSecond: MAX_WORKER_MESSAGES_PER_SECOND,
  maxInFlight: MAX_IN_FLIGHT_PER_WORKER,
  memoryCapBytes: 1024 * 1024 * 1024,
};


export interface LivenessTimings {
  heartbeatIntervalMs: number;
  unresponsiveAfterMs: number;
  startupTimeoutMs: number;
  maxMessagesPerSecond: number;
}

export interface LivenessHooks {
  ping(seq: number): void;
  /** No heartbeat within the allowance: `silentMs` since the last one (or the start). */
  unresponsive(silentMs: number): void;
  /** Runs on every tick the worker is judged alive (memory sampling). */
  tick?(): void;
}

export class WorkerLiveness {
  private interval: unknown = null;
  private startedAt = 0;
  private lastBeatAt: number | null = null;
  private lastTickAt = 0;
  /** How late the host's own ticks ran since the last heartbeat. */
  private hostLagMs = 0;
  private pingSeq = 0;
  /** Round trips waited on (caughtUp), by the ping's number. */
  private readonly waiting = new Map<number, () => void>();
  /** Arrival times of the last `maxMessagesPerSecond` messages (a ring). */
  private readonly arrivals: Float64Array;
  private arrivalIndex = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly timings: LivenessTimings,
    private readonly hooks: LivenessHooks,
  ) {
    this.arrivals = new Float64Array(Math.max(1, timings.maxMessagesPerSecond)).fill(-Infinity);
  }

  start(): void {
    this.startedAt = this.lastTickAt = this.clock.now();
    this.interval = this.timers.setInterval(() => this.tick(), this.timings.heartbeatIntervalMs);
  }

  stop(): void {
    if (this.interval !== null) this.timers.clearInterval(this.interval);
    this.interval = null;
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  /** A heartbeat (or `ready`): the worker's event loop just ran; its number answers that ping and every one before. */
  beat(seq?: number): void {
    this.lastBeatAt = this.clock.now();
    this.hostLagMs = 0;
    if (seq === undefined) return;
    for (const [asked, resolve] of this.waiting) {
      if (asked > seq) continue;
      resolve();
      this.waiting.delete(asked);
    }
  }

  /**
   * Resolves once the worker answers a ping sent now: it answers in order, so everything it sent before (log lines,
   * answers to what it asked) has arrived. Resolves at stop() too.
   */
  caughtUp(): Promise<void> {
    const seq = ++this.pingSeq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.hooks.ping(seq);
    });
  }

  /** Counts one unsolicited message; true when it is one too many within a second. */
  flooded(): boolean {
    const now = this.clock.now();
    const oldest = this.arrivals[this.arrivalIndex]!;
    this.arrivals[this.arrivalIndex] = now;
    this.arrivalIndex = (this.arrivalIndex + 1) % this.arrivals.length;
    return now - oldest < 1000;
  }

  private tick(): void {
    const now = this.clock.now();
    this.hostLagMs += Math.max(0, now - this.lastTickAt - this.timings.heartbeatIntervalMs);
    this.lastTickAt = now;
    const since = this.lastBeatAt ?? this.startedAt;
    const allowance = (this.lastBeatAt === null ? this.timings.startupTimeoutMs : this.timings.unresponsiveAfterMs) + this.hostLagMs;
    if (now - since > allowance) {
      this.stop();
      this.hooks.unresponsive(now - since);
      return;
    }
    this.hooks.tick?.();
    this.hooks.ping(++this.pingSeq);
  }
}
