// Starting, stopping and restarting each extension's worker: registrations into the registry, host requests, crash policy, safe mode.
import { HostFailure, type HostError } from '../../../../shared/errors';
import type { ToolRegistrationDTO } from '../../../../shared/types/spindle';
import type { Clock, Logger, Timers } from '../../ports';
import type { Entry } from '../extension-entry';
import type { EntryServices } from '../entry-services';
import type { ToolSink } from '../extension-types';
import type { Launcher } from './launcher';
import { isolationSummary } from './containment';
import { readManifest } from '../install/manifest';
import type { SafeMode } from './safe-mode';
import type { RequestOrigin, SpindleHost } from '../spindle-host/spindle-host';
import { WorkerHost, type WorkerExit, type WorkerHostTimings } from './worker-host';
import { activeChatSettings, tellBackend } from '../pipeline/pipeline-bridge';

/** What the supervisor needs from the manager that owns the entries. */
export interface SupervisorOptions {
  launcher: Launcher;
  workerEntry: string;
  sink: ToolSink;
  spindle: SpindleHost;
  safeMode: SafeMode;
  clock: Clock;
  timers: Timers;
  log: Logger;
  timings: () => Partial<WorkerHostTimings>;
}

function clipName(value: unknown): string {
  const text = typeof value === 'string' ? value : '(no name)';
  return text.length > 64 ? `${text.slice(0, 64)}… (${text.length} characters)` : text;
}

export class WorkerSupervisor {
  private disposed = false;

  constructor(
    private readonly options: SupervisorOptions,
    private readonly services: EntryServices,
  ) {}

  dispose(): void {
    this.disposed = true;
    // Readiness it reported and safe mode has not written yet.
    this.options.safeMode.flush();
  }

  /** Launches the entry's worker (re-reading its manifest, so a fixed spindle.json takes effect). */
  start(entry: Entry): void {
    if (this.disposed || entry.worker) return;
    this.clearRestart(entry);
    try {
      entry.loaded = readManifest(entry.folder);
    } catch (err) {
      entry.loaded = null;
      const error = err instanceof HostFailure ? err.error : { code: 'INVALID_MANIFEST', message: (err as Error).message };
      this.services.log(entry, 'error', 'host', `Invalid manifest: ${error.message}${error.path ? ` (at ${error.path})` : ''}`);
      this.services.setStatus(entry, 'failed', error);
      return;
    }
    if (entry.loaded.buildSource) {
      const error = { code: 'INVALID_MANIFEST', message: `${entry.loaded.manifest.main} is not built yet.`, hint: 'Install it again with replace (the CLI: --replace): an install builds src/backend.ts into its entry.' };
      this.services.log(entry, 'error', 'host', `${error.message} ${error.hint}`);
      this.services.setStatus(entry, 'failed', error);
      return;
    }
    const { manifest, folder } = entry.loaded;
    if (manifest.main === '') {
      // Frontend only: nothing to launch; its frames load as for any running extension.
      this.options.safeMode.ready(entry.id);
      this.services.log(entry, 'info', 'host', 'Started: it has a frontend and no backend.');
      this.services.setStatus(entry, 'running', null);
      return;
    }
    const worker: WorkerHost = new WorkerHost({
      manifest,
      extensionPath: folder,
      granted: [...entry.granted],
      launcher: this.options.launcher,
      entry: this.options.workerEntry,
      clock: this.options.clock,
      timers: this.options.timers,
      timings: this.options.timings(),
      callbacks: {
        onReady: (isolation) => {
          if (entry.worker !== worker) return;
          this.options.safeMode.ready(entry.id);
          entry.isolation = isolation;
          this.services.log(entry, 'info', 'host', `Started (pid ${worker.pid ?? '?'}), ${isolationSummary(isolation)}.`);
          this.services.setStatus(entry, 'running', null);
          this.options.sink.setSourceStatus(entry.id, 'available');
          // As Lumiverse does for a page that loads with a chat open: the extension learns the active chat.
          const active = this.options.spindle.activeChatId();
          if (active !== null) {
            for (const setting of activeChatSettings(active)) tellBackend(entry, 'SETTINGS_UPDATED', setting);
            tellBackend(entry, 'CHAT_SWITCHED', { chatId: active });
          }
        },
        onRegisterTool: (tool) => {
          if (entry.worker === worker) this.registerTool(entry, worker, tool);
          // security.md R15: only the entry's current worker registers; anything else is ignored and logged.
          else this.services.log(entry, 'warn', 'host', `registerTool("${clipName((tool as { name?: unknown }).name)}") ignored: it came from a worker (pid ${worker.pid ?? '?'}) that is no longer this extension's.`);
        },
        onUnregisterTool: (name) => {
          if (entry.worker !== worker || !entry.tools.delete(name)) return;
          this.options.sink.unregister(entry.id, name);
          this.services.changed(entry);
        },
        onEventsWanted: () => {
          if (entry.worker === worker) this.services.changed(entry);
        },
        onLog: (level, source, text) => this.services.log(entry, level, source, text),
        // Only the entry's current worker is answered (security.md R15).
        onRequest: (method, params, call) =>
          entry.worker === worker
            ? this.options.spindle.answer(origin, method, params, call)
            : Promise.resolve({ ok: false, error: { code: 'TOOL_UNAVAILABLE', message: `Extension "${entry.id}" is no longer this worker's.` } }),
        onExit: (exit) => this.onExit(entry, worker, exit),
      },
    });
    const origin: RequestOrigin = {
      extensionId: entry.id,
      denyPermission: (permission, operation) => worker.denyPermission(permission, operation),
      allowed: (permission) => entry.worker === worker && entry.granted.has(permission),
      processes: worker.processes,
    };
    entry.worker = worker;
    this.services.setStatus(entry, 'starting', null);
    worker.start();
  }

  /** Stops the worker on purpose; in-flight calls end with TOOL_UNAVAILABLE. */
  async stop(entry: Entry, status: 'stopped' | 'disabled', error: HostError = { code: 'TOOL_UNAVAILABLE', message: `Extension "${entry.id}" was stopped while this call was running.` }): Promise<void> {
    this.clearRestart(entry);
    const worker = entry.worker;
    if (worker) {
      this.options.spindle.abortAll(entry.id, { code: 'CANCELLED', message: `Extension "${entry.id}" was stopped while this request was running.` });
      await worker.stop(error);
    }
    this.services.setStatus(entry, entry.loaded || status === 'disabled' ? status : 'failed', status === 'disabled' ? null : entry.error);
  }

  dropTools(entry: Entry): void {
    const had = entry.tools.size > 0;
    entry.tools.clear();
    this.options.sink.unregisterAll(entry.id);
    if (had) this.services.changed(entry);
  }

  clearRestart(entry: Entry): void {
    if (entry.restartTimer !== null) this.options.timers.clearTimeout(entry.restartTimer);
    entry.restartTimer = null;
  }

  private registerTool(entry: Entry, worker: WorkerHost, tool: ToolRegistrationDTO): void {
    const name = clipName((tool as { name?: unknown }).name);
    if (!entry.granted.has('tools')) {
      this.services.log(entry, 'warn', 'host', `registerTool("${name}") refused: the tools permission is not granted.`);
      this.options.spindle.noteRefused(entry.id, 'tools', 'registerTool');
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
      this.services.log(entry, 'error', 'host', `registerTool("${name}") failed: ${error.code}: ${error.message}${error.path ? ` (at ${error.path})` : ''}`);
      worker.reportError('registerTool', error);
      return;
    }
    entry.tools.add((tool as { name: string }).name);
    this.services.log(entry, 'info', 'host', `Tool registered: ${name} (${entry.tools.size} in all).`);
    this.services.changed(entry);
  }

  private onExit(entry: Entry, worker: WorkerHost, exit: WorkerExit): void {
    if (entry.worker !== worker) return;
    entry.worker = null;
    this.options.spindle.abortAll(entry.id, { code: 'WORKER_CRASHED', message: `Extension "${entry.id}" stopped while this request was running.` });
    this.options.spindle.workerStopped(entry.id);
    this.dropTools(entry);
    this.options.sink.setSourceStatus(entry.id, 'unavailable');
    if (exit.expected || this.disposed) {
      this.services.log(entry, 'info', 'host', 'Stopped.');
      return;
    }
    if (exit.crashLine) entry.lastCrash = exit.crashLine;
    const why = exit.crashLine ?? exit.detail ?? `${exit.reason}${exit.exitCode !== null ? `, exit code ${exit.exitCode}` : ''}`;
    const code = { unresponsive: 'WORKER_UNRESPONSIVE', protocol: 'WORKER_PROTOCOL', memory: 'WORKER_MEMORY' }[exit.reason as string] ?? 'WORKER_CRASHED';
    const error: HostError = { code, message: `Extension "${entry.id}" ${exit.reason === 'unresponsive' ? 'stopped responding' : 'stopped'}: ${why}.` };
    this.services.log(entry, 'error', 'host', `Crashed: ${why}`);
    // Died before it was ready: a failed start, counted towards safe mode across host starts.
    if (entry.status === 'starting') {
      const failures = this.options.safeMode.failedToStart(entry.id);
      if (failures >= 3) this.services.log(entry, 'error', 'host', `It failed to start ${failures} times in a row; the next host start holds it disabled (safe mode).`);
    }
    const decision = entry.tracker.recordCrash();
    if (decision.action === 'fail') {
      this.services.log(entry, 'error', 'host', `Marked failed after ${decision.crashesInWindow} crashes within 5 minutes; it will not restart by itself.`);
      this.options.log.warn(`extensions: ${entry.id} failed (${exit.reason})`);
      this.services.setStatus(entry, 'failed', { ...error, hint: `It stopped ${decision.crashesInWindow} times within 5 minutes; restart it by hand once fixed.` });
      return;
    }
    this.services.log(entry, 'warn', 'host', `Restarting in ${decision.delayMs} ms (crash ${decision.crashesInWindow} within 5 minutes).`);
    this.options.log.warn(`extensions: ${entry.id} crashed (${exit.reason}); restarting in ${decision.delayMs} ms`);
    this.services.setStatus(entry, 'crashed', error);
    entry.restartTimer = this.options.timers.setTimeout(() => {
      entry.restartTimer = null;
      void this.services.enqueue(entry, () => {
        if (entry.enabled && entry.status === 'crashed') {
          this.services.log(entry, 'info', 'host', 'Restarting.');
          this.start(entry);
        }
      });
    }, decision.delayMs);
  }
}
