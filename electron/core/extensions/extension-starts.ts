// Starting the enabled extensions as the host opens (or when its door asks): safe mode holds back the ones that kept
// failing, and each of the others starts in its own queue. A door's start spreads the launches over the event loop.
import { nextTurn } from '../util/next-turn';
import type { Entry } from './extension-entry';
import type { EntryServices } from './entry-services';
import type { SafeMode } from './workers/safe-mode';
import type { WorkerSupervisor } from './workers/worker-supervisor';

export interface StartHooks {
  workers: WorkerSupervisor;
  safeMode: SafeMode;
}

export class ExtensionStarts {
  /** Extensions a spread start has not launched yet: safe mode must not count them as failed if the host stops first. */
  private readonly unlaunched = new Set<string>();

  constructor(
    private readonly services: EntryServices,
    private readonly deps: StartHooks,
  ) {}

  /**
   * Starts the enabled extensions safe mode does not hold back. `spread` (a door's start): all show as starting at
   * once, then one process is launched per turn of the event loop, as a launch blocks this thread until the child
   * runs (~25 ms on a busy machine) and the window or page being served would otherwise wait for all of them.
   */
  async startEnabled(options: { spread?: boolean } = {}): Promise<void> {
    const { services, deps } = this;
    const toStart: Entry[] = [];
    for (const entry of services.entries.values()) {
      if (!entry.enabled || !entry.loaded) continue;
      if (!deps.safeMode.holds(entry.id)) {
        toStart.push(entry);
        continue;
      }
      entry.enabled = false;
      entry.safeMode = true;
      entry.status = 'disabled';
      await services.persist(entry);
      const failures = deps.safeMode.held.get(entry.id) ?? 3;
      services.log(entry, 'error', 'host', `Safe mode: it failed to start ${failures} times in a row, so it was started disabled. Enable it when it is fixed.`);
      services.emit({ type: 'extension.safe-mode', id: entry.id, failures });
    }
    deps.safeMode.starting(toStart.map((entry) => entry.id));
    // In the extension's own queue, after whatever a person did to it meanwhile: a disabled, removed or replaced
    // one is not started from here.
    const start = (entry: Entry) =>
      services.enqueue(entry, () => {
        this.unlaunched.delete(entry.id);
        const current = services.entries.get(entry.id) === entry;
        if (current && entry.enabled && !services.disposed()) return deps.workers.start(entry);
        if (current && entry.status === 'starting' && !entry.worker) services.setStatus(entry, entry.enabled ? 'stopped' : 'disabled', null);
      });
    if (!options.spread) {
      await Promise.all(toStart.map(start));
      return;
    }
    for (const entry of toStart) {
      services.setStatus(entry, 'starting', null);
      this.unlaunched.add(entry.id);
    }
    const started: Promise<void>[] = [];
    for (const entry of toStart) {
      await nextTurn();
      started.push(start(entry).catch((err: unknown) => services.log(entry, 'error', 'host', `The worker could not be started: ${(err as Error).message}`)));
    }
    await Promise.all(started);
  }

  /** The host stops: the starts safe mode recorded for workers never launched did not happen. */
  dispose(): void {
    this.deps.safeMode.notStarting([...this.unlaunched]);
  }
}
