// Putting an extension in place and taking it away: staging (copy, build, seed storage), the swap into the
// extensions folder with its worker stopped and started around it, and removal of a user-installed one.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { Entry } from './extension-entry';
import type { EntryServices } from './entry-services';
import type { ExtensionInfo, ExtensionStateStore, InstallOptions } from './extension-types';
import { buildRunnerBeside } from './install/extension-build';
import { checkInstall, stageInstall } from './install/extension-install';
import { readManifest } from './install/manifest';
import type { SpindleHost } from './spindle-host/spindle-host';
import type { SafeMode } from './workers/safe-mode';
import type { WorkerSupervisor } from './workers/worker-supervisor';

export interface InstallHooks {
  dataDir: string;
  userDir: string;
  workerEntry: string;
  state: ExtensionStateStore;
  workers: WorkerSupervisor;
  safeMode: SafeMode;
  spindle: SpindleHost;
}

export class ExtensionInstalls {
  constructor(
    private readonly services: EntryServices,
    private readonly deps: InstallHooks,
  ) {}

  /**
   * Copies a folder into <dataDir>/extensions/<id>, builds it when it ships only src/backend.ts, and
   * seeds its storage. Requested permissions stay ungranted unless `grant` names them ('requested':
   * all it asks for). Progress goes to `progress` (and the extension's log).
   */
  async fromFolder(folder: string, options: InstallOptions, progress: (line: string) => void): Promise<ExtensionInfo> {
    const { services, deps } = this;
    const source = readManifest(folder);
    const { id } = source.manifest;
    const existing = services.entries.get(id);
    const grant = checkInstall(source, existing, options, deps.userDir, services.entries.keys());
    const lines: string[] = [];
    const runner = buildRunnerBeside(deps.workerEntry, path.join(deps.dataDir, 'runtime'));
    const { staging } = await stageInstall(source, deps.userDir, path.join(deps.dataDir, 'extension-data', id, 'storage'), runner, (line) => {
      lines.push(line);
      progress(line);
    });
    const target = path.join(deps.userDir, id);
    const install = async () => {
      if (existing) {
        await deps.workers.stop(existing, 'stopped');
        services.entries.delete(id);
      }
      fs.rmSync(target, { recursive: true, force: true });
      fs.renameSync(staging, target);
      const entry = services.newEntry(id, 'user', target, readManifest(target));
      entry.enabled = options.enable ?? true;
      entry.granted = new Set(grant);
      entry.trusted = options.trust === true;
      entry.status = entry.enabled ? 'stopped' : 'disabled';
      services.entries.set(id, entry);
      deps.safeMode.reset(id);
      await services.persist(entry);
      for (const line of lines) services.log(entry, 'info', 'host', line);
      services.log(entry, 'info', 'host', `Installed ${entry.loaded!.manifest.name} ${entry.loaded!.manifest.version}; granted: ${[...grant].join(', ') || 'nothing'}.`);
      services.changed(entry);
      if (entry.enabled) await services.enqueue(entry, () => deps.workers.start(entry));
      return services.info(entry);
    };
    return existing ? services.enqueue(existing, install) : install();
  }

  /** Removes a user-installed extension's folder. Its data folder is kept. */
  async remove(entry: Entry): Promise<void> {
    const { services, deps } = this;
    const { id } = entry;
    if (entry.source !== 'user') {
      throw new HostFailure({ code: 'CONFLICT', message: `"${id}" is bundled with the app and cannot be removed.`, hint: 'Disable it instead.' });
    }
    await services.enqueue(entry, async () => {
      await deps.workers.stop(entry, 'stopped');
      const real = fs.realpathSync(entry.folder);
      if (path.dirname(real) !== fs.realpathSync(deps.userDir)) throw new HostFailure({ code: 'INTERNAL', message: `Refusing to delete ${real}.` });
      fs.rmSync(real, { recursive: true, force: true });
      services.entries.delete(id);
      deps.spindle.forget(id);
      deps.safeMode.reset(id);
      await deps.state.removeState?.(id);
      services.emit({ type: 'extension.removed', id });
    });
  }
}
