import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli-run';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const exec = promisify(execFile);
afterEach(cleanupTempDirs);


describe('cli', () => {
  it('status --json prints one JSON document with the data dir and counts', async () => {
    const dir = tempDir();
    const { code, out } = await cli(['status', '--data-dir', dir, '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ dataDir: dir, settingsVersion: 1, counts: { extensions: expect.any(Number), tools: expect.any(Number), members: 0 } });
  });

  it('errors exit non-zero with {error:{code,message}} in --json mode', async () => {
    const missing = path.join(tempDir(), 'nope');
    const { code, out } = await cli(['status', '--data-dir', missing, '--json']);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ error: { code: 'DATA_DIR_MISSING', message: expect.stringContaining(missing) } });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('an unknown command or flag is a clear error', async () => {
    expect(JSON.parse((await cli(['frobnicate', '--json'])).out)).toMatchObject({ error: { code: 'UNKNOWN_METHOD' } });
    const dir = tempDir();
    // The data folder given before or after the command is not part of the command's name.
    for (const args of [['settings', '--data-dir', dir], ['--data-dir', dir, 'settings']]) {
      expect(JSON.parse((await cli([...args, '--json'])).out)).toMatchObject({ error: { code: 'UNKNOWN_METHOD', message: 'Unknown command "settings". Run with --help to list commands.' } });
    }
    const flag = await cli(['status', '--data-dir', dir, '--json', '--bogus']);
    expect(flag.code).toBe(1);
    expect(JSON.parse(flag.out)).toMatchObject({ error: { code: 'INVALID_INPUT', message: expect.stringContaining('--bogus') } });
  });

  it('runs as `npm run -s cli` (the README form for scripts) with nothing but JSON on stdout', async () => {
    const dir = tempDir();
    const { stdout } = await exec('npm', ['run', '-s', 'cli', '--', 'status', '--data-dir', dir, '--json'], { cwd: process.cwd() });
    expect(JSON.parse(stdout)).toMatchObject({ dataDir: dir, mode: 'cli' });
  });
});
