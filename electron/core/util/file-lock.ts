// A short exclusive lock between processes sharing a data folder (the app, the headless host, CLI runs): a lock
// file created with O_EXCL holding the owner's pid. Held only around a read-modify-write of one small file, so
// waiting is synchronous; a lock whose owner died (or that never got a pid within STALE_MS) is taken over.
import fs from 'node:fs';

const STALE_MS = 10_000;
const WAIT_STEP_MS = 5;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function ownerAlive(lockPath: string): boolean {
  try {
    const stat = fs.statSync(lockPath);
    const pid = Number(fs.readFileSync(lockPath, 'utf8'));
    // No pid yet: its owner is writing it right now, or died in between (then it goes stale).
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - stat.mtimeMs <= STALE_MS;
    // A live owner keeps its lock however long a loaded machine makes it take.
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // ESRCH: no such process. EPERM: it exists (another user's). ENOENT: released meanwhile.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
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
      if (!ownerAlive(lockPath)) {
        fs.rmSync(lockPath, { force: true });
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
