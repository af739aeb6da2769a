// One writer at a time across the processes sharing a data folder (the app, a CLI run with --no-host): a lock
// directory kept by proper-lockfile. Waiting for it is asynchronous, so a held lock never blocks the host's thread;
// a lock whose owner died goes stale once its mtime stops being refreshed.
import lockfile from 'proper-lockfile';
import { HostFailure } from '../../../shared/errors';
import type { Logger } from '../ports';

/** About 8 s of retries in all, short at first: a settings write holds the lock for milliseconds. */
const RETRIES = { retries: 40, minTimeout: 5, maxTimeout: 250, factor: 1.5 };
const STALE_MS = 10_000;

/** Runs `work` while holding the lock of `file` (kept at `lockPath`). */
export async function withSettingsLock<T>(file: string, lockPath: string, log: Logger, work: () => T, retries = RETRIES): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      lockfilePath: lockPath,
      realpath: false,
      stale: STALE_MS,
      retries,
      // The default throws from a timer, which would take the host down; losing the lock mid-write is only logged.
      onCompromised: (err) => log.warn('settings: the settings lock was taken over while held', err.message),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    throw new HostFailure({
      code: 'SETTINGS_WRITE_FAILED',
      message: 'Another process kept the settings locked.',
      hint: 'Try again; if it persists, close other Council Workbench windows or CLI runs.',
    });
  }
  try {
    return work();
  } finally {
    await release().catch((err: Error) => log.warn('settings: could not release the settings lock', err.message));
  }
}
