// All extensions: discovery (bundled and user-installed), install/remove, enable/disable, permissions, logs.
import { runCommand } from './run-command';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import { silentLogger, systemClock, systemTimers, type Clock, type Logger } from '../ports';
import { Emitter } from '../util/emitter';
import { waitUntil } from '../util/wait-until';
import { createEntry, entryFromScan, infoOf, showsFrontend, type Entry } from './extension-entry';
import { withExtensionFolder, withUploadedZip } from './install/extension-zip';
import { formatLogEntry, type ExtensionLogEntry, type LogSource } from './extension-log';
import type { EntryServices } from './entry-services';
import { ExtensionLogFiles } from './extension-log-file';
import type {
  ExtensionEvent,
  ExtensionEventListener,
  ExtensionManagerOptions,
  ExtensionInfo,
  ExtensionSource,
  ExtensionStatus,
  InstallOptions,
} from './extension-types';
import { readManifest, type LoadedManifest } from './install/manifest';
import { ExtensionAccess } from './extension-access';
import { ExtensionInstalls } from './extension-installs';
import { ExtensionStarts } from './extension-starts';
import { scanExtensions } from './install/extension-scan';
import { SafeMode } from './workers/safe-mode';
import { createSpindleHost, type SpindleHost } from './spindle-host/spindle-host';
import { extensionPipeline, FRONTEND_MESSAGE_BUDGET, peerWorker, type ExtensionPipeline } from './pipeline/pipeline-bridge';
import { RecentAmount } from './per-extension-limits';
import { WorkerSupervisor } from './workers/worker-supervisor';
import { providerAccess, type ProviderAccess } from './provider-access';
import { ExtensionFrames } from './extension-frames';

export type * from './extension-types';


/** The repository's bundled extensions, for running from source. */
export function bundledExtensionsSource(): string {
  return fileURLToPath(new URL('../../../resources/extensions', import.meta.url));
}

function notFound(id: string): never {
  throw new HostFailure({ code: 'NOT_FOUND', message: `No extension "${id.length > 64 ? `${id.slice(0, 64)}…` : id}".` });
}

export class ExtensionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly events: Emitter<ExtensionEvent>;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly userDir: string;
  /** The logs on disk: what earlier processes on this data folder wrote too. */
  readonly logFiles: ExtensionLogFiles;
  private readonly safeMode: SafeMode;
  private readonly spindle: SpindleHost;
  private readonly workers: WorkerSupervisor;
  private readonly access: ExtensionAccess;
  private readonly installs: ExtensionInstalls;
  private readonly starts: ExtensionStarts;
  private disposed = false;
  /** What each frontend has sent its backend lately (the pipeline's budget for it, kept across its bridges). */
  private readonly frontendBudget: RecentAmount;
  /** What its frames reach: the files, images and pictures their origins serve, and their `/api/v1/…` requests. */
  readonly frames: ExtensionFrames;

  constructor(private readonly options: ExtensionManagerOptions) {
    this.clock = options.clock ?? systemClock;
    this.frontendBudget = new RecentAmount(FRONTEND_MESSAGE_BUDGET.chars, FRONTEND_MESSAGE_BUDGET.windowMs, () => this.clock.now());
    this.log = options.log ?? silentLogger;
    this.events = new Emitter((err) => this.log.error('extension event listener failed', err));
    this.userDir = path.join(options.dataDir, 'extensions');
    this.logFiles = new ExtensionLogFiles(path.join(options.dataDir, 'logs', 'extensions'));
    this.safeMode = new SafeMode(options.dataDir, this.log);
    this.spindle = createSpindleHost({
      dataRoot: path.join(options.dataDir, 'extension-data'),
      clock: this.clock,
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.generator ? { generator: options.generator } : {}),
      ...(options.redactor ? { redactor: options.redactor } : {}),
      ...(options.generation ? { limits: options.generation } : {}),
      ...(options.spindle ? { deps: options.spindle } : {}),
      log: (id, level, text) => {
        const entry = this.entries.get(id);
        if (entry) this.appendLog(entry, level, 'host', text);
      },
      changed: (id) => {
        const entry = this.entries.get(id);
        if (entry) this.changed(entry);
      },
      denied: (id, permission, operation) => this.entries.get(id)?.worker?.denyPermission(permission, operation),
      toFrontend: (id, payload) => this.events.emit({ type: 'extension.frontend-message', id, payload }),
      toast: (id, toast) => this.events.emit({ type: 'extension.toast', id, toast }),
      navigate: (id, to) => this.events.emit({ type: 'extension.ui', id, ...to }),
      dialogEvent: (event) => this.events.emit(event),
      peer: (id) => peerWorker(this.entries.get(id), this.clock),
    });
    this.frames = new ExtensionFrames(this.entries, this.spindle, this.clock);
    const services: EntryServices = {
      entries: this.entries,
      enqueue: (entry, op) => this.enqueue(entry, op),
      persist: (entry) => this.persist(entry),
      setStatus: (entry, status, error) => this.setStatus(entry, status, error),
      log: (entry, level, source, text) => this.appendLog(entry, level, source, text),
      changed: (entry) => this.changed(entry),
      info: (entry) => this.info(entry),
      emit: (event) => this.events.emit(event),
      newEntry: (id, source, folder, loaded) => this.newEntry(id, source, folder, loaded),
      disposed: () => this.disposed,
    };
    const worker = options.worker;
    this.workers = new WorkerSupervisor(
      {
        launcher: options.launcher,
        workerEntry: options.workerEntry,
        sink: options.sink,
        spindle: this.spindle,
        safeMode: this.safeMode,
        clock: this.clock,
        timers: options.timers ?? systemTimers,
        log: this.log,
        timings: typeof worker === 'function' ? worker : () => worker ?? {},
      },
      services,
    );
    this.access = new ExtensionAccess(services, { workers: this.workers, spindle: this.spindle });
    this.starts = new ExtensionStarts(services, { workers: this.workers, safeMode: this.safeMode });
    this.installs = new ExtensionInstalls(services, {
      dataDir: options.dataDir,
      userDir: this.userDir,
      workerEntry: options.workerEntry,
      state: options.state,
      workers: this.workers,
      safeMode: this.safeMode,
      spindle: this.spindle,
    });
  }

  /** Reads every installed extension; with start (the default), starts the enabled ones safe mode does not hold back. */
  async init(options: { start?: boolean } = {}): Promise<void> {
    const bundledDir = this.options.bundledDir === undefined ? bundledExtensionsSource() : this.options.bundledDir;
    if (bundledDir) this.scan(bundledDir, 'bundled');
    fs.mkdirSync(this.userDir, { recursive: true });
    // Staging folders left by an install that was interrupted.
    for (const name of fs.readdirSync(this.userDir)) {
      if (name.startsWith('.install-')) fs.rmSync(path.join(this.userDir, name), { recursive: true, force: true });
    }
    this.scan(this.userDir, 'user');
    if (options.start !== false) await this.startEnabled();
  }

  /** Starts the enabled extensions safe mode does not hold back (see extension-starts.ts; `spread`: a door's start). */
  startEnabled(options: { spread?: boolean } = {}): Promise<void> {
    return this.starts.startEnabled(options);
  }

  /**
   * Resolves once no extension is still starting (each is running, failed or stopped), or after
   * `timeoutMs`: the CLI waits for this so `tools list` sees what the extensions register on load.
   */
  /** Resolves once the extension's worker has delivered everything it sent so far (the test bench reads its log then). */
  async workerCaughtUp(id: string): Promise<void> {
    await this.entries.get(id)?.worker?.caughtUpNow();
  }

  async whenSettled(timeoutMs = 10_000): Promise<void> {
    await waitUntil(() => ![...this.entries.values()].some((e) => e.status === 'starting'), (listener) => this.onEvent(listener), timeoutMs, this.options.timers);
  }

  onEvent(listener: ExtensionEventListener): () => void {
    return this.events.on(listener);
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

  /** Installs from a folder (see extension-installs.ts). */
  installFromFolder(folder: string, options: InstallOptions = {}, progress: (line: string) => void = () => undefined): Promise<ExtensionInfo> {
    return this.installs.fromFolder(folder, options, progress);
  }

  /** Runs `use` on an uploaded .zip, staged in the extensions folder and removed afterwards (see extension-zip.ts). */
  withUpload<T>(upload: { fileName: string; bytes: Buffer }, use: (zipPath: string) => Promise<T>): Promise<T> {
    return withUploadedZip(upload, this.userDir, use);
  }

  /** The manifest of a folder or a .zip file (unpacked into a staging folder and removed again), before installing it. */
  inspect(source: string): Promise<LoadedManifest> {
    return withExtensionFolder(source, this.userDir, () => undefined, async (folder) => readManifest(folder));
  }

  /** Installs from a folder or a .zip file (unpacked first, bounded; see extension-zip.ts). */
  install(source: string, options: InstallOptions = {}, progress: (line: string) => void = () => undefined): Promise<ExtensionInfo> {
    return withExtensionFolder(source, this.userDir, progress, (folder) => this.installs.fromFolder(folder, options, progress));
  }

  async enable(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      if (!entry.enabled) {
        entry.enabled = true;
        await this.persist(entry);
      }
      entry.safeMode = false;
      this.safeMode.reset(id);
      if (!entry.worker && entry.status !== 'running') {
        entry.tracker.reset();
        this.workers.start(entry);
      }
      this.changed(entry);
      return this.info(entry);
    });
  }

  /** Whether its tools that declare no mode run without asking (the guard asks this on every call). */
  isTrusted(id: string): boolean {
    return this.entries.get(id)?.trusted === true;
  }

  /** Lets its tools that declare no mode run without asking, or not. */
  setTrusted(id: string, trusted: boolean): Promise<ExtensionInfo> {
    return this.access.setTrusted(this.entry(id), trusted);
  }

  async disable(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      entry.enabled = false;
      await this.persist(entry);
      await this.workers.stop(entry, 'disabled');
      this.changed(entry);
      return this.info(entry);
    });
  }

  /** Manual restart: a fresh crash budget and a fresh read of the manifest. */
  async restart(id: string): Promise<ExtensionInfo> {
    const entry = this.entry(id);
    return this.enqueue(entry, async () => {
      if (!entry.enabled) throw new HostFailure({ code: 'CONFLICT', message: `Extension "${id}" is disabled.`, hint: 'Enable it to start it.' });
      // A frontend-only extension runs with no worker: stopped too, so its frames load again.
      if (entry.worker || entry.status === 'running') await this.workers.stop(entry, 'stopped');
      entry.tracker.reset();
      this.safeMode.reset(id);
      this.workers.start(entry);
      return this.info(entry);
    });
  }

  /** Removes a user-installed extension's folder. Its data folder is kept. */
  remove(id: string): Promise<void> {
    return this.installs.remove(this.entry(id));
  }

  /** Grants permissions the manifest requests (see extension-access.ts). */
  grant(id: string, permissions: ExtensionPermission[], options: { unrequested?: boolean } = {}): Promise<ExtensionInfo> {
    return this.access.grant(this.entry(id), permissions, options);
  }

  /** Revokes permissions, ending what they allowed at once (see extension-access.ts). */
  revoke(id: string, permissions: ExtensionPermission[]): Promise<ExtensionInfo> {
    return this.access.revoke(this.entry(id), permissions);
  }

  /** Stops every worker (calls in flight end with HOST_SHUTDOWN) and cancels pending restarts. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.starts.dispose();
    this.workers.dispose();
    const shutdown: HostError = { code: 'HOST_SHUTDOWN', message: 'The host is shutting down.' };
    this.spindle.dispose(shutdown);
    await Promise.all(
      [...this.entries.values()].map(async (entry) => {
        this.workers.clearRestart(entry);
        if (entry.worker) await entry.worker.stop(shutdown);
        if (entry.status === 'starting' || entry.status === 'running' || entry.status === 'crashed') this.setStatus(entry, 'stopped', null);
      }),
    );
    this.events.clear();
    await this.logFiles.close();
  }

  // ---- internals ----

  private scan(dir: string, source: ExtensionSource): void {
    for (const found of scanExtensions(dir)) {
      if (this.entries.has(found.id)) {
        this.log.warn(`extensions: ${found.folder} has id "${found.id}", which is already taken; skipped`);
        continue;
      }
      const defaults = this.options.bundledDefaults ?? { enabled: true, grantRequested: true };
      const entry = entryFromScan(this.newEntry(found.id, source, found.folder, found.loaded), found, this.options.state.getState(found.id), defaults);
      if (found.error) this.appendLog(entry, 'error', 'host', `Invalid manifest: ${found.error.message}${found.error.path ? ` (at ${found.error.path})` : ''}`);
      this.entries.set(found.id, entry);
    }
  }

  private newEntry(id: string, source: ExtensionSource, folder: string, loaded: LoadedManifest | null): Entry {
    return createEntry(id, source, folder, loaded, this.clock, this.options.restart, this.logFiles);
  }

  private entry(id: string): Entry {
    return this.entries.get(id) ?? notFound(id);
  }

  /** Runs one state change of an extension after the previous one finished. */
  private enqueue<T>(entry: Entry, op: () => Promise<T> | T): Promise<T> {
    const run = entry.ops.then(op, op);
    entry.ops = run.catch(() => undefined);
    return run;
  }

  private async persist(entry: Entry): Promise<void> {
    const unrequested = [...entry.granted].filter((p) => !entry.loaded?.manifest.permissions.includes(p));
    await this.options.state.setState(entry.id, { enabled: entry.enabled, granted: [...entry.granted], ...(unrequested.length ? { unrequested } : {}), ...(entry.trusted ? { trusted: true } : {}) });
  }

  private setStatus(entry: Entry, status: ExtensionStatus, error: HostError | null): void {
    if (entry.status === status && entry.error === error) return;
    const was = entry.status;
    entry.status = status;
    entry.error = error;
    // Lumiverse's news of a worker started or stopped, to every extension (LumiState re-reads its peers on them).
    if ((was === 'running') !== (status === 'running')) {
      const name = entry.loaded?.manifest.name ?? entry.id;
      this.pipeline().broadcast(status === 'running' ? 'SPINDLE_EXTENSION_LOADED' : 'SPINDLE_EXTENSION_UNLOADED', { extensionId: entry.id, identifier: entry.id, name });
    }
    this.events.emit({ type: 'extension.status', id: entry.id, status, error });
    if (this.entries.get(entry.id) === entry) this.changed(entry);
  }

  private changed(entry: Entry): void {
    this.events.emit({ type: 'extension.changed', extension: this.info(entry) });
  }

  private appendLog(entry: Entry, level: LogLevel, source: LogSource, text: string): void {
    entry.log.record(this.clock.now(), level, source, text, (line) => this.events.emit({ type: 'extension.log', id: entry.id, line: formatLogEntry(line), source: line.source, text: line.text }));
  }

  private info(entry: Entry): ExtensionInfo {
    return infoOf(entry, this.options.launcher.containment, this.spindle.facts(entry.id));
  }

  /** The host side of spindle.*: registrations for the chat pipeline, variables, the dialogs backends open. */
  get spindleHost(): SpindleHost {
    return this.spindle;
  }

  /** The person runs one of its commands (run-command.ts), in the chat they have open. */
  runCommand(id: string, commandId: string, chatId?: string): void {
    runCommand(this.entry(id), this.spindle.commands, this.spindle.chats(), commandId, chatId);
  }


  /** Providers running extensions offer (sidecar endpoints, drivers), callable in their workers. */
  providers(): ProviderAccess {
    return providerAccess(() => this.entries.values(), this.spindle.providers, this.clock);
  }

  /** Registered handlers and macros of running extensions, callable in their workers, for the chat pipeline. */
  pipeline(): ExtensionPipeline {
    return extensionPipeline(
      () => this.entries.values(),
      this.spindle.registrations,
      this.clock,
      (event, payload) => {
        // Windows hand these only to extensions' frames: with no frame to show, a reply's text is not sent them twice.
        if ([...this.entries.values()].some(showsFrontend)) this.events.emit({ type: 'extension.event', event, payload });
      },
      this.frontendBudget,
    );
  }
}
