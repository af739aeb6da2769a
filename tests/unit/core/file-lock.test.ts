// The settings lock between processes: a lock released while another process looks at it is never taken from its next owner.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withFileLock } from '../../../electron/core/util/file-lock';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTempDirs();
});

/** A live process that is not this one: the lock's owner in these tests. */
const otherLivePid = process.ppid;

describe('withFileLock', () => {
  it('runs the work under the lock and releases it', () => {
    const lock = path.join(tempDir('cw-lock-'), 'settings.json.lock');
    const seen = withFileLock(lock, () => fs.readFileSync(lock, 'utf8'));
    expect(seen).toBe(String(process.pid));
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('waits for a live owner, then gives up with ELOCKED', () => {
    const lock = path.join(tempDir('cw-lock-'), 'settings.json.lock');
    fs.writeFileSync(lock, String(otherLivePid));
    const work = vi.fn();
    expect(() => withFileLock(lock, work, 30)).toThrow(expect.objectContaining({ code: 'ELOCKED' }));
    expect(work).not.toHaveBeenCalled();
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(otherLivePid));
  });

  it('takes over the lock of an owner that died', () => {
    const lock = path.join(tempDir('cw-lock-'), 'settings.json.lock');
    fs.writeFileSync(lock, '2147483646'); // no such process
    expect(withFileLock(lock, () => 'ran', 30)).toBe('ran');
  });

  it('a lock released while it is being looked at is not removed from the process that took it meanwhile (the lost write under load)', () => {
    const lock = path.join(tempDir('cw-lock-'), 'settings.json.lock');
    fs.writeFileSync(lock, String(otherLivePid));
    // The first owner releases just as this process looks (stat sees no file), and another live process takes the lock.
    const realStat = fs.statSync;
    let first = true;
    vi.spyOn(fs, 'statSync').mockImplementation(((file: fs.PathLike, options?: fs.StatSyncOptions) => {
      if (first && String(file) === lock) {
        first = false;
        fs.rmSync(lock);
        fs.writeFileSync(lock, String(otherLivePid));
        throw Object.assign(new Error('ENOENT: released'), { code: 'ENOENT' });
      }
      return realStat(file, options);
    }) as typeof fs.statSync);
    const work = vi.fn();
    expect(() => withFileLock(lock, work, 30)).toThrow(expect.objectContaining({ code: 'ELOCKED' }));
    expect(work).not.toHaveBeenCalled();
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(otherLivePid));
  });

  it('a stale lock replaced by a new owner between the judgement and the takeover stays with the new owner', () => {
    const lock = path.join(tempDir('cw-lock-'), 'settings.json.lock');
    fs.writeFileSync(lock, '2147483646');
    const realRead = fs.readFileSync;
    let first = true;
    vi.spyOn(fs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
      const text = realRead(file, options as BufferEncoding);
      if (first && String(file) === lock) {
        // Judged stale from this read; before the takeover another process replaces the lock (a new file).
        first = false;
        fs.rmSync(lock);
        fs.writeFileSync(`${lock}.spacer`, 'x'); // keeps the old inode from being reused at once
        fs.writeFileSync(lock, String(otherLivePid));
      }
      return text;
    }) as typeof fs.readFileSync);
    const work = vi.fn();
    expect(() => withFileLock(lock, work, 30)).toThrow(expect.objectContaining({ code: 'ELOCKED' }));
    expect(work).not.toHaveBeenCalled();
  });
});
