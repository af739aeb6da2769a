// Restart policy after a worker dies: backoff while fewer than 3 crashes fall in 5 minutes, then failed (VS Code's rule).
import type { Clock } from '../../ports';

export interface CrashTrackerOptions {
  clock: Clock;
  /** Crashes within the window that mark the extension failed. */
  limit?: number;
  windowMs?: number;
  /** Delay before the first restart; doubles with each crash still in the window. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export type CrashDecision = { action: 'restart'; delayMs: number; crashesInWindow: number } | { action: 'fail'; crashesInWindow: number };

export const CRASH_LIMIT = 3;
export const CRASH_WINDOW_MS = 5 * 60_000;

export class CrashTracker {
  private crashes: number[] = [];
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(private readonly options: CrashTrackerOptions) {
    this.limit = options.limit ?? CRASH_LIMIT;
    this.windowMs = options.windowMs ?? CRASH_WINDOW_MS;
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
  }

  /** Records a crash now and says what to do about it. */
  recordCrash(): CrashDecision {
    const now = this.options.clock.now();
    this.crashes = this.crashes.filter((at) => now - at < this.windowMs);
    this.crashes.push(now);
    const crashesInWindow = this.crashes.length;
    if (crashesInWindow >= this.limit) return { action: 'fail', crashesInWindow };
    const delayMs = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (crashesInWindow - 1));
    return { action: 'restart', delayMs, crashesInWindow };
  }

  /** Crashes still inside the window. */
  recentCrashes(): number {
    const now = this.options.clock.now();
    return this.crashes.filter((at) => now - at < this.windowMs).length;
  }

  /** A manual restart starts with a clean budget. */
  reset(): void {
    this.crashes = [];
  }
}
