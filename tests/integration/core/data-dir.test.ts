import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../electron/core/data-dir';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function canMountReadOnly(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('data dir', () => {
  it('accepts an existing writable folder', () => {
    const dir = tempDir();
    expect(resolveDataDir(dir)).toBe(dir);
  });

  it('refuses a missing folder without creating it', () => {
    const missing = path.join(tempDir(), 'not-here');
    expect(() => resolveDataDir(missing)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'DATA_DIR_MISSING', path: '--data-dir' }) }));
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('refuses a file', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => resolveDataDir(file)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'DATA_DIR_NOT_DIRECTORY' }) }));
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });

  it('refuses a read-only folder', (ctx) => {
    const dir = tempDir();
    // Root ignores permission bits, so a read-only mount is the honest way to get EROFS; chmod works for others.
    let cleanup = () => fs.chmodSync(dir, 0o700);
    if (process.getuid?.() === 0) {
      // Skipped only where this sandbox forbids mounting; the error path is the same for EACCES.
      if (!canMountReadOnly(dir)) return ctx.skip();
      cleanup = () => execFileSync('umount', [dir]);
    } else {
      fs.chmodSync(dir, 0o500);
    }
    try {
      expect(() => resolveDataDir(dir)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'DATA_DIR_READ_ONLY' }) }));
    } finally {
      cleanup();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
