// One extension as the manager tracks it: its folder and manifest, what is granted, its worker, tools, log and crash budget.
import type { ExtensionCommand } from './spindle-host/commands';
import path from 'node:path';
import type { HostError } from '../../../shared/errors';
import { EXTENSION_PERMISSIONS, type ExtensionPermission } from '../../../shared/types/spindle';
import type { Clock } from '../ports';
import { asksForNewerLumiverse, LUMIVERSE_COMPAT_VERSION } from '../../../shared/spindle/compat';
import { describeContainment } from './workers/containment';
import type { WorkerIsolation } from './workers/worker-host-types';
import { CrashTracker, type CrashTrackerOptions } from './workers/crash-tracker';
import { ExtensionLog } from './extension-log';
import type { ExtensionLogFiles } from './extension-log-file';
import type { FoundExtension } from './install/extension-scan';
import type { ExtensionInfo, ExtensionSource, ExtensionStatus, PersistedExtensionState } from './extension-types';
import type { LoadedManifest } from './install/manifest';
import type { WorkerHost } from './workers/worker-host';

export interface Entry {
  id: string;
  source: ExtensionSource;
  folder: string;
  loaded: LoadedManifest | null;
  enabled: boolean;
  granted: Set<ExtensionPermission>;
  status: ExtensionStatus;
  error: HostError | null;
  worker: WorkerHost | null;
  tools: Set<string>;
  log: ExtensionLog;
  tracker: CrashTracker;
  restartTimer: unknown;
  /** State changes run one after another (see ExtensionManager.enqueue). */
  ops: Promise<unknown>;
  lastCrash: string | null;
  safeMode: boolean;
  /** What its last worker reported at start about its confinement (null: not started yet). */
  isolation: WorkerIsolation | null;
  trusted: boolean;
}

export function createEntry(id: string, source: ExtensionSource, folder: string, loaded: LoadedManifest | null, clock: Clock, restart: Omit<CrashTrackerOptions, 'clock'> = {}, files?: ExtensionLogFiles): Entry {
  return {
    id,
    source,
    folder: loaded?.folder ?? folder,
    loaded,
    enabled: false,
    granted: new Set(),
    status: 'disabled',
    error: null,
    worker: null,
    tools: new Set(),
    log: new ExtensionLog(undefined, files ? (line) => files.append(id, line) : undefined),
    tracker: new CrashTracker({ ...restart, clock }),
    restartTimer: null,
    ops: Promise.resolve(),
    lastCrash: null,
    safeMode: false,
    isolation: null,
    trusted: false,
  };
}

/** What the host's spindle side knows of an extension (inert members used, pipeline registrations). */
export interface SpindleFacts {
  inertTouched: string[];
  /** `permission — operation` it was refused for lack of a permission. */
  refused: string[];
  macros: string[];
  pipeline: string[];
  /** Providers it registered (sidecar endpoints, drivers), described for its card. */
  providers: string[];
  /** Shared RPC endpoints it owns. */
  shared: string[];
  /** Its command palette entries (spindle.commands). */
  commands?: ExtensionCommand[];
}

/**
 * A found extension's starting state: failed without a manifest; else what was saved, or for a
 * bundled one never seen before the defaults (enabled, with what it asks for).
 */
export function entryFromScan(entry: Entry, found: FoundExtension, saved: PersistedExtensionState | undefined, defaults: { enabled: boolean; grantRequested: boolean }): Entry {
  if (!found.loaded) {
    entry.status = 'failed';
    entry.error = found.error;
    return entry;
  }
  const requested = found.loaded.manifest.permissions;
  if (saved) {
    entry.enabled = saved.enabled;
    entry.trusted = saved.trusted === true;
    // What the person granted that it asks for, and what they granted though it did not ask (shown so on its card); a
    // grant of what an earlier version asked for and this one does not is not kept.
    entry.granted = new Set(EXTENSION_PERMISSIONS.filter((p) => saved.granted.includes(p) && (requested.includes(p) || saved.unrequested?.includes(p))));
  } else if (entry.source === 'bundled') {
    entry.enabled = defaults.enabled;
    entry.granted = new Set(defaults.grantRequested ? requested : []);
  }
  entry.status = entry.enabled ? 'stopped' : 'disabled';
  return entry;
}

/** The extension's frontend bundle, once there is one to load (a frontend shipped as TypeScript is built at install). */
function readyFrontend(entry: Entry) {
  const frontend = entry.loaded?.frontend;
  return frontend && !frontend.buildSource ? frontend : null;
}

/**
 * Whether an enabled extension's frontend runs in the window. As in Lumiverse, its backend need not: it runs once the
 * backend has started, and stays while the backend has crashed, restarts after a crash or has failed (a frontend that
 * never talks to its backend still works); at a start by hand it waits for its backend (its first messages need it).
 */
export function frontendRuns(e: { enabled: boolean; status: ExtensionStatus; recentCrashes: number }): boolean {
  if (!e.enabled) return false;
  return e.status === 'running' || e.status === 'crashed' || e.status === 'failed' || (e.status === 'starting' && e.recentCrashes > 0);
}

/** Whether a window shows this extension's frontend (FrontendFrames loads its frames): frontendRuns, with one ready. */
export function showsFrontend(entry: Entry): boolean {
  return frontendRuns({ enabled: entry.enabled, status: entry.status, recentCrashes: entry.tracker.recentCrashes() }) && readyFrontend(entry) !== null;
}

export function infoOf(entry: Entry, containment: string, facts?: SpindleFacts): ExtensionInfo {
  const manifest = entry.loaded?.manifest;
  const info: ExtensionInfo = {
    id: entry.id,
    name: manifest?.name ?? entry.id,
    version: manifest?.version ?? '',
    description: manifest?.description ?? '',
    source: entry.source,
    status: entry.status,
    enabled: entry.enabled,
    requested: [...(manifest?.permissions ?? [])],
    granted: [...entry.granted],
    toolCount: entry.tools.size,
    tools: [...entry.tools],
    path: entry.folder,
    pid: entry.worker?.pid ?? null,
    recentCrashes: entry.tracker.recentCrashes(),
    trusted: entry.trusted,
    containment: describeContainment(containment, entry.isolation),
  };
  if (entry.error) {
    info.error = entry.error.hint ? `${entry.error.message} ${entry.error.hint}` : entry.error.message;
    info.errorCode = entry.error.code;
  }
  if (entry.lastCrash) info.lastCrash = entry.lastCrash;
  if (facts?.inertTouched.length) info.inertTouched = facts.inertTouched;
  if (facts?.refused.length) info.refused = facts.refused;
  if (facts?.commands?.length) info.commands = facts.commands.map((c) => ({ id: c.id, label: c.label, description: c.description, ...(c.scope ? { scope: c.scope } : {}) }));
  if (facts && (facts.macros.length || facts.pipeline.length || facts.providers.length || facts.shared.length)) {
    info.registrations = { macros: facts.macros, pipeline: facts.pipeline, ...(facts.providers.length ? { providers: facts.providers } : {}), ...(facts.shared.length ? { shared: facts.shared } : {}) };
  }
  // The events its handlers listen to (tool calls come as TOOL_INVOCATION/TOOL_SIMULATION: those are its tools, not events).
  const events = (entry.worker?.wantedEvents ?? []).filter((e) => e !== 'TOOL_INVOCATION' && e !== 'TOOL_SIMULATION').sort();
  if (events.length) info.events = events;
  if (entry.safeMode) info.safeMode = true;
  const frontend = readyFrontend(entry);
  if (frontend) info.frontend = { entry: path.relative(entry.folder, frontend.path).split(path.sep).join('/'), runs: showsFrontend(entry) };
  const minimum = manifest?.minimumLumiverseVersion;
  if (minimum && asksForNewerLumiverse(minimum)) {
    info.warnings = [`It asks for Lumiverse ${minimum} or newer; the Workbench matches Lumiverse ${LUMIVERSE_COMPAT_VERSION}, so something it relies on may be missing here.`];
  }
  return info;
}
