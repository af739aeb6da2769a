// What differs between Electron and plain Node comes in through these ports.

export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export interface Clock {
  now(): number;
}

/** Timers, injected beside the Clock so tests drive both from one fake source of time. */
export interface Timers {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(callback: () => void, everyMs: number): unknown;
  clearInterval(handle: unknown): void;
  /** Whether a pending timer keeps the process alive (Node's ref/unref); a timer starts referenced. */
  setRef?(handle: unknown, ref: boolean): void;
}

/** A JSON file backend: electron-store in the desktop app, conf in Node. Same file format. */
export interface SettingsBackend {
  /** Reads the whole document (already parsed). */
  read(): Record<string, unknown>;
  /** Replaces the whole document atomically. */
  write(doc: Record<string, unknown>): void;
  readonly path: string;
}

export type SettingsBackendFactory = (options: { dataDir: string; name: string }) => SettingsBackend;

export const systemClock: Clock = { now: () => Date.now() };

/** Node's timers fire at once (with a warning) for delays above 2^31-1 ms; clamp instead. */
const MAX_DELAY = 2 ** 31 - 1;
const clampDelay = (ms: number) => Math.min(Math.max(0, ms), MAX_DELAY);

export const systemTimers: Timers = {
  setTimeout: (callback, delayMs) => setTimeout(callback, clampDelay(delayMs)),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (callback, everyMs) => setInterval(callback, clampDelay(everyMs)),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  setRef: (handle, ref) => {
    const timer = handle as ReturnType<typeof setTimeout>;
    if (ref) timer.ref();
    else timer.unref();
  },
};

/**
 * AbortSignal.timeout on the Timers port (fake time drives it in tests): aborts with a TimeoutError
 * DOMException after `ms`. Call `clear` once the work is done, so the timer does not outlive it.
 */
export function timeoutSignal(timers: Timers, ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = timers.setTimeout(() => controller.abort(new DOMException(`No answer within ${ms} ms.`, 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => timers.clearTimeout(timer) };
}

export const consoleLogger: Logger = {
  info: (m, ...d) => console.log(`[info] ${m}`, ...d),
  warn: (m, ...d) => console.warn(`[warn] ${m}`, ...d),
  error: (m, ...d) => console.error(`[error] ${m}`, ...d),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
