// Extension logs on disk: rotated past their cap (so one extension keeps at most twice it), and read back by
// another run — the CLI reading what the app wrote — oldest first.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExtensionLogFiles } from '../../../electron/core/extensions/extension-log-file';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const entry = (n: number) => ({ seq: n, at: 1_000 + n, level: 'info' as const, source: 'worker' as const, text: `line ${n} ${'x'.repeat(40)}` });

describe('extension logs on disk', () => {
  it('rotate to <id>.log.1 past the cap, keep at most twice it, and another run reads the newest lines in order', async () => {
    const dir = tempDir();
    const cap = 1_000;
    const writer = new ExtensionLogFiles(dir, cap);
    for (let n = 1; n <= 60; n++) {
      writer.append('ext', entry(n));
      if (n % 5 === 0) await writer.flush();
    }
    await writer.flush();
    const current = fs.statSync(path.join(dir, 'ext.log')).size;
    const rotated = fs.statSync(path.join(dir, 'ext.log.1')).size;
    expect(current).toBeLessThanOrEqual(cap);
    expect(current + rotated).toBeLessThanOrEqual(2 * cap);

    const read = await new ExtensionLogFiles(dir, cap).others('ext');
    const numbers = read.map((e) => Number(/^line (\d+)/.exec(e.text)![1]));
    expect(numbers.at(-1)).toBe(60);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers[0]).toBeGreaterThan(1);
    // Its own run's lines are not read back from the file (they are in memory).
    expect(await writer.others('ext')).toEqual([]);
  });

  it('lines reach the file on their own, without a flush, in the order they came', async () => {
    const dir = tempDir();
    const writer = new ExtensionLogFiles(dir);
    for (let n = 1; n <= 3; n++) writer.append('ext', entry(n));
    await vi.waitFor(async () => expect((await new ExtensionLogFiles(dir).others('ext')).map((e) => e.seq === 0 && e.text)).toEqual([1, 2, 3].map((n) => entry(n).text)), { timeout: 5_000, interval: 20 });
  });

  it('a line cut short by a kill mid-write is skipped, the rest read', async () => {
    const dir = tempDir();
    const writer = new ExtensionLogFiles(dir);
    writer.append('ext', entry(1));
    await writer.flush();
    fs.appendFileSync(path.join(dir, 'ext.log'), '{"at":2000,"level":"info","sour');
    const read = await new ExtensionLogFiles(dir).others('ext');
    expect(read.map((e) => e.text)).toEqual([entry(1).text]);
  });

  it('once closed, a late line is written at once, and never makes the folder again once it is gone (the ENOTEMPTY flake)', async () => {
    const root = tempDir();
    const dir = path.join(root, 'logs');
    const writer = new ExtensionLogFiles(dir, 10_000);
    writer.append('ext', entry(1));
    await writer.close();
    expect(fs.readFileSync(path.join(dir, 'ext.log'), 'utf8')).toContain('line 1');
    writer.append('ext', entry(2));
    expect(fs.readFileSync(path.join(dir, 'ext.log'), 'utf8')).toContain('line 2');
    fs.rmSync(root, { recursive: true });
    writer.append('ext', entry(3));
    await writer.flush();
    expect(fs.existsSync(root)).toBe(false);
  });
});
