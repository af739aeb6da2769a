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

describe('D1: the data folder is private to its user', () => {
  const mode = (p: string) => fs.statSync(p).mode & 0o777;

  it('D1: an open folder from before is closed with everything in it; what the host writes after is private too', async () => {
    const { chatRig } = await import('../chat/helpers');
    // As a user's shell starts it (an earlier host in this worker may have set it already).
    process.umask(0o022);
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'sessions'), { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'sessions', 'old.json'), '{}', { mode: 0o644 });
    fs.mkdirSync(path.join(dir, 'extensions', 'tool', 'bin'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'extensions', 'tool', 'bin', 'run'), '#!/bin/sh\n', { mode: 0o755 });
    fs.chmodSync(path.join(dir, 'sessions'), 0o755);
    const rig = await chatRig({ dataDir: dir });
    try {
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(dir, 'sessions'))).toBe(0o700);
      expect(mode(path.join(dir, 'sessions', 'old.json'))).toBe(0o600);
      // The owner keeps what was theirs (an extension's program still runs for them).
      expect(mode(path.join(dir, 'extensions', 'tool', 'bin', 'run'))).toBe(0o700);
      await rig.call('chat.sessions.create', { title: 'New' });
      // The chats' database and its write-ahead log (SQLite gives the log the database's mode).
      expect(mode(path.join(dir, 'chats.db'))).toBe(0o600);
      expect(mode(path.join(dir, 'chats.db-wal'))).toBe(0o600);
      expect(mode(path.join(dir, 'settings.json'))).toBe(0o600);
    } finally {
      await rig.close();
    }
  }, 30_000);

  it('D1: the default folder is made 0700 when it is created', () => {
    const home = tempDir();
    process.umask(0o022);
    const previous = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = home;
    try {
      const dir = resolveDataDir();
      expect(dir).toBe(path.join(home, 'council-workbench'));
      expect(mode(dir)).toBe(0o700);
    } finally {
      if (previous === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = previous;
    }
  });
});
