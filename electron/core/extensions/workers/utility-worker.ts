// The WorkerHandle of an Electron utilityProcess, written against the few members it uses so it runs (and is tested) without Electron.
//
// Messages arrive as structured clones; acceptStructured applies the same rules as the Node door's
// frame reader, and a violation ends that worker (WORKER_PROTOCOL), never the app.
import type { Readable } from 'node:stream';
import type { HostToWorkerMessage } from '../../../../shared/protocol';
import { acceptStructured } from './inbound';
import type { WorkerHandle } from './launcher';
import { WorkerHandleEvents } from './worker-handle-events';

/** What the handle needs of Electron's UtilityProcess. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: unknown;
  readonly stderr: unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown): void;
  kill(): boolean;
}

export class UtilityWorker extends WorkerHandleEvents implements WorkerHandle {
  private exited = false;
  private killed = false;

  constructor(
    private readonly child: UtilityChild,
    /** Resident bytes of a process (app.getAppMetrics in the desktop app). */
    private readonly memoryOf: (pid: number) => number | null,
  ) {
    super();
    child.on('message', (message: unknown) => this.receive(message));
    // 'exit' always fires, even after 'error'; on POSIX a kill() shows as code 0, so the kill intent is kept.
    child.on('exit', (code: number) => this.finish(this.killed ? null : code, this.killed ? 'SIGKILL' : null));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  // Electron types these as NodeJS.ReadableStream; at run time they are stream.Readable instances.
  get stdout(): Readable | null {
    return (this.child.stdout as Readable | null) ?? null;
  }

  get stderr(): Readable | null {
    return (this.child.stderr as Readable | null) ?? null;
  }

  send(message: HostToWorkerMessage): boolean {
    // postMessage to a dead child is dropped silently, so the host tracks liveness itself.
    if (this.exited || this.killed) return false;
    this.child.postMessage(message);
    return true;
  }

  residentBytes(): number | null {
    const pid = this.child.pid;
    return this.exited || pid === undefined ? null : this.memoryOf(pid);
  }

  kill(): void {
    if (this.killed || this.exited) return;
    this.killed = true;
    this.dropMessages();
    this.child.kill();
  }

  private receive(message: unknown): void {
    if (this.killed) return;
    const checked = acceptStructured(message);
    if (checked.ok) this.deliver(checked.message);
    else this.violated(checked.detail);
  }

  private finish(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitedWith(code, signal);
  }
}
