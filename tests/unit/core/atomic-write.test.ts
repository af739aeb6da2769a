// The core's one file replacement: the async writer (run records, notes, extension storage) never blocks the event loop.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../../electron/core/util/atomic-write';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTempDirs();
});

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temp file, with no synchronous file call on the way (a folder fsync can take milliseconds)', async () => {
    const dir = tempDir('cw-atomic-');
    const file = path.join(dir, 'run.json');
    fs.writeFileSync(file, 'old');
    const syncCalls = (['openSync', 'fsyncSync', 'closeSync', 'writeFileSync', 'renameSync'] as const).map((name) => vi.spyOn(fs, name));
    await writeFileAtomic(file, '{"new":true}');
    for (const spy of syncCalls) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
    expect(fs.readFileSync(file, 'utf8')).toBe('{"new":true}');
    expect(fs.readdirSync(dir)).toEqual(['run.json']);
  });

  it('the synchronous writer (settings at exit) still syncs the folder', () => {
    const dir = tempDir('cw-atomic-');
    const file = path.join(dir, 'settings.json');
    const fsync = vi.spyOn(fs, 'fsyncSync');
    writeFileAtomicSync(file, 'x');
    expect(fsync).toHaveBeenCalledTimes(2); // the file, then its folder
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });
});
