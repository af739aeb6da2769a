// How a worker process ended, and the error its calls and its extension's status carry for it.
import type { HostError } from '../../../shared/errors';

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
  /** Why the host killed it, for people (protocol violation, memory over the cap). */
  detail?: string;
}

/** WORKER_CRASHED, WORKER_UNRESPONSIVE, WORKER_PROTOCOL and WORKER_MEMORY carry how the process ended. */
export interface WorkerExitError extends HostError {
  details: { reason: WorkerExitReason; exitCode: number | null; signal: string | null };
}

/** Reasons the host kills a worker for, with their codes; any other end is WORKER_CRASHED. */
const KILLED_FOR: Partial<Record<WorkerExitReason, { code: string; what: string; hint: string }>> = {
  unresponsive: {
    code: 'WORKER_UNRESPONSIVE',
    what: 'stopped responding and was killed',
    hint: 'A tool handler blocked the event loop (a long synchronous loop).',
  },
  protocol: {
    code: 'WORKER_PROTOCOL',
    what: 'broke the worker protocol and was killed',
    hint: 'Extension code wrote to the host channel directly; only the spindle API may.',
  },
  memory: {
    code: 'WORKER_MEMORY',
    what: 'used more memory than allowed and was killed',
    hint: 'Raise extensionWorkers.memoryLimitMb in the settings if the extension really needs it.',
  },
  flood: {
    code: 'WORKER_CRASHED',
    what: 'flooded the host with messages and was killed',
    hint: 'An extension may send at most a few thousand messages a second.',
  },
};

/** The error for a worker that ended without being asked to: its calls end with it, its status shows it. */
export function workerExitError(extensionId: string, exit: Omit<WorkerExit, 'expected'>): WorkerExitError {
  const { reason, exitCode, signal } = exit;
  const details = { reason, exitCode, signal };
  const killed = KILLED_FOR[reason];
  if (killed) {
    const message = `Extension "${extensionId}" ${killed.what}${exit.detail ? `: ${exit.detail}` : ''}.`;
    return { code: killed.code, message, hint: killed.hint, details };
  }
  const how = `${reason}${exitCode !== null ? `, exit code ${exitCode}` : ''}${signal ? `, ${signal}` : ''}`;
  return { code: 'WORKER_CRASHED', message: `Extension "${extensionId}" stopped (${how}).`, details };
}

/** How a process end reads when nobody asked for it. */
export function exitReasonOf(code: number | null, signal: string | null): WorkerExitReason {
  if (code === null && signal === null) return 'launch-failed';
  if (signal) return 'crashed';
  return code === 0 ? 'clean-exit' : 'abnormal-exit';
}
