// The timer port the registry's deadline backstop uses; tests pass a fake driven by their fake clock.
//
// ports.ts has Clock (now) but no timers; a deadline needs both, from the same source of time.

export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Whether a pending timer keeps the process alive (Node's ref/unref); a timer starts referenced. */
  setRef?(handle: unknown, ref: boolean): void;
}

/** Node's setTimeout fires at once (with a warning) for delays above 2^31-1 ms; clamp instead. */
const MAX_DELAY = 2 ** 31 - 1;

export const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.min(Math.max(0, delayMs), MAX_DELAY)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setRef: (handle, ref) => {
    const timer = handle as ReturnType<typeof setTimeout>;
    if (ref) timer.ref();
    else timer.unref();
  },
};
