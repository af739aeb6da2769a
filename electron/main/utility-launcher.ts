// The desktop app's Launcher: each extension in its own Electron utilityProcess, with an explicit env.
import { utilityProcess, type UtilityProcess } from 'electron';
import type { Readable } from 'node:stream';
import type { LaunchOptions, Launcher, WorkerHandle } from '../core/extensions/launcher';
import type { HostToWorkerMessage } from '../../shared/protocol';

class UtilityWorker implements WorkerHandle {
  private exited = false;
  private killed = false;
  private readonly exitListeners: Array<(code: number | null, signal: string | null) => void> = [];
  private readonly messageListeners: Array<(message: unknown) => void> = [];

  constructor(private readonly child: UtilityProcess) {
    child.on('message', (message: unknown) => {
      if (this.killed) return;
      for (const listener of this.messageListeners) listener(message);
    });
    // 'exit' always fires, even after 'error'; on POSIX a kill() shows as code 0, so the kill intent is kept.
    child.on('exit', (code: number) => this.finish(this.killed ? null : code, this.killed ? 'SIGKILL' : null));
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

  send(message: HostToWorkerMessage): boolean {
    // postMessage to a dead child is dropped silently, so the host tracks liveness itself.
    if (this.exited || this.killed) return false;
    this.child.postMessage(message);
    return true;
  }

  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListeners.push(listener);
  }

  kill(): void {
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

export const utilityLauncher: Launcher = {
  launch(options: LaunchOptions): WorkerHandle {
    const child = utilityProcess.fork(options.entry, [], {
      env: options.env,
      cwd: options.cwd,
      stdio: 'pipe',
      serviceName: `council-extension-${options.id}`,
    });
    return new UtilityWorker(child);
  },
};
