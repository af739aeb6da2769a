// spindle.log and the console: every line goes to the host's log for this extension, clipped.
const { formatWithOptions } = process.getBuiltinModule('node:util');
import { MAX_LOG_MESSAGE_CHARS, type LogLevel, type WorkerToHostMessage } from '../../../shared/protocol';

export function formatLogArgs(args: unknown[]): string {
  const text = formatWithOptions({ colors: false, depth: 4 }, ...args);
  return text.length > MAX_LOG_MESSAGE_CHARS ? `${text.slice(0, MAX_LOG_MESSAGE_CHARS)}…` : text;
}

export interface SpindleLog {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export function createLog(send: (message: WorkerToHostMessage) => void): SpindleLog {
  const line = (level: LogLevel) => (...args: unknown[]) => send({ type: 'log', level, message: formatLogArgs(args) });
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** console.* in extension code lands in the same log. */
export function routeConsole(log: SpindleLog): void {
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  const levels: Record<string, keyof SpindleLog> = { log: 'info', info: 'info', debug: 'debug', trace: 'debug', warn: 'warn', error: 'error' };
  for (const [method, level] of Object.entries(levels)) target[method] = (...args: unknown[]) => log[level](...args);
}
