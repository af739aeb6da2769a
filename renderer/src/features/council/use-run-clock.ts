// The elapsed time of a running run, ticking once per animation frame while it runs (so running bars grow smoothly).
import { useEffect, useState } from 'react';

export type NowFn = () => number;

/**
 * ms since `startedAt` (epoch ms, the host's clock: same machine), capped at `capMs`; updated every
 * frame while `running`, then frozen. Falls back to a 50 ms timer where there are no animation frames.
 */
export function useRunClock(running: boolean, startedAt: number, capMs: number, now: NowFn = Date.now): number {
  const read = () => Math.min(capMs, Math.max(0, now() - startedAt));
  const [elapsed, setElapsed] = useState(read);
  useEffect(() => {
    if (!running) return;
    let cancelled = false;
    let handle: number | ReturnType<typeof setTimeout> = 0;
    const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : null;
    let last = -Infinity;
    const tick = () => {
      if (cancelled) return;
      const t = now();
      // At most ~60 updates a second, whatever rate the frames come at (test DOMs fire them back to back).
      if (t - last >= 15) {
        last = t;
        setElapsed(Math.min(capMs, Math.max(0, t - startedAt)));
      }
      handle = raf ? raf(tick) : setTimeout(tick, 50);
    };
    tick();
    return () => {
      cancelled = true;
      if (raf && typeof handle === 'number') cancelAnimationFrame(handle);
      else clearTimeout(handle as ReturnType<typeof setTimeout>);
    };
  }, [running, startedAt, capMs, now]);
  return elapsed;
}
