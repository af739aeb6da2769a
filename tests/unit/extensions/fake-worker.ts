// A launcher whose workers the test plays: it sees what the host sends and delivers what the worker would say.
import type { HostToWorkerMessage } from '../../../shared/protocol';
import type { ExtensionManifest } from '../../../shared/types/spindle';
import type { LaunchOptions, Launcher, WorkerHandle } from '../../../electron/core/extensions/workers/launcher';
import { WorkerHost, type WorkerHostCallbacks, type WorkerHostTimings } from '../../../electron/core/extensions/workers/worker-host';
import type { ExecuteRequest } from '../../../electron/core/registry-port';
import { FakeClock } from '../../helpers/fake-time';

export class FakeHandle implements WorkerHandle {
  readonly sent: HostToWorkerMessage[] = [];
  killed = false;
  resident: number | null = 10 * 1024 * 1024;
  private exited = false;
  private messageListener: (message: Record<string, unknown>) => void = () => undefined;
  private protocolListener: (detail: string) => void = () => undefined;
  private exitListener: (code: number | null, signal: string | null) => void = () => undefined;

  constructor(
    readonly pid: number,
    readonly options: LaunchOptions,
    /** Leaves at once on `shutdown`, as a cooperative worker does. */
    private readonly exitOnShutdown = false,
  ) {}

  readonly stdout = null;
  readonly stderr = null;

  send(message: HostToWorkerMessage): boolean {
    if (this.exited || this.killed) return false;
    this.sent.push(message);
    if (message.type === 'shutdown' && this.exitOnShutdown) queueMicrotask(() => this.exit(0, null));
    return true;
  }

  onMessage(listener: (message: Record<string, unknown>) => void): void {
    this.messageListener = listener;
  }

  onProtocolError(listener: (detail: string) => void): void {
    this.protocolListener = listener;
  }

  onExit(listener: (code: number | null, signal: string | null) => void): void {
    this.exitListener = listener;
  }

  residentBytes(): number | null {
    return this.resident;
  }

  kill(): void {
    if (this.killed) return;
    this.killed = true;
    queueMicrotask(() => this.exit(null, 'SIGKILL'));
  }

  // ---- the test plays the worker ----

  say(message: Record<string, unknown>): void {
    if (!this.killed && !this.exited) this.messageListener(message);
  }

  /** A line still in the pipe when the process went away: a real pipe hands it over after the exit event. */
  sayFromThePipe(message: Record<string, unknown>): void {
    this.messageListener(message);
  }

  breakProtocol(detail: string): void {
    this.killed = true;
    this.protocolListener(detail);
    queueMicrotask(() => this.exit(null, 'SIGKILL'));
  }

  exit(code: number | null, signal: string | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitListener(code, signal);
  }

  /** The messages of one type the host sent. */
  of<T extends HostToWorkerMessage['type']>(type: T): Array<Extract<HostToWorkerMessage, { type: T }>> {
    return this.sent.filter((m): m is Extract<HostToWorkerMessage, { type: T }> => m.type === type);
  }
}

export class FakeLauncher implements Launcher {
  readonly containment = 'fake';
  readonly handles: FakeHandle[] = [];
  /** Set to make the next launch throw. */
  failNext: Error | null = null;

  constructor(private readonly exitOnShutdown = false) {}

  launch(options: LaunchOptions): WorkerHandle {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    const handle = new FakeHandle(1000 + this.handles.length, options, this.exitOnShutdown);
    this.handles.push(handle);
    return handle;
  }

  get last(): FakeHandle {
    const handle = this.handles[this.handles.length - 1];
    if (!handle) throw new Error('nothing launched');
    return handle;
  }
}

export const FAKE_MANIFEST = { id: 'fake', name: 'Fake', version: '1.0.0', description: '', main: 'index.js', permissions: ['tools'] } as ExtensionManifest;

export interface FakeWorker {
  host: WorkerHost;
  handle: FakeHandle;
  /** Every process started: the worker first, then its managed backend processes. */
  launcher: FakeLauncher;
  clock: FakeClock;
  logs: string[];
}

/** A WorkerHost on a fake channel and fake time, already `ready` unless told otherwise. */
export function fakeWorker(options: { timings?: Partial<WorkerHostTimings>; callbacks?: WorkerHostCallbacks; ready?: boolean; extensionPath?: string } = {}): FakeWorker {
  const clock = new FakeClock();
  const launcher = new FakeLauncher();
  const logs: string[] = [];
  const host = new WorkerHost({
    manifest: FAKE_MANIFEST,
    extensionPath: options.extensionPath ?? '/nowhere',
    granted: ['tools'],
    launcher,
    entry: 'runtime.js',
    clock,
    timers: clock,
    timings: { heartbeatIntervalMs: 1000, unresponsiveAfterMs: 3000, startupTimeoutMs: 10_000, shutdownGraceMs: 500, ...options.timings },
    callbacks: { onLog: (level, source, text) => logs.push(`${source}:${level}: ${text}`), ...options.callbacks },
  });
  host.start();
  const handle = launcher.last;
  if (options.ready !== false) handle.say({ type: 'ready', contained: true });
  return { host, handle, launcher, clock, logs };
}

let seq = 0;
export function call(clock: FakeClock, toolName = 'tool', extra: Partial<ExecuteRequest> = {}): ExecuteRequest {
  return { toolName, args: {}, requestId: `req-${++seq}`, deadline: clock.now() + 5000, signal: new AbortController().signal, ...extra };
}

/** Lets promise callbacks run (the fake handle exits in a microtask). */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
