// Waits (bounded) until a condition holds, re-checking it whenever something announces a change.
import { systemTimers, type Timers } from '../ports';

/** Resolves true once `holds()` is true, or false after `timeoutMs` on `timers`; `onChange` subscribes and returns the unsubscribe. */
export function waitUntil(holds: () => boolean, onChange: (listener: () => void) => () => void, timeoutMs: number, timers: Timers = systemTimers): Promise<boolean> {
  if (holds()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (result: boolean) => {
      timers.clearTimeout(timer);
      unsubscribe();
      resolve(result);
    };
    const timer = timers.setTimeout(() => finish(holds()), timeoutMs);
    const unsubscribe = onChange(() => {
      if (holds()) finish(true);
    });
  });
}
