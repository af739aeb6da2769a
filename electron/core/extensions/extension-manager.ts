// All extensions: discovery (bundled and user-installed), install/remove, enable/disable, permissions, restarts, logs, spindle.generate.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import { EXTENSION_PERMISSIONS, type ExtensionManifest, type ExtensionPermission, type ToolRegistrationDTO } from '../../../shared/types/spindle';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import type { ToolExecutor } from '../registry-port';
import type { Redactor } from '../connections/redact';
import { CrashTracker, type CrashTrackerOptions } from './crash-tracker';
import { ExtensionLog, formatLogEntry, type ExtensionLogEntry, type LogSource } from './extension-log';
import { GenerationGate, type ExtensionGenerator, type GenerationLimits } from './generation-gate';
import type { Launcher } from './launcher';
import { EXTENSION_ID_PATTERN, readManifest, type LoadedManifest } from './manifest';
import { WorkerHost, type WorkerExit, type WorkerHostTimings } from './worker-host';

export type ExtensionStatus = 'stopped' | 'starting' | 'running' | 'crashed' | 'failed' | 'disabled';
export type ExtensionSource = 'bundled' | 'user';

export interface ExtensionInfo {
  id: string;
  name: string;
  version: string;
  description: string;
  source: ExtensionSource;
  status: ExtensionStatus;
  enabled: boolean;
  /** Permissions the manifest asks for. */
  requested: ExtensionPermission[];
  granted: ExtensionPermission[];
  /** How many tools it has registered right now. */
  toolCount: number;
  /** Why it is failed or crashed (bad manifest, last crash), for people: message and hint. */
  error?: string;
  errorCode?: string;
  /** Bare names of the tools it has registered right now. */
  tools: string[];
  /** Folder the extension runs from. */
  path: string;
  pid: number | null;
  /** Crashes within the crash window (3 in 5 minutes marks it failed). */
  recentCrashes: number;
}

/** What the host persists per extension (the lead backs it with settings.extensions). */
export interface PersistedExtensionState {
  enabled: boolean;
  granted: string[];
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
  | { type: 'extension.status'; id: string; status: ExtensionStatus; error: HostError | null }
  | { type: 'extension.changed'; extension: ExtensionInfo }
  | { type: 'extension.removed'; id: string }
  | { type: 'extension.log'; id: string; entry: ExtensionLogEntry };

export type ExtensionEventListener = (event: ExtensionEvent) => void;

export interface InstallOptions {
  /** Permissions to grant now; must be among those the manifest requests. Default: none. */
  grant?: ExtensionPermission[];
  /** Start it right away. Default: true. */
  enable?: boolean;
  /** Replace an installed user extension with the same id. Default: false. */
  replace?: boolean;
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
  log?: Logger;
  worker?: Partial<WorkerHostTimings>;
  restart?: Omit<CrashTrackerOptions, 'clock'>;
  /** Bundled extensions without saved state: shipped with the app, so enabled with their permissions by default. */
  bundledDefaults?: { enabled: boolean; grantRequested: boolean };
  /** Runs spindle.generate for extensions with the generation permission; without it they get GENERATION_UNAVAILABLE. */
  generator?: ExtensionGenerator;
  /** Scrubs keys from generation errors before they reach a worker (the host's one Redactor). */
  redactor?: Redactor;
  generation?: Partial<GenerationLimits>;
}

interface Entry {
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
  restartTimer: ReturnType<typeof setTimeout> | null;
  ops: Promise<unknown>;
  logWindow: { start: number; count: number; suppressed: number };
}

const MAX_LOG_EVENTS_PER_SECOND = 100;
const MAX_INSTALL_FILES = 5000;
const MAX_INSTALL_BYTES = 100 * 1024 * 1024;

/** The repository's bundled extensions, for running from source. */
export function bundledExtensionsSource(): string {
  return fileURLToPath(new URL('../../../resources/extensions', import.meta.url));
}

function clipName(value: unknown): string {
  const text = typeof value === 'string' ? value : '(no name)';
  return text.length > 64 ? `${text.slice(0, 64)}… (${text.length} characters)` : text;
}

function notFound(id: string): never {
  throw new HostFailure({ code: 'NOT_FOUND', message: `No extension "${clipName(id)}".` });
}

export class ExtensionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<ExtensionEventListener>();
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly userDir: string;
  private readonly dataRoot: string;
  private readonly generations: GenerationGate;
  private disposed = false;

  constructor(private readonly options: ExtensionManagerOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLogger;
    this.userDir = path.join(options.dataDir, 'extensions');
    this.dataRoot = path.join(options.dataDir, 'extension-data');
    this.generations = new GenerationGate({
      ...(options.generator ? { generator: options.generator } : {}),
      ...(options.redactor ? { redactor: options.redactor } : {}),
      ...(options.generation ? { limits: options.generation } : {}),
      clock: this.clock,
      log: (id, level, text) => {
        const entry = this.entries.get(id);
        if (entry) this.appendLog(entry, level, 'host', text);
      },
    });
  }

  /** Finds every extension and starts the enabled ones. */
  async init(): Promise<void> {
    const bundledDir = this.options.bundledDir === undefined ? bundledExtensionsSource() : this.options.bundledDir;
    if (bundledDir) this.scan(bundledDir, 'bundled');
    fs.mkdirSync(this.userDir, { recursive: true });
    // Staging folders left by an install that was interrupted.
    for (const name of fs.readdirSync(this.userDir)) {
      if (name.startsWith('.install-')) fs.rmSync(path.join(this.userDir, name), { recursive: true, force: true });
    }
    this.scan(this.userDir, 'user');
    await Promise.all([...this.entries.values()].filter((e) => e.enabled && e.loaded).map((e) => this.enqueue(e, () => this.startWorker(e))));
  }

  /**
   * Resolves once no extension is still starting (each is running, failed or stopped), or after
   * `timeoutMs`: the CLI waits for this so `tools list` sees what the extensions register on load.
   */
  whenSettled(timeoutMs = 10_000): Promise<void> {
    const starting = () => [...this.entries.values()].some((e) => e.status === 'starting');
    if (!starting()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = this.onEvent((event) => {
        if (event.type === 'extension.status' && !starting()) done();
      });
    });
  }

  onEvent(listener: ExtensionEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): ExtensionInfo[] {
    return [...this.entries.values()].map((entry) => this.info(entry));
  }

  get(id: string): ExtensionInfo {
    return this.info(this.entry(id));
  }

  getLog(id: string, afterSeq = 0): ExtensionLogEntry[] {
    return this.entry(id).log.read(afterSeq);
  }

  /** The log as display lines (see formatLogEntry). */
  getLogLines(id: string): string[] {
    return this.entry(id).log.read().map(formatLogEntry);
  }

  /** Copies a folder into <dataDir>/extensions/<id>. Requested permissions stay ungranted unless `grant` names them. */
  async installFromFolder(folder: string, options: InstallOptions = {}): Promise<ExtensionInfo> {
    const source = readManifest(folder);
    const { id } = source.manifest;
    const existing = this.entries.get(id);
    if (existing && (existing.source === 'bundled' || !options.replace)) {
      throw new HostFailure({
        code: 'CONFLICT',
        message: `An extension with id "${id}" is already installed.`,
        ...(existing.source === 'user' ? { hint: 'Install with replace to update it.' } : {}),
      });
    }
    const grant = this.checkGrantable(source.manifest, options.grant ?? []);
    fs.mkdirSync(this.userDir, { recursive: true });
    const fromUserDir = path.relative(source.folder, fs.realpathSync(this.userDir));
    if (!fromUserDir.startsWith('..') && !path.isAbsolute(fromUserDir)) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: 'The folder contains the app\'s own extensions folder.', hint: 'Pick the extension\'s folder itself.', path: '/folder' });
    }
    const staging = fs.mkdtempSync(path.join(this.userDir, `.install-${id}-`));
    try {
      copyExtensionFolder(source.folder, staging);
      readManifest(staging);
    } catch (err) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw err;
    }
    const target = path.join(this.userDir, id);
    const install = async () => {
      if (existing) {
        await this.stopWorker(existing, 'stopped');
        this.entries.delete(id);
      }
      fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(staging, target);
      const entry = this.createEntry(id, 'user', target, readManifest(target));
      entry.enabled = options.enable ?? true;
      entry.granted = new Set(grant);
      entry.status = entry.enabled ? 'stopped' : 'disabled';
      this.entries.set(id, entry);
      await this.persist(entry);
      this.appendLog(entry, 'info', 'host', `Installed ${entry.loaded!.manifest.name} ${entry.loaded!.manifest.version}; granted: ${[...grant].join(', ') || 'nothing'}.`);
      this.emit({ type: 'extension.changed', extension: this.info(entry) });
      if (entry.enabled) await this.enqueue(entry, () => this.startWorker(entry));
      return this.info(entry);
    };
    return existing ? this.enqueue(existing, install) : install();
  }

  async enable(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      if (!entry.enabled) {
        entry.enabled = true;
        await this.persist(entry);
      }
      if (!entry.worker) {
        entry.tracker.reset();
        this.startWorker(entry);
      }
      this.emit({ type: 'extension.changed', extension: this.info(entry) });
      return this.info(entry);
    });
  }

  async disable(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      entry.enabled = false;
      await this.persist(entry);
      await this.stopWorker(entry, 'disabled');
      this.emit({ type: 'extension.changed', extension: this.info(entry) });
      return this.info(entry);
    });
  }

  /** Manual restart: a fresh crash budget and a fresh read of the manifest. */
  async restart(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      if (!entry.enabled) {
        throw new HostFailure({ code: 'CONFLICT', message: `Extension "${id}" is disabled.`, hint: 'Enable it to start it.' });
      }
      if (entry.worker) await this.stopWorker(entry, 'stopped');
      entry.tracker.reset();
      this.startWorker(entry);
      return this.info(entry);
    });
  }

  /** Removes a user-installed extension's folder. Its data folder is kept. */
  async remove(id: string): Promise<void> {
    const entry = this.entry(id);
    if (entry.source !== 'user') {
      throw new HostFailure({ code: 'CONFLICT', message: `"${id}" is bundled with the app and cannot be removed.`, hint: 'Disable it instead.' });
    }
    await this.enqueue(entry, async () => {
      await this.stopWorker(entry, 'stopped');
      const real = fs.realpathSync(entry.folder);
      if (path.dirname(real) !== fs.realpathSync(this.userDir)) throw new HostFailure({ code: 'INTERNAL', message: `Refusing to delete ${real}.` });
      fs.rmSync(real, { recursive: true, force: true });
      this.entries.delete(id);
      await this.options.state.removeState?.(id);
      this.emit({ type: 'extension.removed', id });
    });
  }

  /** Grants permissions the manifest requests. Granting `tools` to a running worker restarts it so its registrations go through. */
  async grant(id: string, permissions: ExtensionPermission[]): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    const manifest = this.manifestOf(entry);
    const wanted = this.checkGrantable(manifest, permissions);
    return this.enqueue(entry, async () => {
      const added = wanted.filter((p) => !entry.granted.has(p));
      if (added.length === 0) return this.info(entry);
      for (const permission of added) entry.granted.add(permission);
      await this.persist(entry);
      this.appendLog(entry, 'info', 'host', `Granted: ${added.join(', ')}.`);
      if (entry.worker && added.includes('tools')) {
        await this.stopWorker(entry, 'stopped');
        this.startWorker(entry);
      } else {
        entry.worker?.setGranted([...entry.granted]);
      }
      this.emit({ type: 'extension.changed', extension: this.info(entry) });
      return this.info(entry);
    });
  }

  /**
   * Revoking `tools` unregisters every tool of the extension and ends its in-flight calls with
   * PERMISSION_DENIED; revoking `generation` aborts its running generations the same way.
   */
  async revoke(id: string, permissions: ExtensionPermission[]): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      const removed = permissions.filter((p) => entry.granted.has(p));
      if (removed.length === 0) return this.info(entry);
      for (const permission of removed) entry.granted.delete(permission);
      if (removed.includes('tools')) {
        this.dropTools(entry);
        entry.worker?.rejectInFlight(
          { code: 'PERMISSION_DENIED', message: `The tools permission of extension "${id}" was revoked while this call was running.` },
          'permission_revoked',
        );
      }
      if (removed.includes('generation')) {
        this.generations.abortAll(id, { code: 'PERMISSION_DENIED', message: `The generation permission of extension "${id}" was revoked while this generation was running.` });
      }
      entry.worker?.setGranted([...entry.granted]);
      this.appendLog(entry, 'info', 'host', `Revoked: ${removed.join(', ')}.`);
      await this.persist(entry);
      this.emit({ type: 'extension.changed', extension: this.info(entry) });
      return this.info(entry);
    });
  }

  /** Stops every worker (calls in flight end with HOST_SHUTDOWN) and cancels pending restarts. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const shutdown: HostError = { code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' };
    this.generations.dispose(shutdown);
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        if (entry.restartTimer) clearTimeout(entry.restartTimer);
        entry.restartTimer = null;
        if (entry.worker) await entry.worker.stop(shutdown);
        if (entry.status === 'starting' || entry.status === 'running' || entry.status === 'crashed') this.setStatus(entry, 'stopped', null);
      }),
    );
    this.listeners.clear();
  }

  // ---- internals ----

  private scan(dir: string, source: ExtensionSource): void {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const dirent of names.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!dirent.isDirectory() || dirent.name.startsWith('.')) continue;
      const folder = path.join(dir, dirent.name);
      let loaded: LoadedManifest | null = null;
      let error: HostError | null = null;
      try {
        loaded = readManifest(folder);
      } catch (err) {
        error = err instanceof HostFailure ? err.error : { code: 'INVALID_MANIFEST', message: (err as Error).message };
      }
      const id = loaded?.manifest.id ?? (EXTENSION_ID_PATTERN.test(dirent.name) ? dirent.name : `invalid-${dirent.name.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 40) || 'folder'}`);
      if (this.entries.has(id)) {
        this.log.warn(`extensions: ${folder} has id "${id}", which is already taken; skipped`);
        continue;
      }
      const entry = this.createEntry(id, source, folder, loaded);
      if (!loaded) {
        entry.status = 'failed';
        entry.error = error;
        this.appendLog(entry, 'error', 'host', `Invalid manifest: ${error?.message}${error?.path ? ` (at ${error.path})` : ''}`);
      } else {
        const saved = this.options.state.getState(id);
        const defaults = this.options.bundledDefaults ?? { enabled: true, grantRequested: true };
        const requested = loaded.manifest.permissions;
        if (saved) {
          entry.enabled = saved.enabled;
          entry.granted = new Set(requested.filter((p) => saved.granted.includes(p)));
        } else if (source === 'bundled') {
          entry.enabled = defaults.enabled;
          entry.granted = new Set(defaults.grantRequested ? requested : []);
        }
        entry.status = entry.enabled ? 'stopped' : 'disabled';
      }
      this.entries.set(id, entry);
    }
  }

  private createEntry(id: string, source: ExtensionSource, folder: string, loaded: LoadedManifest | null): Entry {
    const restart = this.options.restart ?? {};
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
      log: new ExtensionLog(),
      tracker: new CrashTracker({ ...restart, clock: this.clock }),
      restartTimer: null,
      ops: Promise.resolve(),
      logWindow: { start: 0, count: 0, suppressed: 0 },
    };
  }

  private entry(id: string): Entry {
    return this.entries.get(id) ?? notFound(id);
  }

  private manifestOf(entry: Entry): ExtensionManifest {
    if (!entry.loaded) throw new HostFailure(entry.error ?? { code: 'INVALID_MANIFEST', message: `Extension "${entry.id}" has no valid manifest.` });
    return entry.loaded.manifest;
  }

  private checkGrantable(manifest: ExtensionManifest, permissions: readonly string[]): ExtensionPermission[] {
    permissions.forEach((permission, index) => {
      if (!EXTENSION_PERMISSIONS.includes(permission as ExtensionPermission)) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `Unknown permission ${JSON.stringify(permission)}.`, path: `/permissions/${index}` });
      }
      if (!manifest.permissions.includes(permission as ExtensionPermission)) {
        throw new HostFailure({
          code: 'INVALID_INPUT',
          message: `Extension "${manifest.id}" does not request the ${permission} permission.`,
          path: `/permissions/${index}`,
        });
      }
    });
    return [...new Set(permissions as ExtensionPermission[])];
  }

  /** Runs one state change of an extension after the previous one finished. */
  private enqueue<T>(entry: Entry, op: () => Promise<T> | T): Promise<T> {
    const run = entry.ops.then(op, op);
    entry.ops = run.catch(() => undefined);
    return run;
  }

  private async persist(entry: Entry): Promise<void> {
    await this.options.state.setState(entry.id, { enabled: entry.enabled, granted: [...entry.granted] });
  }

  private startWorker(entry: Entry): void {
    if (this.disposed || entry.worker) return;
    if (entry.restartTimer) clearTimeout(entry.restartTimer);
    entry.restartTimer = null;
    // A manual restart re-reads the manifest, so a fixed spindle.json takes effect.
    try {
      entry.loaded = readManifest(entry.folder);
    } catch (err) {
      entry.loaded = null;
      const error = err instanceof HostFailure ? err.error : { code: 'INVALID_MANIFEST', message: (err as Error).message };
      this.appendLog(entry, 'error', 'host', `Invalid manifest: ${error.message}${error.path ? ` (at ${error.path})` : ''}`);
      this.setStatus(entry, 'failed', error);
      return;
    }
    const { manifest, folder } = entry.loaded;
    const dataPath = path.join(this.dataRoot, entry.id);
    fs.mkdirSync(dataPath, { recursive: true });
    const worker: WorkerHost = new WorkerHost({
      manifest,
      extensionPath: folder,
      dataPath,
      granted: [...entry.granted],
      launcher: this.options.launcher,
      entry: this.options.workerEntry,
      clock: this.clock,
      ...(this.options.worker ? { timings: this.options.worker } : {}),
      callbacks: {
        onReady: () => {
          if (entry.worker !== worker) return;
          this.setStatus(entry, 'running', null);
          this.options.sink.setSourceStatus(entry.id, 'available');
        },
        onRegisterTool: (tool) => {
          if (entry.worker === worker) this.registerTool(entry, worker, tool);
        },
        onUnregisterTool: (name) => {
          if (entry.worker !== worker || !entry.tools.delete(name)) return;
          this.options.sink.unregister(entry.id, name);
          this.emit({ type: 'extension.changed', extension: this.info(entry) });
        },
        onLog: (level, source, text) => this.appendLog(entry, level, source, text),
        onGenerateRequest: (message) => {
          if (entry.worker === worker) this.generations.request(entry.id, worker, message, () => entry.worker === worker && entry.granted.has('generation'));
        },
        onGenerateCancel: (requestId) => this.generations.cancel(entry.id, worker, requestId),
        onExit: (exit) => this.onWorkerExit(entry, worker, exit),
      },
    });
    entry.worker = worker;
    this.setStatus(entry, 'starting', null);
    worker.start();
  }

  private registerTool(entry: Entry, worker: WorkerHost, tool: ToolRegistrationDTO): void {
    const name = clipName((tool as { name?: unknown }).name);
    if (!entry.granted.has('tools')) {
      this.appendLog(entry, 'warn', 'host', `registerTool("${name}") refused: the tools permission is not granted.`);
      worker.denyPermission('tools', 'registerTool');
      return;
    }
    let outcome: { ok: true } | { ok: false; error: HostError };
    try {
      outcome = this.options.sink.register({ kind: 'extension', id: entry.id }, tool, worker);
    } catch (err) {
      outcome = { ok: false, error: { code: 'INTERNAL', message: (err as Error).message } };
    }
    if (!outcome.ok) {
      const { error } = outcome;
      this.appendLog(entry, 'error', 'host', `registerTool("${name}") failed: ${error.code}: ${error.message}${error.path ? ` (at ${error.path})` : ''}`);
      worker.reportError('registerTool', error);
      return;
    }
    entry.tools.add((tool as { name: string }).name);
    this.emit({ type: 'extension.changed', extension: this.info(entry) });
  }

  private onWorkerExit(entry: Entry, worker: WorkerHost, exit: WorkerExit): void {
    if (entry.worker !== worker) return;
    entry.worker = null;
    this.generations.abortAll(entry.id, { code: 'WORKER_CRASHED', message: `Extension "${entry.id}" stopped while this generation was running.` });
    this.dropTools(entry);
    this.options.sink.setSourceStatus(entry.id, 'unavailable');
    if (exit.expected || this.disposed) return;
    const error: HostError = {
      code: exit.reason === 'unresponsive' ? 'WORKER_UNRESPONSIVE' : 'WORKER_CRASHED',
      message: `Extension "${entry.id}" ${exit.reason === 'unresponsive' ? 'stopped responding' : `stopped (${exit.reason}${exit.exitCode !== null ? `, exit code ${exit.exitCode}` : ''})`}.`,
    };
    const decision = entry.tracker.recordCrash();
    if (decision.action === 'fail') {
      const failed = { ...error, hint: `It stopped ${decision.crashesInWindow} times within 5 minutes; restart it by hand once fixed.` };
      this.appendLog(entry, 'error', 'host', `Marked failed after ${decision.crashesInWindow} crashes within 5 minutes; it will not restart by itself.`);
      this.log.warn(`extensions: ${entry.id} failed (${exit.reason})`);
      this.setStatus(entry, 'failed', failed);
      return;
    }
    this.appendLog(entry, 'warn', 'host', `Restarting in ${decision.delayMs} ms (crash ${decision.crashesInWindow} within 5 minutes).`);
    this.log.warn(`extensions: ${entry.id} crashed (${exit.reason}); restarting in ${decision.delayMs} ms`);
    this.setStatus(entry, 'crashed', error);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = null;
      void this.enqueue(entry, () => {
        if (entry.enabled && entry.status === 'crashed') this.startWorker(entry);
      });
    }, decision.delayMs);
  }

  private async stopWorker(entry: Entry, status: 'stopped' | 'disabled'): Promise<void> {
    if (entry.restartTimer) clearTimeout(entry.restartTimer);
    entry.restartTimer = null;
    const worker = entry.worker;
    if (worker) {
      this.generations.abortAll(entry.id, { code: 'CANCELLED', message: `Extension "${entry.id}" was stopped while this generation was running.` });
      await worker.stop({ code: 'TOOL_UNAVAILABLE', message: `Extension "${entry.id}" was stopped while this call was running.` });
    }
    this.setStatus(entry, entry.loaded || status === 'disabled' ? status : 'failed', status === 'disabled' ? null : entry.error);
  }

  private dropTools(entry: Entry): void {
    const had = entry.tools.size > 0;
    entry.tools.clear();
    this.options.sink.unregisterAll(entry.id);
    if (had) this.emit({ type: 'extension.changed', extension: this.info(entry) });
  }

  private setStatus(entry: Entry, status: ExtensionStatus, error: HostError | null): void {
    if (entry.status === status && entry.error === error) return;
    entry.status = status;
    entry.error = error;
    this.emit({ type: 'extension.status', id: entry.id, status, error });
    if (this.entries.get(entry.id) === entry) this.emit({ type: 'extension.changed', extension: this.info(entry) });
  }

  private appendLog(entry: Entry, level: LogLevel, source: LogSource, text: string): void {
    const now = this.clock.now();
    const window = entry.logWindow;
    if (now - window.start >= 1000) {
      const suppressed = window.suppressed;
      window.start = now;
      window.count = 0;
      window.suppressed = 0;
      if (suppressed > 0) this.appendLog(entry, 'info', 'host', `${suppressed} log lines were stored without being streamed (more than ${MAX_LOG_EVENTS_PER_SECOND} per second).`);
    }
    for (const line of entry.log.append(now, level, source, text)) {
      if (++window.count > MAX_LOG_EVENTS_PER_SECOND) window.suppressed++;
      else this.emit({ type: 'extension.log', id: entry.id, entry: line });
    }
  }

  private info(entry: Entry): ExtensionInfo {
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
    };
    if (entry.error) {
      info.error = entry.error.hint ? `${entry.error.message} ${entry.error.hint}` : entry.error.message;
      info.errorCode = entry.error.code;
    }
    return info;
  }

  private emit(event: ExtensionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.log.error('extension event listener failed', err);
      }
    }
  }
}

/** Copies an extension folder: regular files and folders only (symlinks are skipped), bounded in count and size. */
function copyExtensionFolder(from: string, to: string): void {
  let files = 0;
  let bytes = 0;
  const walk = (src: string, dst: string) => {
    for (const dirent of fs.readdirSync(src, { withFileTypes: true })) {
      const s = path.join(src, dirent.name);
      const d = path.join(dst, dirent.name);
      if (dirent.isDirectory()) {
        fs.mkdirSync(d);
        walk(s, d);
      } else if (dirent.isFile()) {
        bytes += fs.statSync(s).size;
        if (++files > MAX_INSTALL_FILES || bytes > MAX_INSTALL_BYTES) {
          throw new HostFailure({
            code: 'INPUT_TOO_LARGE',
            message: `The extension folder has more than ${MAX_INSTALL_FILES} files or ${MAX_INSTALL_BYTES / 1024 / 1024} MB.`,
          });
        }
        fs.copyFileSync(s, d);
      }
    }
  };
  walk(from, to);
}

