// One writer at a time across the processes sharing a data folder (the app, a CLI run with --no-host): a lock
// directory kept by proper-lockfile. A free lock is taken at once; waiting for a held one is asynchronous, so it never
// blocks the host's thread; a lock whose owner died goes stale once its mtime stops being refreshed.
import lockfile from 'proper-lockfile';
import { HostFailure } from '../../../shared/errors';
import type { Logger } from '../ports';

/** About 8 s of retries in all, short at first: a settings write holds the lock for milliseconds. */
const RETRIES = { retries: 40, minTimeout: 5, maxTimeout: 250, factor: 1.5 };
const STALE_MS = 10_000;

/** Runs `work` while holding the lock of `file` (kept at `lockPath`). */
export async function withSettingsLock<T>(file: string, lockPath: string, log: Logger, work: () => T, retries = RETRIES): Promise<T> {
  const options = {
    lockfilePath: lockPath,
    realpath: false,
    stale: STALE_MS,
    // The default throws from a timer, which would take the host down; losing the lock mid-write is only logged.
    onCompromised: (err: Error) => log.warn('settings: the settings lock was taken over while held', err.message),
  };
  let release: () => void | Promise<void>;
  try {
    // The usual case, nobody else writing: taken at once, and the write lands in this turn of the event loop.
    release = lockfile.lockSync(file, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    release = await waitForLock(file, { ...options, retries });
  }
  try {
    return work();
  } finally {
    try {
      await release();
    } catch (err) {
      log.warn('settings: could not release the settings lock', (err as Error).message);
    }
  }
}

/** Another process holds it: wait for it asynchronously, so the host's thread goes on meanwhile. */
async function waitForLock(file: string, options: lockfile.LockOptions): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(file, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    throw new HostFailure({
      code: 'SETTINGS_WRITE_FAILED',
      message: 'Another process kept the settings locked.',
      hint: 'Try again; if it persists, close other Council Workbench windows or CLI runs.',
    });
  }
}
