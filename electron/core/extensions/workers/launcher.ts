// The Launcher port (starts one worker process) and its Node implementation: framed pipes, a process group, the permission model.
import { WorkerHandleEvents } from './worker-handle-events';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, type HostToWorkerMessage } from '../../../../shared/protocol';
// Variable names a worker must never see, even if a caller passes them.
import { SECRET_NAME } from '../../../../shared/secret-mask';
import { moduleDetectionFlags, permissionFlags } from './containment';
import { frameReader } from './inbound';
import { networkNamespacePrefix } from './network-namespace';
import { runnableRuntime } from './runtime-script';

export { workerRuntimeSource } from './runtime-script';

export interface LaunchOptions {
  /** Extension id; names the process in logs (utilityProcess: serviceName). */
  id: string;
  /** The worker runtime script: electron/worker/runtime.ts from source, or the built out/main/worker.js. */
  entry: string;
  /** The whole environment of the child. Never the parent's; see minimalWorkerEnv. */
  env: Record<string, string>;
  cwd: string;
  /** Folders the worker may read (the extension's own); the runtime script is added by the launcher. */
  readable: string[];
}

export interface WorkerHandle {
  readonly pid: number | undefined;
  /** Never throws: returns false when the message could not be handed over (child gone, channel closed). */
  send(message: HostToWorkerMessage): boolean;
  onMessage(listener: (message: Record<string, unknown>) => void): void;
  /** The worker broke the channel's rules (not a frame, too large): it is killed, and this fires once. */
  onProtocolError(listener: (detail: string) => void): void;
  /** Fires exactly once. Both null: the process never started. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Resident memory in bytes, or null where it cannot be read. */
  residentBytes(): number | null;
  /** Stops reading messages and kills the process with everything it started. Safe to call twice. */
  kill(): void;
}

export interface Launcher {
  launch(options: LaunchOptions): WorkerHandle;
  /** Said on each extension's card: what confines its workers here. */
  readonly containment: string;
}


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

/** Resident set size from /proc (Linux); null elsewhere or once the process is gone. */
export function procResidentBytes(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface NodeLauncherOptions {
  /** Heap cap for each worker, in MB: a leaking extension dies alone (exit → WORKER_CRASHED). */
  maxOldSpaceMb?: number;
  /** Off only for tests that need an uncontained worker (to check the process-group kill). */
  contain?: boolean;
  /** A network namespace per worker where Linux allows one (default on; see network-namespace.ts). */
  networkNamespace?: boolean;
  /** Private folder (0700) for the runtime bundle built from source; default: a fresh private temp folder. */
  runtimeDir?: string;
}

/**
 * Most frames one write carries. Measured on a council cycle of 100 members × 3 tools (`npm run bench --
 * council`, Node 20): with all of a cycle's frames in one write, each worker sat idle until the host had sent
 * the whole cycle (overhead about 22 ms); 16 per write let the workers start meanwhile (about 15 ms); 8 or
 * 64 did worse than 16, and one write per frame made the sending itself two to three times slower.
 */
const FRAMES_PER_WRITE = 16;
/** A batch this long goes out at once, however few frames it has: a big frame (a chat context) never waits for others. */
export const BATCH_WRITE_CHARS = 1024 * 1024;

/** The fds of the two pipes in the child: host → worker, worker → host. */
const IN_FD = 3;
const OUT_FD = 4;

/** Starts workers as Node child processes: explicit env, own process group, permission model, framed pipes. */
export class NodeLauncher implements Launcher {
  private readonly maxOldSpaceMb: number;
  private readonly contain: boolean;
  private readonly networkNamespace: boolean;
  private readonly runtimeDir: string | undefined;
  readonly containment: string;

  constructor(options: NodeLauncherOptions = {}) {
    this.maxOldSpaceMb = options.maxOldSpaceMb ?? 512;
    this.contain = options.contain ?? true;
    this.networkNamespace = options.networkNamespace ?? true;
    this.runtimeDir = options.runtimeDir;
    this.containment = this.contain
      ? "Node's permission model: reads only its own folder; no writes, child processes, threads or addons; no network"
      : 'not contained (test launcher)';
  }

  launch(options: LaunchOptions): WorkerHandle {
    if (!fs.existsSync(options.entry)) throw new Error(`Worker runtime not found: ${options.entry}`);
    const script = runnableRuntime(options.entry, this.runtimeDir);
    const flags = [`--max-old-space-size=${this.maxOldSpaceMb}`, ...moduleDetectionFlags(), '--disable-warning=ExperimentalWarning'];
    if (this.contain) {
      // The runtime's folder: the built worker.js loads chunks beside it.
      flags.push(...permissionFlags([path.dirname(script), ...options.readable]));
    }
    const [command, ...prefix] = [...((this.contain && this.networkNamespace ? networkNamespacePrefix() : null) ?? []), process.execPath];
    const child = spawn(command!, [...prefix, ...flags, script], {
      cwd: options.cwd,
      env: { ...sanitizeEnv(options.env), COUNCIL_WORKER_FDS: `${IN_FD},${OUT_FD}` },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      // Its own process group, so a kill reaches whatever it started (POSIX).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    return new PipeWorker(child);
  }
}

/** A worker process on the two pipes (exported for its tests). */
export class PipeWorker extends WorkerHandleEvents implements WorkerHandle {
  private exited = false;
  private stopped = false;
  private readonly input: Writable | null;
  /** Frames waiting for the next write, and how many. */
  private batch = '';
  private queued = 0;

  constructor(private readonly child: ChildProcess) {
    super();
    this.input = (child.stdio[IN_FD] as Writable | null | undefined) ?? null;
    const output = (child.stdio[OUT_FD] as Readable | null | undefined) ?? null;
    const reader = frameReader(
      (message) => {
        if (!this.stopped) this.deliver(message);
      },
      (detail) => this.protocolError(detail),
    );
    output?.setEncoding('utf8');
    output?.on('data', (chunk: string) => {
      if (!this.stopped) reader.push(chunk);
    });
    // A pipe error means the child is gone or going; 'exit' reports it.
    output?.on('error', () => undefined);
    this.input?.on('error', () => undefined);
    child.on('exit', (code, signal) => this.finish(code, signal));
    // 'error' fires for a failed spawn or a failed kill; a failed spawn may never emit 'exit'.
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

  send(message: HostToWorkerMessage): boolean {
    const input = this.input;
    if (this.exited || this.stopped || !input || input.destroyed) return false;
    // Frames written in the same tick (a council cycle's calls) leave together: a few system calls, not one
    // each. At most FRAMES_PER_WRITE wait, so the worker starts on the first calls while the host sends the rest.
    if (this.queued === 0) {
      // The tick's last batch, however few frames it has (one that already went out leaves nothing here).
      process.nextTick(() => {
        if (this.queued > 0) this.flush(input);
      });
    }
    this.batch += encodeFrame(message);
    if (++this.queued === FRAMES_PER_WRITE || this.batch.length >= BATCH_WRITE_CHARS) this.flush(input);
    return true;
  }

  private flush(input: Writable): void {
    const batch = this.batch;
    this.queued = 0;
    this.batch = '';
    if (!input.destroyed) input.write(batch);
  }

  residentBytes(): number | null {
    return this.exited ? null : procResidentBytes(this.child.pid);
  }

  kill(): void {
    this.stopped = true;
    this.dropMessages();
    this.input?.destroy();
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      // The whole group: processes the worker started die with it.
      if (process.platform !== 'win32') process.kill(-pid, 'SIGKILL');
      else this.child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }

  private protocolError(detail: string): void {
    if (!this.stopped) this.violated(detail);
  }

  private finish(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exited = true;
    // Whatever the worker started and left behind goes with it.
    if (this.child.pid !== undefined && process.platform !== 'win32') {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // No one left in the group.
      }
    }
    this.exitedWith(code, signal);
  }
}
