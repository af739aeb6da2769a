// What differs between Electron and plain Node comes in through these ports.

export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

export interface Clock {
  now(): number;
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

export const consoleLogger: Logger = {
  info: (m, ...d) => console.log(`[info] ${m}`, ...d),
  warn: (m, ...d) => console.warn(`[warn] ${m}`, ...d),
  error: (m, ...d) => console.error(`[error] ${m}`, ...d),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
