// The Launcher port (starts one worker process), the handle the host holds, and the worker's environment.
import type { Readable } from 'node:stream';
import type { HostToWorkerMessage, WorkerToHostMessage } from '../../../shared/protocol';
import type { Containment } from './containment';

export interface LaunchOptions {
  /** Extension id; names the process in logs (utilityProcess: serviceName). */
  id: string;
  /** The worker runtime script: electron/worker/runtime.ts from source, or the built out/main/worker.js. */
  entry: string;
  /** The whole environment of the child. Never the parent's; see minimalWorkerEnv. */
  env: Record<string, string>;
  cwd: string;
  /** What the worker may read and write besides the runtime's own files. */
  containment: Containment;
}

/** 'oversized': the message is over the frame limit and was not sent; the worker is unaffected. */
export type SendOutcome = 'sent' | 'closed' | 'oversized';

export interface WorkerHandle {
  readonly pid: number | undefined;
  /** Never throws. */
  send(message: HostToWorkerMessage): SendOutcome;
  /** Checked protocol messages only (see worker-intake.ts). */
  onMessage(listener: (message: WorkerToHostMessage) => void): void;
  /** The worker sent something that is not the protocol; nothing after it is delivered. Fires at most once. */
  onProtocolError(listener: (reason: string) => void): void;
  /** Fires exactly once. Both null: the process never started. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Resident memory in bytes as the OS reports it; null where this door cannot read it. */
  residentBytes(): number | null;
  /**
   * Stops reading, kills the process and, where the door can, everything it started (its process
   * group). Safe to call at any time, also after the exit.
   */
  kill(): void;
}

export interface Launcher {
  launch(options: LaunchOptions): WorkerHandle;
}

/** Variable names a worker must never see, even if a caller passes them. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/**
 * The environment of a worker: nothing inherited, only what the runtime strictly needs.
 * `extra` may add plain settings; anything that looks like a secret is dropped.
 */
export function minimalWorkerEnv(extra: Record<string, string> = {}, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { NODE_ENV: parent.NODE_ENV === 'development' ? 'development' : 'production' };
  // Windows needs SystemRoot for sockets and crypto; it is a path, not a secret.
  if (process.platform === 'win32' && parent.SystemRoot) env.SystemRoot = parent.SystemRoot;
  for (const [name, value] of Object.entries(extra)) env[name] = value;
  return sanitizeEnv(env);
}

export function sanitizeEnv(env: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string' && !SECRET_NAME.test(name)) clean[name] = value;
  }
  return clean;
}

// The Node door and the runtime script, where callers have always found them.
export { NodeLauncher } from './node-launcher';
export { workerRuntimeSource } from './runtime-script';
