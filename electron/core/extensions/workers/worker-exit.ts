// How a worker ended, the error its calls get, and the line that says why it crashed.
import type { HostError } from '../../../../shared/errors';
import { DEFAULT_WORKER_MEMORY_MB } from '../../../../shared/settings';

export type WorkerExitReason =
  | 'clean-exit'
  | 'abnormal-exit'
  | 'crashed'
  | 'killed'
  | 'unresponsive'
  | 'flood'
  | 'protocol'
  | 'memory'
  | 'launch-failed';

export interface WorkerExit {
  reason: WorkerExitReason;
  exitCode: number | null;
  signal: string | null;
  /** Stopped on purpose (stop, disable, restart, shutdown): not a crash. */
  expected: boolean;
  /** The first line of the error it died of (`TypeError: …`), when it said. */
  crashLine?: string;
  /** What broke the protocol or the memory cap. */
  detail?: string;
}

/** WORKER_CRASHED / WORKER_UNRESPONSIVE / WORKER_PROTOCOL / WORKER_MEMORY carry how the process ended. */
export interface WorkerExitError extends HostError {
  details: { reason: WorkerExitReason; exitCode: number | null; signal: string | null };
}

const ERROR_LINE = /^(?:Uncaught )?([A-Z][A-Za-z]*Error|Error|DOMException)(?:\s*\[[A-Z_]+\])?(?::|$)/;

/** The first `SomethingError: message` line among what the worker last wrote. */
export function crashLine(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const trimmed = line.trim();
    if (ERROR_LINE.test(trimmed)) return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
  }
  return undefined;
}

export function exitError(
  id: string,
  how: { reason: WorkerExitReason; exitCode: number | null; signal: string | null; detail: string | null; crashLine: string | undefined },
): WorkerExitError {
  const details = { reason: how.reason, exitCode: how.exitCode, signal: how.signal };
  switch (how.reason) {
    case 'unresponsive':
      return {
        code: 'WORKER_UNRESPONSIVE',
        message: `Extension "${id}" stopped responding and was restarted.`,
        hint: 'A tool handler blocked the event loop (a long synchronous loop).',
        details,
      };
    case 'protocol':
      return { code: 'WORKER_PROTOCOL', message: `Extension "${id}" broke the worker protocol (${how.detail ?? 'bad message'}) and was stopped.`, details };
    case 'memory':
      return { code: 'WORKER_MEMORY', message: `Extension "${id}" used too much memory (${how.detail ?? 'over its cap'}) and was stopped.`, hint: `If it needs more, set extensionWorkers.memoryMb (in MB; default ${DEFAULT_WORKER_MEMORY_MB}) in settings.json in the data folder, then start the app again.`, details };
    case 'flood':
      return { code: 'WORKER_CRASHED', message: `Extension "${id}" flooded the host with messages while running this tool.`, details };
    default: {
      const code = how.exitCode !== null ? `, exit code ${how.exitCode}` : '';
      const signal = how.signal ? `, ${how.signal}` : '';
      const why = how.crashLine ? `: ${how.crashLine}` : '';
      return { code: 'WORKER_CRASHED', message: `Extension "${id}" stopped (${how.reason}${code}${signal}) while running this tool${why}.`, details };
    }
  }
}
