// The settings lock between processes sharing a data folder: waited for without blocking the thread, taken over
// from a dead owner, and a clear error when another process keeps it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { withSettingsLock } from '../../../electron/core/settings/settings-lock';
import { SettingsStore } from '../../../electron/core/settings/settings-store';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const lockOf = (dir: string) => path.join(dir, 'settings.lock');

describe('settings lock', () => {
  it('a write waits for a lock another process holds without blocking this thread, then lands', async () => {
    const dir = tempDir('cw-lock-');
    const store = await SettingsStore.open({ dataDir: dir, backend: confBackend, clock: { now: () => 1 }, log: silentLogger });
    fs.mkdirSync(lockOf(dir)); // another process's lock, fresh
    let turns = 0;
    const released = new Promise<void>((resolve) => {
      // The event loop keeps turning while the write waits (a synchronous wait would starve it); after some turns
      // the other process releases.
      const turn = () => (++turns >= 20 ? (fs.rmdirSync(lockOf(dir)), resolve()) : setImmediate(turn));
      setImmediate(turn);
    });
    const written = store.update({ ui: { theme: 'dark' } });
    await released;
    expect((await written).ui.theme).toBe('dark');
    expect(turns).toBe(20);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')).ui.theme).toBe('dark');
    expect(fs.existsSync(lockOf(dir))).toBe(false);
  });

  it('a lock left by a process that died (its mtime no longer refreshed) is taken over', async () => {
    const dir = tempDir('cw-lock-');
    fs.mkdirSync(lockOf(dir));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockOf(dir), old, old);
    await expect(withSettingsLock(path.join(dir, 'settings.json'), lockOf(dir), silentLogger, () => 'ran')).resolves.toBe('ran');
    expect(fs.existsSync(lockOf(dir))).toBe(false);
  });

  it('a lock kept past the retries is SETTINGS_WRITE_FAILED, and the work never runs', async () => {
    const dir = tempDir('cw-lock-');
    fs.mkdirSync(lockOf(dir));
    let ran = false;
    const attempt = withSettingsLock(path.join(dir, 'settings.json'), lockOf(dir), silentLogger, () => (ran = true), { retries: 2, minTimeout: 1, maxTimeout: 2, factor: 1 });
    await expect(attempt).rejects.toMatchObject({ error: { code: 'SETTINGS_WRITE_FAILED' } });
    expect(ran).toBe(false);
    expect(fs.existsSync(lockOf(dir))).toBe(true); // still the other process's
  });

  it('the lock is released when the work throws', async () => {
    const dir = tempDir('cw-lock-');
    const attempt = withSettingsLock(path.join(dir, 'settings.json'), lockOf(dir), silentLogger, () => {
      throw new Error('bad write');
    });
    await expect(attempt).rejects.toThrow('bad write');
    expect(fs.existsSync(lockOf(dir))).toBe(false);
  });
});
