// The Launcher port (starts one worker process) and its Node implementation on child_process.fork.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Readable } from 'node:stream';
import type { HostToWorkerWire } from '../../../shared/protocol';

export interface LaunchOptions {
  /** Extension id; names the process in logs (utilityProcess: serviceName). */
  id: string;
  /** The worker runtime script: electron/worker/runtime.ts from source, or the built out/main/worker.js. */
  entry: string;
  /** The whole environment of the child. Never the parent's; see minimalWorkerEnv. */
  env: Record<string, string>;
  cwd: string;
}

export interface WorkerHandle {
  readonly pid: number | undefined;
  /** Never throws: returns false when the message could not be handed over (child gone, channel closed). */
  send(message: HostToWorkerWire): boolean;
  onMessage(listener: (message: unknown) => void): void;
  /** Fires exactly once. Both null: the process never started. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Stops reading messages (after a flood) and kills the process at once. Safe to call twice. */
  kill(): void;
}

export interface Launcher {
  launch(options: LaunchOptions): WorkerHandle;
}

/** Variable names a worker must never see, even if a caller passes them. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION/i;

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

function sanitizeEnv(env: Record<string, string>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string' && !SECRET_NAME.test(name)) clean[name] = value;
  }
  return clean;
}

/** The runtime's source file, for running under tsx (dev, tests, headless from source). */
export function workerRuntimeSource(): string {
  return fileURLToPath(new URL('../../worker/runtime.ts', import.meta.url));
}

function resolveTsxLoader(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(require.resolve('tsx')).href;
}

function nodeMajorMinor(): [number, number] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return [major, minor];
}

export interface NodeLauncherOptions {
  /** Heap cap for each worker, in MB: a leaking extension dies alone (exit → WORKER_CRASHED). */
  maxOldSpaceMb?: number;
}

/** Starts workers with child_process.fork: JSON IPC, piped stdio, explicit env. */
export class NodeLauncher implements Launcher {
  private readonly maxOldSpaceMb: number;
  private tsxLoader: string | undefined;

  constructor(options: NodeLauncherOptions = {}) {
    this.maxOldSpaceMb = options.maxOldSpaceMb ?? 512;
  }

  launch(options: LaunchOptions): WorkerHandle {
    if (!fs.existsSync(options.entry)) throw new Error(`Worker runtime not found: ${options.entry}`);
    const execArgv = [`--max-old-space-size=${this.maxOldSpaceMb}`];
    if (options.entry.endsWith('.ts')) {
      // From source: tsx compiles the runtime; it also tells CommonJS from ESM in extensions' .js files.
      this.tsxLoader ??= resolveTsxLoader();
      execArgv.push('--import', this.tsxLoader);
    } else {
      const [major, minor] = nodeMajorMinor();
      // Node < 22.7 needs the flag to load an ESM .js main that has no package.json "type".
      if (major < 22 || (major === 22 && minor < 7)) execArgv.push('--experimental-detect-module');
    }
    const child = fork(options.entry, [], {
      cwd: options.cwd,
      env: sanitizeEnv(options.env),
      execArgv,
      serialization: 'json',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    return new ForkedWorker(child);
  }
}

function ignoreSendError(): void {}

class ForkedWorker implements WorkerHandle {
  private exited = false;
  private readonly exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private readonly messageListeners: Array<(message: unknown) => void> = [];

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message) => {
      for (const listener of this.messageListeners) listener(message);
    });
    child.on('exit', (code, signal) => this.finish(code, signal));
    // 'error' fires for a failed spawn, a failed kill or a send on a closed channel; without a
    // listener it would crash the host. A failed spawn may never emit 'exit'.
    child.on('error', () => {
      if (child.pid === undefined) this.finish(null, null);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): Readable | null {
    return this.child.stdout;
  }

  get stderr(): Readable | null {
    return this.child.stderr;
  }

  send(message: HostToWorkerWire): boolean {
    if (this.exited || !this.child.connected) return false;
    try {
      // The callback keeps ERR_IPC_CHANNEL_CLOSED (child died between the check and the write) off 'error'.
      this.child.send(message, undefined, {}, ignoreSendError);
      return true;
    } catch {
      return false;
    }
  }

  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }

  kill(): void {
    this.messageListeners.length = 0;
    if (this.child.connected) {
      try {
        this.child.disconnect();
      } catch {
        // already closing
      }
    }
    if (!this.exited) this.child.kill('SIGKILL');
  }

  private finish(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.exitListeners) listener(code, signal);
  }
}
