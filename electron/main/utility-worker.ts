// A worker in an Electron utilityProcess as a WorkerHandle: every posted message checked by the same intake as the pipe door.
//
// Kept free of Electron at run time (types only), so the unit tests run this exact handler in Node.
// What Electron's utilityProcess does not offer, and so this door does not do: a process group (a
// process the worker starts is not killed with it; the runtime's lockdown refuses child_process
// instead), and a frame cap on what the host posts (mojo's own message limit applies).
import type { Readable } from 'node:stream';
import type { SendOutcome, WorkerHandle } from '../core/extensions/launcher';
import { createWorkerIntake, type WorkerIntake } from '../core/extensions/worker-intake';
import type { HostToWorkerMessage, WorkerToHostMessage } from '../../shared/protocol';

/** What this door uses of Electron's UtilityProcess. */
export interface UtilityChild {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (...details: unknown[]) => void): unknown;
  postMessage(message: unknown): void;
  kill(): boolean;
}

export class UtilityWorker implements WorkerHandle {
  private exited = false;
  private killed = false;
  private readonly intake: WorkerIntake;
  private readonly exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private readonly messageListeners: Array<(message: WorkerToHostMessage) => void> = [];
  private readonly protocolListeners: Array<(reason: string) => void> = [];

  constructor(
    private readonly child: UtilityChild,
    /** Resident memory of a pid in bytes (app.getAppMetrics in the app). */
    private readonly memoryOf: (pid: number) => number | null = () => null,
  ) {
    this.intake = createWorkerIntake({
      message: (message) => {
        for (const listener of this.messageListeners) listener(message);
      },
      violation: (reason) => {
        this.messageListeners.length = 0;
        for (const listener of this.protocolListeners) listener(reason);
      },
    });
    child.on('message', (message) => this.intake.accept(message));
    // 'error' is a fatal V8 error in the child; 'exit' follows. Without a listener it would end the app.
    child.on('error', () => {});
    // 'exit' always fires, even after 'error'; on POSIX a kill() shows as code 0, so the kill intent is kept.
    child.on('exit', (code) => this.finish(this.killed ? null : code, this.killed ? 'SIGKILL' : null));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  // Electron types these as NodeJS.ReadableStream; at run time they are stream.Readable instances.
  get stdout(): Readable | null {
    return this.child.stdout as unknown as Readable | null;
  }

  get stderr(): Readable | null {
    return this.child.stderr as unknown as Readable | null;
  }

  send(message: HostToWorkerMessage): SendOutcome {
    // postMessage to a dead child is dropped silently, so the host tracks liveness itself.
    if (this.exited || this.killed) return 'closed';
    try {
      this.child.postMessage(message);
      return 'sent';
    } catch {
      return 'closed';
    }
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
    return this.exited || this.child.pid === undefined ? null : this.memoryOf(this.child.pid);
  }

  kill(): void {
    this.intake.close();
    this.messageListeners.length = 0;
    if (this.killed || this.exited) return;
    this.killed = true;
    this.child.kill();
  }

  private finish(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.exitListeners) listener(code, signal);
  }
}
