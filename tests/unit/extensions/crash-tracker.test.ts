// The restart policy, on a fake clock: backoff while fewer than 3 crashes fall in 5 minutes, then failed.
import { describe, expect, it } from 'vitest';
import { CrashTracker } from '../../../electron/core/extensions/workers/crash-tracker';

function fakeClock(start = 1_000_000) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

const MINUTE = 60_000;

describe('CrashTracker', () => {
  it('restarts with doubling delays, then fails on the third crash within 5 minutes', () => {
    const clock = fakeClock();
    const tracker = new CrashTracker({ clock, baseDelayMs: 1000 });
    expect(tracker.recordCrash()).toEqual({ action: 'restart', delayMs: 1000, crashesInWindow: 1 });
    clock.t += MINUTE;
    expect(tracker.recordCrash()).toEqual({ action: 'restart', delayMs: 2000, crashesInWindow: 2 });
    clock.t += 3 * MINUTE;
    expect(tracker.recordCrash()).toEqual({ action: 'fail', crashesInWindow: 3 });
    expect(tracker.recentCrashes()).toBe(3);
  });

  it('forgets crashes older than the window, so spread-out crashes keep restarting', () => {
    const clock = fakeClock();
    const tracker = new CrashTracker({ clock });
    for (let i = 0; i < 10; i++) {
      expect(tracker.recordCrash().action).toBe('restart');
      clock.t += 3 * MINUTE;
    }
    // Exactly at the window's edge the oldest crash no longer counts.
    const edge = new CrashTracker({ clock });
    edge.recordCrash();
    clock.t += 2.5 * MINUTE;
    edge.recordCrash();
    clock.t += 2.5 * MINUTE;
    expect(edge.recordCrash()).toEqual({ action: 'restart', delayMs: 2000, crashesInWindow: 2 });
  });

  it('a manual reset gives a fresh budget', () => {
    const clock = fakeClock();
    const tracker = new CrashTracker({ clock });
    tracker.recordCrash();
    tracker.recordCrash();
    expect(tracker.recordCrash().action).toBe('fail');
    tracker.reset();
    expect(tracker.recentCrashes()).toBe(0);
    expect(tracker.recordCrash()).toEqual({ action: 'restart', delayMs: 1000, crashesInWindow: 1 });
  });

  it('caps the delay and honours a custom limit', () => {
    const clock = fakeClock();
    const tracker = new CrashTracker({ clock, limit: 10, baseDelayMs: 1000, maxDelayMs: 5000 });
    const delays = Array.from({ length: 9 }, () => {
      const decision = tracker.recordCrash();
      return decision.action === 'restart' ? decision.delayMs : -1;
    });
    expect(delays).toEqual([1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(tracker.recordCrash().action).toBe('fail');
  });
});
