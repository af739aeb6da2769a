// What an extension may do, changed by a person: grants, revocations, trust. Each takes effect at once.
import { HostFailure } from '../../../shared/errors';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { Entry } from './extension-entry';
import type { EntryServices } from './entry-services';
import type { ExtensionInfo } from './extension-types';
import { grantable } from './install/manifest';
import type { SpindleHost } from './spindle-host/spindle-host';
import type { WorkerSupervisor } from './workers/worker-supervisor';

export interface AccessHooks {
  workers: WorkerSupervisor;
  spindle: SpindleHost;
}

export class ExtensionAccess {
  constructor(
    private readonly services: EntryServices,
    private readonly deps: AccessHooks,
  ) {}

  /**
   * Grants permissions the manifest requests (and, `unrequested`, ones it does not: the person's choice). Granting
   * `tools`, or a permission a registration at load was refused for, to a running worker restarts it so its
   * registrations go through.
   */
  async grant(entry: Entry, permissions: ExtensionPermission[], options: { unrequested?: boolean } = {}): Promise<ExtensionInfo> {
    const { services, deps } = this;
    if (!entry.loaded) throw new HostFailure(entry.error ?? { code: 'INVALID_MANIFEST', message: `Extension "${entry.id}" has no valid manifest.` });
    const wanted = grantable(entry.loaded.manifest, permissions, options);
    return services.enqueue(entry, async () => {
      const added = wanted.filter((p) => !entry.granted.has(p));
      if (added.length === 0) return services.info(entry);
      // A registration refused at load for want of one of these (an interceptor…) goes through only at a new load.
      const refusedAtLoad = deps.spindle.facts(entry.id).refused.some((line) => added.some((p) => line.startsWith(`${p} — register`)));
      for (const permission of added) {
        entry.granted.add(permission);
        deps.spindle.permissionGranted(entry.id, permission);
      }
      await services.persist(entry);
      const unasked = added.filter((p) => !entry.loaded!.manifest.permissions.includes(p));
      services.log(entry, 'info', 'host', `Granted: ${added.join(', ')}${unasked.length ? ` (not requested by its manifest: ${unasked.join(', ')})` : ''}.`);
      if (entry.worker && (added.includes('tools') || refusedAtLoad)) {
        await deps.workers.stop(entry, 'stopped');
        deps.workers.start(entry);
      } else {
        entry.worker?.setGranted([...entry.granted]);
      }
      services.changed(entry);
      return services.info(entry);
    });
  }

  /**
   * Revoking `tools` unregisters every tool of the extension and ends its in-flight calls with
   * PERMISSION_DENIED; revoking `generation` aborts its running generations the same way.
   */
  revoke(entry: Entry, permissions: ExtensionPermission[]): Promise<ExtensionInfo> {
    const { services, deps } = this;
    return services.enqueue(entry, async () => {
      const removed = permissions.filter((p) => entry.granted.has(p));
      if (removed.length === 0) return services.info(entry);
      for (const permission of removed) entry.granted.delete(permission);
      if (removed.includes('tools')) {
        deps.workers.dropTools(entry);
        entry.worker?.rejectInFlight({ code: 'PERMISSION_DENIED', message: `The tools permission of extension "${entry.id}" was revoked while this call was running.` }, 'permission_revoked');
      }
      if (removed.includes('generation')) {
        deps.spindle.abortAll(entry.id, { code: 'PERMISSION_DENIED', message: `The generation permission of extension "${entry.id}" was revoked while this generation was running.` });
      }
      deps.spindle.permissionRevoked(entry.id);
      entry.worker?.setGranted([...entry.granted]);
      services.log(entry, 'info', 'host', `Revoked: ${removed.join(', ')}.`);
      await services.persist(entry);
      services.changed(entry);
      return services.info(entry);
    });
  }

  setTrusted(entry: Entry, trusted: boolean): Promise<ExtensionInfo> {
    const { services } = this;
    return services.enqueue(entry, async () => {
      entry.trusted = trusted;
      await services.persist(entry);
      services.log(entry, 'info', 'host', trusted ? 'Trusted: its tools run without asking, except those that declare mode "write" or requires_approval.' : 'No longer trusted: its tools ask before they run.');
      services.changed(entry);
      return services.info(entry);
    });
  }
}
