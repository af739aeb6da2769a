// The Node Launcher: each worker a contained `node` process in its own process group, talking frames on fds 3 and 4.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, MAX_FRAME_CHARS, type HostToWorkerMessage, type WorkerToHostMessage } from '../../../shared/protocol';
import { permissionArgs } from './containment';
import { sanitizeEnv, type LaunchOptions, type Launcher, type SendOutcome, type WorkerHandle } from './launcher';
import { procResidentBytes } from './resident-memory';
import { runtimeScript } from './runtime-script';
import { createWorkerIntake, type WorkerIntake } from './worker-intake';

export interface NodeLauncherOptions {
  /** Heap cap for each worker, in MB: a leaking extension dies alone (exit → WORKER_CRASHED). */
  maxOldSpaceMb?: number;
}

const POSIX = process.platform !== 'win32';
/** How long an exited worker's pipes may stay open before its exit is reported anyway. */
const CLOSE_WAIT_MS = 1000;

function nodeMajorMinor(): [number, number] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return [major, minor];
}

/**
 * Starts workers with child_process.spawn: stdio 0 ignored, 1/2 piped for logs, 3 host → worker and
 * 4 worker → host (ours, not Node's IPC channel), an explicit environment, Node's permission model,
 * and on POSIX a process group of its own so that everything it starts can be killed with it.
 */
export class NodeLauncher implements Launcher {
  private readonly maxOldSpaceMb: number;

  constructor(options: NodeLauncherOptions = {}) {
    this.maxOldSpaceMb = options.maxOldSpaceMb ?? 512;
  }

  launch(options: LaunchOptions): WorkerHandle {
    const script = runtimeScript(options.entry);
    const containment = { ...options.containment, read: [...options.containment.read, ...script.files] };
    const execArgv = [`--max-old-space-size=${this.maxOldSpaceMb}`, '--disable-warning=ExperimentalWarning', ...permissionArgs(containment)];
    const [major, minor] = nodeMajorMinor();
    // Node < 22.7 needs the flag to load an ESM .js main that has no package.json "type".
    if (major < 22 || (major === 22 && minor < 7)) execArgv.push('--experimental-detect-module');
    const child = spawn(process.execPath, [...execArgv, script.file], {
      cwd: options.cwd,
      env: sanitizeEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      detached: POSIX,
      windowsHide: true,
    });
    return new PipeWorker(child);
  }
}

function ignore(): void {}

/** A spawned worker as a WorkerHandle (exported for the door tests, which give it a stand-in ChildProcess). */
export class PipeWorker implements WorkerHandle {
  private exited = false;
  private killed = false;
  /** How the process ended, once it has; null, null for a spawn that failed. */
  private status: [number | null, string | null] = [null, null];
  private closeWait: ReturnType<typeof setTimeout> | undefined;
  private readonly toWorker: Writable;
  private readonly fromWorker: Readable;
  private readonly intake: WorkerIntake;
  private readonly exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private readonly messageListeners: Array<(message: WorkerToHostMessage) => void> = [];
  private readonly protocolListeners: Array<(reason: string) => void> = [];

  constructor(private readonly child: ChildProcess) {
    this.toWorker = child.stdio[3] as Writable;
    this.fromWorker = child.stdio[4] as Readable;
    this.intake = createWorkerIntake({
      message: (message) => {
        for (const listener of this.messageListeners) listener(message);
      },
      violation: (reason) => {
        this.stopReading();
        for (const listener of this.protocolListeners) listener(reason);
      },
    });
    this.fromWorker.setEncoding('utf8');
    this.fromWorker.on('data', (chunk: string) => this.intake.acceptText(chunk));
    // A pipe that breaks because the worker died reports here; the exit tells the rest.
    this.fromWorker.on('error', ignore);
    this.toWorker.on('error', ignore);
    // 'exit' can come before the last frames and log lines are read: the exit is reported on 'close',
    // once every pipe is drained. Whatever the worker left running dies at once, so nothing it started
    // holds a pipe open; a bounded wait covers anything that escaped its group anyway.
    child.on('exit', (code, signal) => {
      this.status = [code, signal];
      this.killGroup();
      this.closeWait ??= setTimeout(() => this.finish(), CLOSE_WAIT_MS);
    });
    child.on('close', () => this.finish());
    // 'error' fires for a failed spawn or a failed kill; without a listener it would end the host.
    // A failed spawn may never emit 'exit'.
    child.on('error', () => {
      if (child.pid === undefined) this.finish();
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

  send(message: HostToWorkerMessage): SendOutcome {
    if (this.exited || this.killed || this.child.exitCode !== null || this.child.signalCode !== null || !this.toWorker.writable) return 'closed';
    const frame = encodeFrame(message);
    if (frame.length > MAX_FRAME_CHARS) return 'oversized';
    this.toWorker.write(frame);
    return 'sent';
  }

  onMessage(listener: (message: WorkerToHostMessage) => void): void {
    this.messageListeners.push(listener);
  }

  onProtocolError(listener: (reason: string) => void): void {
    this.protocolListeners.push(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }

  residentBytes(): number | null {
    return this.child.exitCode !== null || this.child.signalCode !== null ? null : procResidentBytes(this.child.pid);
  }

  kill(): void {
    this.killed = true;
    this.stopReading();
    this.killGroup();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private stopReading(): void {
    this.intake.close();
    this.messageListeners.length = 0;
    this.fromWorker.destroy();
  }

  /** The worker leads its process group: one signal reaches whatever it started, even after it exited. */
  private killGroup(): void {
    if (!POSIX || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is already empty.
    }
  }

  private finish(): void {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.closeWait);
    this.toWorker.destroy();
    const [code, signal] = this.status;
    for (const listener of this.exitListeners) listener(code, signal);
  }
}
