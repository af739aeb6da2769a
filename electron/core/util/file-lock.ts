// A short exclusive lock between processes sharing a data folder (the app, the headless host, CLI runs): a lock
// file created with O_EXCL holding the owner's pid. Held only around a read-modify-write of one small file, so
// waiting is synchronous; a lock whose owner died (or that never got a pid within STALE_MS) is taken over.
import fs from 'node:fs';

const STALE_MS = 10_000;
const WAIT_STEP_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** What holds the lock now: a live owner, a dead one (the file to take over, by inode), or nothing (released meanwhile). */
type LockState = { state: 'held' } | { state: 'stale'; ino: number } | { state: 'released' };

function lockState(lockPath: string): LockState {
  try {
    const stat = fs.statSync(lockPath);
    const pid = Number(fs.readFileSync(lockPath, 'utf8'));
    // No pid yet: its owner is writing it right now, or died in between (then it goes stale).
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - stat.mtimeMs <= STALE_MS ? { state: 'held' } : { state: 'stale', ino: stat.ino };
    try {
      // A live owner keeps its lock however long a loaded machine makes it take.
      process.kill(pid, 0);
      return { state: 'held' };
    } catch (err) {
      // ESRCH: no such process. EPERM: it exists (another user's).
      return (err as NodeJS.ErrnoException).code === 'EPERM' ? { state: 'held' } : { state: 'stale', ino: stat.ino };
    }
  } catch (err) {
    // Released between our attempt and this look: try again. Removing "whatever is there now" would delete the
    // lock of the process that took it meanwhile, and two writers would each lose the other's change.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'released' };
    throw err;
  }
}

/** Removes a stale lock, unless another process replaced it since it was judged stale. */
function takeOver(lockPath: string, ino: number): void {
  try {
    if (fs.statSync(lockPath).ino === ino) fs.rmSync(lockPath, { force: true });
  } catch {
    // Gone already.
  }
}

/** Runs `work` while holding `lockPath`; throws after `timeoutMs` if another live process keeps it. */
export function withFileLock<T>(lockPath: string, work: () => T, timeoutMs = 30_000): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const now = lockState(lockPath);
      if (now.state === 'released') continue;
      if (now.state === 'stale') {
        takeOver(lockPath, now.ino);
        continue;
      }
      if (Date.now() > deadline) throw Object.assign(new Error(`${lockPath} is held by another process`), { code: 'ELOCKED' });
      Atomics.wait(sleeper, 0, 0, WAIT_STEP_MS);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockPath, { force: true });
  }
}
