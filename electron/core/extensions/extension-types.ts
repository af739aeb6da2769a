// What the extension manager shows and takes: extension info, events, persisted state, the registry seam, install options.
import type { HostError } from '../../../shared/errors';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { ToolExecutor } from '../registry-port';
import type { Redactor } from '../connections/redact';
import type { Clock, Logger, Timers } from '../ports';
import type { CrashTrackerOptions } from './workers/crash-tracker';
import type { ExtensionGenerator, GenerationLimits } from './spindle-host/generation-gate';
import type { HostEvent, ExtensionInfo as WireExtensionInfo } from '../../../shared/contract/events';
import type { Launcher } from './workers/launcher';
import type { SpindleHostDeps } from './spindle-host/spindle-host';
import type { WorkerHostTimings } from './workers/worker-host';

export type ExtensionStatus = WireExtensionInfo['status'];
export type ExtensionSource = WireExtensionInfo['source'];

/** What extensions.list sends (shared/contract/extensions.ts), plus what the host keeps for itself. */
export type ExtensionInfo = WireExtensionInfo & {
  /** Bare names of the tools it has registered right now. */
  tools: string[];
  /** Folder the extension runs from. */
  path: string;
  pid: number | null;
  /** Crashes within the crash window (3 in 5 minutes marks it failed). */
  recentCrashes: number;
};

/** What the host persists per extension (settings.extensions). */
export interface PersistedExtensionState {
  enabled: boolean;
  granted: string[];
  /** Of those, the ones its manifest did not ask for when they were kept (the person's own choice). */
  unrequested?: string[];
  /** Its tools that declare no mode run without asking. */
  trusted?: boolean;
}

export interface ExtensionStateStore {
  getState(id: string): PersistedExtensionState | undefined;
  setState(id: string, state: PersistedExtensionState): Promise<void>;
  /** Optional: forget a removed extension. Without it, a later install overwrites the state anyway. */
  removeState?(id: string): Promise<void>;
}

export interface ToolSource {
  kind: 'extension';
  id: string;
}

/** The registry as the extension manager sees it. */
export interface ToolSink {
  register(source: ToolSource, dto: unknown, executor: ToolExecutor): { ok: true } | { ok: false; error: HostError };
  unregister(sourceId: string, name: string): void;
  unregisterAll(sourceId: string): void;
  setSourceStatus(sourceId: string, status: 'available' | 'unavailable'): void;
}

/**
 * `extension.changed` fires on every change of an extension's info, status included; `extension.status`
 * additionally marks each status transition with the structured error behind it.
 */
export type ExtensionEvent =
  /** Told to clients as they are (shared/contract/events.ts). */
  | Extract<HostEvent, { type: 'extension.changed' | 'extension.removed' | 'extension.log' | 'extension.frontend-message' | 'extension.toast' | 'extension.ui' | 'extension.event' | 'extension.dialog' | 'extension.dialog-closed' }>
  /** The host's own: a notice when an extension fails for good, or starts in safe mode. */
  | { type: 'extension.status'; id: string; status: ExtensionStatus; error: HostError | null }
  | { type: 'extension.safe-mode'; id: string; failures: number };

export type ExtensionEventListener = (event: ExtensionEvent) => void;

export interface InstallOptions {
  /** Permissions to grant now; must be among those the manifest requests, or 'requested' for all of them. Default: none. */
  grant?: ExtensionPermission[] | 'requested';
  /** Start it right away. Default: true. */
  enable?: boolean;
  /** Replace an installed user extension with the same id. Default: false. */
  replace?: boolean;
  /** Let its tools that declare no mode run without asking. Default: false. */
  trust?: boolean;
}

export interface ExtensionManagerOptions {
  dataDir: string;
  /** Folder of bundled extensions; null for none. Default: the repository's resources/extensions. */
  bundledDir?: string | null;
  launcher: Launcher;
  /** Worker runtime script: workerRuntimeSource() from source, or the built out/main/worker.js. */
  workerEntry: string;
  sink: ToolSink;
  state: ExtensionStateStore;
  clock?: Clock;
  timers?: Timers;
  log?: Logger;
  /** Worker limits; read at each start, so a changed memory cap applies to the next start. */
  worker?: Partial<WorkerHostTimings> | (() => Partial<WorkerHostTimings>);
  restart?: Omit<CrashTrackerOptions, 'clock'>;
  /** Bundled extensions without saved state: shipped with the app, so enabled with their permissions by default. */
  bundledDefaults?: { enabled: boolean; grantRequested: boolean };
  /** Runs spindle.generate for extensions with the generation permission; without it they get GENERATION_UNAVAILABLE. */
  generator?: ExtensionGenerator;
  /** Scrubs keys from generation errors before they reach a worker (the host's one Redactor). */
  redactor?: Redactor;
  generation?: Partial<GenerationLimits>;
  /** What the host lends to extensions' spindle calls (connections, council, secrets…). */
  spindle?: SpindleHostDeps;
}
