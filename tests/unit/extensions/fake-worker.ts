// A fake Launcher whose workers the test plays: it sees what the host sends and says what a worker would.
import type { HostToWorkerMessage, WorkerToHostMessage } from '../../../shared/protocol';
import type { ExtensionManifest } from '../../../shared/types/spindle';
import type { LaunchOptions, Launcher, SendOutcome, WorkerHandle } from '../../../electron/core/extensions/launcher';

export class FakeHandle implements WorkerHandle {
  readonly pid: number;
  readonly sent: HostToWorkerMessage[] = [];
  readonly stdout = null;
  readonly stderr = null;
  /** Answer each ping with a heartbeat, as a live event loop does. */
  answersPings = true;
  /** Exit 0 when asked to shut down, as the runtime does. */
  obeysShutdown = true;
  /** What the OS would say this process holds; null: this door cannot tell. */
  rss: number | null = 40 * 1024 * 1024;
  /** Refuse messages over this many characters of JSON, like the pipe door's frame cap. */
  maxChars = Infinity;
  killed = 0;
  exited = false;
  private messageListeners: Array<(message: WorkerToHostMessage) => void> = [];
  private protocolListeners: Array<(reason: string) => void> = [];
  private exitListeners: Array<(code: number | null, signal: string | null) => void> = [];

  constructor(
    readonly options: LaunchOptions,
    pid: number,
  ) {
    this.pid = pid;
  }

  send(message: HostToWorkerMessage): SendOutcome {
    if (this.exited || this.killed > 0) return 'closed';
    if (JSON.stringify(message).length > this.maxChars) return 'oversized';
    this.sent.push(message);
    if (message.type === 'ping' && this.answersPings) queueMicrotask(() => this.say({ type: 'heartbeat', seq: message.seq }));
    if (message.type === 'shutdown' && this.obeysShutdown) queueMicrotask(() => this.exit(0));
    return 'sent';
  }

  /** The worker sends a (valid) protocol message. */
  say(message: WorkerToHostMessage): void {
    if (this.exited) return;
    for (const listener of this.messageListeners) listener(message);
  }

  /** The door found a bad frame or message. */
  violate(reason: string): void {
    this.messageListeners = [];
    for (const listener of this.protocolListeners) listener(reason);
  }

  /** The process ends. */
  exit(code: number | null, signal: string | null = null): void {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.exitListeners) listener(code, signal);
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
    return this.rss;
  }

  kill(): void {
    this.killed++;
    this.messageListeners = [];
    if (!this.exited) queueMicrotask(() => this.exit(null, 'SIGKILL'));
  }

  /** Messages of one type the host sent. */
  sentOf<T extends HostToWorkerMessage['type']>(type: T): Array<Extract<HostToWorkerMessage, { type: T }>> {
    return this.sent.filter((m): m is Extract<HostToWorkerMessage, { type: T }> => m.type === type);
  }
}

/** Starts FakeHandles; `onLaunch` may script each new worker (say ready, register tools, crash…). */
export class FakeLauncher implements Launcher {
  readonly launched: FakeHandle[] = [];
  onLaunch: (handle: FakeHandle) => void = (handle) => queueMicrotask(() => handle.say({ type: 'ready' }));

  launch(options: LaunchOptions): WorkerHandle {
    const handle = new FakeHandle(options, 1000 + this.launched.length);
    this.launched.push(handle);
    this.onLaunch(handle);
    return handle;
  }

  get last(): FakeHandle {
    const handle = this.launched.at(-1);
    if (!handle) throw new Error('no worker was launched');
    return handle;
  }
}

export function fakeManifest(id = 'fake'): ExtensionManifest {
  return { id, name: 'Fake', version: '1.0.0', description: '', main: 'index.js', permissions: ['tools'] } as ExtensionManifest;
}

/** Lets queued microtasks (fake worker answers) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
