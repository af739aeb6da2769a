// Putting an extension in place and taking it away: staging (copy, build, seed storage), the swap into the
// extensions folder with its worker stopped and started around it, and removal of a user-installed one.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { LogLevel } from '../../../shared/protocol';
import type { Entry } from './extension-entry';
import type { LogSource } from './extension-log';
import type { ExtensionEvent, ExtensionInfo, ExtensionSource, ExtensionStateStore, InstallOptions } from './extension-types';
import { buildRunnerBeside } from './install/extension-build';
import { checkInstall, stageInstall } from './install/extension-install';
import { readManifest, type LoadedManifest } from './install/manifest';
import type { SpindleHost } from './spindle-host/spindle-host';
import type { SafeMode } from './workers/safe-mode';
import type { WorkerSupervisor } from './workers/worker-supervisor';

export interface InstallHooks {
  dataDir: string;
  userDir: string;
  workerEntry: string;
  entries: Map<string, Entry>;
  state: ExtensionStateStore;
  workers: WorkerSupervisor;
  safeMode: SafeMode;
  spindle: SpindleHost;
  newEntry(id: string, source: ExtensionSource, folder: string, loaded: LoadedManifest | null): Entry;
  enqueue<T>(entry: Entry, op: () => Promise<T> | T): Promise<T>;
  persist(entry: Entry): Promise<void>;
  log(entry: Entry, level: LogLevel, source: LogSource, text: string): void;
  changed(entry: Entry): void;
  info(entry: Entry): ExtensionInfo;
  emit(event: ExtensionEvent): void;
}

export class ExtensionInstalls {
  constructor(private readonly hooks: InstallHooks) {}

  /**
   * Copies a folder into <dataDir>/extensions/<id>, builds it when it ships only src/backend.ts, and
   * seeds its storage. Requested permissions stay ungranted unless `grant` names them ('requested':
   * all it asks for). Progress goes to `progress` (and the extension's log).
   */
  async fromFolder(folder: string, options: InstallOptions, progress: (line: string) => void): Promise<ExtensionInfo> {
    const { hooks } = this;
    const source = readManifest(folder);
    const { id } = source.manifest;
    const existing = hooks.entries.get(id);
    const grant = checkInstall(source, existing, options, hooks.userDir, hooks.entries.keys());
    const lines: string[] = [];
    const runner = buildRunnerBeside(hooks.workerEntry, path.join(hooks.dataDir, 'runtime'));
    const { staging } = await stageInstall(source, hooks.userDir, path.join(hooks.dataDir, 'extension-data', id, 'storage'), runner, (line) => {
      lines.push(line);
      progress(line);
    });
    const target = path.join(hooks.userDir, id);
    const install = async () => {
      if (existing) {
        await hooks.workers.stop(existing, 'stopped');
        hooks.entries.delete(id);
      }
      fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(staging, target);
      const entry = hooks.newEntry(id, 'user', target, readManifest(target));
      entry.enabled = options.enable ?? true;
      entry.granted = new Set(grant);
      entry.trusted = options.trust === true;
      entry.status = entry.enabled ? 'stopped' : 'disabled';
      hooks.entries.set(id, entry);
      hooks.safeMode.reset(id);
      await hooks.persist(entry);
      for (const line of lines) hooks.log(entry, 'info', 'host', line);
      hooks.log(entry, 'info', 'host', `Installed ${entry.loaded!.manifest.name} ${entry.loaded!.manifest.version}; granted: ${[...grant].join(', ') || 'nothing'}.`);
      hooks.changed(entry);
      if (entry.enabled) await hooks.enqueue(entry, () => hooks.workers.start(entry));
      return hooks.info(entry);
    };
    return existing ? hooks.enqueue(existing, install) : install();
  }

  /** Removes a user-installed extension's folder. Its data folder is kept. */
  async remove(entry: Entry): Promise<void> {
    const { hooks } = this;
    const { id } = entry;
    if (entry.source !== 'user') {
      throw new HostFailure({ code: 'CONFLICT', message: `"${id}" is bundled with the app and cannot be removed.`, hint: 'Disable it instead.' });
    }
    await hooks.enqueue(entry, async () => {
      await hooks.workers.stop(entry, 'stopped');
      const real = fs.realpathSync(entry.folder);
      if (path.dirname(real) !== fs.realpathSync(hooks.userDir)) throw new HostFailure({ code: 'INTERNAL', message: `Refusing to delete ${real}.` });
      fs.rmSync(real, { recursive: true, force: true });
      hooks.entries.delete(id);
      hooks.spindle.forget(id);
      hooks.safeMode.reset(id);
      await hooks.state.removeState?.(id);
      hooks.emit({ type: 'extension.removed', id });
    });
  }
}
