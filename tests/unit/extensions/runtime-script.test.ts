// The worker runtime bundle built from source lives in a private folder (0700) of the data folder's, not in
// the shared temp folder where another local user could plant one for every worker to run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { privateRuntimeDir, runnableRuntime, workerRuntimeSource } from '../../../electron/core/extensions/workers/runtime-script';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const mode = (dir: string) => fs.statSync(dir).mode & 0o777;

describe.runIf(process.platform !== 'win32')('B8: the worker runtime folder', () => {
  it('B8: is made 0700 inside the data folder, and the bundle is written there', { timeout: 30_000 }, () => {
    const dir = path.join(tempDir(), 'runtime');
    const file = runnableRuntime(workerRuntimeSource(), dir);
    expect(path.dirname(file)).toBe(dir);
    expect(mode(dir)).toBe(0o700);
    expect(fs.readFileSync(file, 'utf8')).toContain('spindle');
  });

  it('B8: a folder others could write to is closed to them before anything is written', () => {
    const dir = path.join(tempDir(), 'runtime');
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    privateRuntimeDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('B8: a link in its place is refused, not followed', () => {
    const parent = tempDir();
    fs.symlinkSync(tempDir(), path.join(parent, 'runtime'));
    expect(() => privateRuntimeDir(path.join(parent, 'runtime'))).toThrow(/not a folder of this user's/);
  });

  it('B8: without a data folder it is a fresh private temp folder, never the shared name', { timeout: 30_000 }, () => {
    const file = runnableRuntime(workerRuntimeSource());
    expect(path.dirname(file)).not.toBe(path.join(os.tmpdir(), 'council-workbench-runtime'));
    expect(mode(path.dirname(file))).toBe(0o700);
  });
});

describe('the worker runtime bundle', () => {
  it('carries the RPC kernel client and no schema library (the contract is imported for its types only)', { timeout: 30_000 }, () => {
    const code = fs.readFileSync(runnableRuntime(workerRuntimeSource(), path.join(tempDir(), 'runtime')), 'utf8');
    expect(code).toContain("kind: \"invoke\"");
    expect(code).not.toMatch(/@sinclair\/typebox|TypeBoxError|\bajv\b/i);
  });
});
