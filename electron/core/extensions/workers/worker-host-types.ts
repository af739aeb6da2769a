// The shapes of a worker host: what it tells its owner, what it is made with, and the states it goes through.
import type { Result } from '../../../../shared/errors';
import type { LogLevel } from '../../../../shared/protocol';
import type { ExtensionManifest, ExtensionPermission, ToolRegistrationDTO } from '../../../../shared/types/spindle';
import type { Clock, Timers } from '../../ports';
import type { Launcher } from './launcher';
import type { WorkerExit } from './worker-exit';
import type { WorkerHostTimings } from './worker-liveness';
import type { LogSource } from './worker-output';

/** What a worker reported at start about the layers that confine it. */
export interface WorkerIsolation {
  /** Node's permission model holds (file, process and thread access confined). */
  permissionModel: boolean;
  /** It sees no network interface: a network namespace of its own. */
  networkNamespace: boolean;
}

/** What a spindle.* call has besides its params: the worker's cancel, and a stream's way to send a chunk. */
export interface SpindleCall {
  signal: AbortSignal;
  emit(chunk: unknown): void;
}

export interface WorkerHostCallbacks {
  /** The entry loaded without throwing; what confines the worker, as it reported it. */
  onReady?(isolation: WorkerIsolation): void;
  /** Unchecked: the caller decides on permission and hands it to the registry. */
  onRegisterTool?(tool: ToolRegistrationDTO): void;
  onUnregisterTool?(name: string): void;
  /** The events its spindle.on handlers listen to changed (after the first report, before ready, too). */
  onEventsWanted?(events: readonly string[]): void;
  onLog?(level: LogLevel, source: LogSource, text: string): void;
  /** A spindle.* call for the host: unchecked (the caller checks permission and params); its answer goes back by id. */
  onRequest?(method: string, params: unknown, call: SpindleCall): Promise<Result<unknown>>;
  /** Fires once; every pending call has been settled before it. */
  onExit?(exit: WorkerExit): void;
}

export interface WorkerHostOptions {
  manifest: ExtensionManifest;
  extensionPath: string;
  granted: readonly ExtensionPermission[];
  launcher: Launcher;
  /** Worker runtime script (see workerRuntimeSource). */
  entry: string;
  /** Extra plain variables for the worker; secrets are filtered out. */
  env?: Record<string, string>;
  clock?: Clock;
  timers?: Timers;
  timings?: Partial<WorkerHostTimings>;
  callbacks?: WorkerHostCallbacks;
}

export type WorkerState = 'idle' | 'starting' | 'running' | 'stopping' | 'exited';

