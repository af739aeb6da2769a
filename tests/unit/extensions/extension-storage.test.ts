// spindle.storage on the host: Lumiverse's operations, confined paths, caps, quota, atomic writes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import { ExtensionStorage, STORAGE_LIMITS } from '../../../electron/core/extensions/spindle-host/extension-storage';
import { MAX_STAGED_WRITES } from '../../../electron/core/extensions/spindle-host/storage-parts';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function area(limits = STORAGE_LIMITS) {
  const root = path.join(tempDir(), 'storage');
  fs.mkdirSync(root);
  return { root, storage: new ExtensionStorage(root, limits) };
}

async function failure(work: Promise<unknown>): Promise<{ code: string; path?: string }> {
  try {
    await work;
  } catch (err) {
    if (err instanceof HostFailure) return { code: String(err.error.code), ...(err.error.path ? { path: err.error.path } : {}) };
    throw err;
  }
  throw new Error('expected a failure');
}

describe('operations', () => {
  it('writes, reads, lists, stats, moves and deletes as Lumiverse does', async () => {
    const { storage, root } = area();
    expect(await storage.ops.write({ path: 'notes/a.md', data: 'hello' })).toBe(true);
    expect(await storage.ops.read({ path: 'notes/a.md' })).toBe('hello');
    expect(await storage.ops.writeBinary({ path: 'b.bin', base64: Buffer.from([1, 2, 255]).toString('base64') })).toBe(true);
    expect(Buffer.from((await storage.ops.readBinary({ path: 'b.bin' })) as string, 'base64')).toEqual(Buffer.from([1, 2, 255]));
    expect(await storage.ops.list({})).toEqual(['b.bin', 'notes/a.md']);
    // The prefix names a folder; what comes back is relative to it.
    expect(await storage.ops.list({ prefix: 'notes' })).toEqual(['a.md']);
    expect(await storage.ops.stat({ path: 'notes/a.md' })).toMatchObject({ exists: true, isFile: true, isDirectory: false, sizeBytes: 5 });
    expect(await storage.ops.stat({ path: 'none' })).toMatchObject({ exists: false, sizeBytes: 0 });
    expect(await storage.ops.exists({ path: 'notes' })).toBe(true);
    await storage.ops.move({ from: 'notes/a.md', to: 'archive/2026/a.md' });
    expect(await storage.ops.exists({ path: 'notes/a.md' })).toBe(false);
    await storage.ops.mkdir({ path: 'empty/deep' });
    expect(fs.statSync(path.join(root, 'empty', 'deep')).isDirectory()).toBe(true);
    await storage.ops.delete({ path: 'archive' });
    await storage.ops.delete({ path: 'never-there' });
    expect(await storage.ops.list({})).toEqual(['b.bin']);
    expect(await failure(storage.ops.read({ path: 'archive/2026/a.md' }))).toEqual({ code: 'NOT_FOUND', path: '/path' });
    // No temp file is left beside what was written.
    expect(fs.readdirSync(root).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('paths', () => {
  it.each([
    ['..', 'PATH_NOT_ALLOWED'],
    ['../secrets.json', 'PATH_NOT_ALLOWED'],
    ['a/../../b', 'PATH_NOT_ALLOWED'],
    ['/etc/passwd', 'PATH_NOT_ALLOWED'],
    ['C:/Windows/win.ini', 'PATH_NOT_ALLOWED'],
    ['a\0b', 'INVALID_INPUT'],
    ['a\\..\\b', 'INVALID_INPUT'],
    ['', 'INVALID_INPUT'],
    ['x'.repeat(600), 'INVALID_INPUT'],
  ])('refuses %j with %s and the field path, touching nothing', async (requested, code) => {
    const { storage, root } = area();
    expect(await failure(storage.ops.write({ path: requested, data: 'x' }))).toEqual({ code, path: '/path' });
    expect(await failure(storage.ops.read({ path: requested }))).toEqual({ code, path: '/path' });
    expect(fs.readdirSync(path.dirname(root)).sort()).toEqual(['storage']);
  });

  it('does not follow a symlink that leads out', async () => {
    const { storage, root } = area();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    fs.symlinkSync(outside, path.join(root, 'link'));
    expect(await failure(storage.ops.read({ path: 'link/secret.txt' }))).toEqual({ code: 'PATH_NOT_ALLOWED', path: '/path' });
    expect(await failure(storage.ops.write({ path: 'link/new.txt', data: 'x' }))).toEqual({ code: 'PATH_NOT_ALLOWED', path: '/path' });
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('checks move targets and list prefixes too', async () => {
    const { storage } = area();
    await storage.ops.write({ path: 'a.txt', data: 'x' });
    expect(await failure(storage.ops.move({ from: 'a.txt', to: '../a.txt' }))).toEqual({ code: 'PATH_NOT_ALLOWED', path: '/to' });
    expect(await failure(storage.ops.list({ prefix: '../..' }))).toEqual({ code: 'PATH_NOT_ALLOWED', path: '/prefix' });
  });
});

describe('caps', () => {
  it('refuses a file over the size cap and writes past the quota; nothing is lost', async () => {
    const { storage } = area({ ...STORAGE_LIMITS, maxFileBytes: 100, quotaBytes: 250 });
    expect(await failure(storage.ops.write({ path: 'big', data: 'x'.repeat(101) }))).toEqual({ code: 'INPUT_TOO_LARGE', path: '/data' });
    await storage.ops.write({ path: 'a', data: 'x'.repeat(100) });
    await storage.ops.write({ path: 'b', data: 'x'.repeat(100) });
    expect(await failure(storage.ops.write({ path: 'c', data: 'x'.repeat(100) }))).toEqual({ code: 'QUOTA_EXCEEDED', path: '/data' });
    // Replacing a file counts its new size, not both.
    await storage.ops.write({ path: 'a', data: 'y'.repeat(100) });
    expect(await storage.ops.read({ path: 'a' })).toBe('y'.repeat(100));
    await storage.ops.delete({ path: 'b' });
    await storage.ops.write({ path: 'c', data: 'x'.repeat(100) });
    expect(await storage.ops.list({})).toEqual(['a', 'c']);
  });

  it('counts what was already on disk toward the quota', async () => {
    const { root } = area();
    fs.writeFileSync(path.join(root, 'old'), 'x'.repeat(200));
    const storage = new ExtensionStorage(root, { ...STORAGE_LIMITS, quotaBytes: 250 });
    expect(await failure(storage.ops.write({ path: 'new', data: 'x'.repeat(100) }))).toEqual({ code: 'QUOTA_EXCEEDED', path: '/data' });
  });

  it('50 concurrent writes to one file leave one whole value', async () => {
    const { storage } = area();
    await Promise.all(Array.from({ length: 50 }, (_, i) => storage.ops.write({ path: 'same', data: `value-${i}`.repeat(100) })));
    expect(await storage.ops.read({ path: 'same' })).toMatch(/^(value-\d+)\1{99}$/);
  });
});

describe('files larger than one request or answer', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('are written in parts beside the area, placed whole at the last, and read in parts', async () => {
    const { storage, root } = area({ ...STORAGE_LIMITS, oneReadBytes: 8 });
    const part = (index: number, text: string, last = false) => storage.ops.writePart({ path: 'tracks/a.bin', upload: 'w1', index, base64: b64(text), last });
    await part(0, 'first-');
    // Half written, it is neither in the area nor counted: the list and a read do not see it.
    expect(await storage.ops.list({})).toEqual([]);
    expect(fs.readdirSync(`${root}.parts`)).toHaveLength(1);
    await part(1, 'second-');
    await part(2, 'third', true);
    expect(await storage.ops.list({})).toEqual(['tracks/a.bin']);
    expect(fs.readdirSync(`${root}.parts`)).toEqual([]);
    // Over one answer, a whole read says to read in parts; parts read any range, and past the end nothing.
    expect(await failure(storage.ops.read({ path: 'tracks/a.bin' }))).toEqual({ code: 'RESULT_TOO_LARGE', path: '/path' });
    expect(await failure(storage.ops.readBinary({ path: 'tracks/a.bin' }))).toEqual({ code: 'RESULT_TOO_LARGE', path: '/path' });
    const read = async (offset: number, length: number) => Buffer.from((await storage.ops.readPart({ path: 'tracks/a.bin', offset, length })) as string, 'base64').toString();
    expect(await read(0, 6)).toBe('first-');
    expect(await read(6, 100)).toBe('second-third');
    expect(await read(50, 4)).toBe('');
    expect(await failure(storage.ops.readPart({ path: 'missing', offset: 0, length: 1 }))).toEqual({ code: 'NOT_FOUND', path: '/path' });
  });

  it('refuses a part out of order, one past the size cap or the quota, and a path out of the area; the file stays as it was', async () => {
    const { storage } = area({ ...STORAGE_LIMITS, maxFileBytes: 10, quotaBytes: 12 });
    await storage.ops.write({ path: 'kept', data: 'kept' });
    expect(await failure(storage.ops.writePart({ path: 'a', upload: 'w1', index: 1, base64: b64('x'), last: true }))).toEqual({ code: 'INVALID_INPUT', path: '/index' });
    await storage.ops.writePart({ path: 'a', upload: 'w2', index: 0, base64: b64('123456'), last: false });
    expect(await failure(storage.ops.writePart({ path: 'a', upload: 'w2', index: 2, base64: b64('x'), last: true }))).toEqual({ code: 'INVALID_INPUT', path: '/index' });
    // The write out of order was ended: its next part is refused too.
    expect(await failure(storage.ops.writePart({ path: 'a', upload: 'w2', index: 1, base64: b64('x'), last: true }))).toEqual({ code: 'INVALID_INPUT', path: '/index' });
    await storage.ops.writePart({ path: 'a', upload: 'w3', index: 0, base64: b64('123456'), last: false });
    expect(await failure(storage.ops.writePart({ path: 'a', upload: 'w3', index: 1, base64: b64('78901'), last: true }))).toEqual({ code: 'INPUT_TOO_LARGE', path: '/data' });
    await storage.ops.writePart({ path: 'b', upload: 'w4', index: 0, base64: b64('12345'), last: false });
    expect(await failure(storage.ops.writePart({ path: 'b', upload: 'w4', index: 1, base64: b64('67890'), last: true }))).toEqual({ code: 'QUOTA_EXCEEDED', path: '/data' });
    expect(await failure(storage.ops.writePart({ path: '../out', upload: 'w5', index: 0, base64: b64('x'), last: true }))).toEqual({ code: 'PATH_NOT_ALLOWED', path: '/path' });
    expect(await storage.ops.list({})).toEqual(['kept']);
  });

  it('keeps a few writes under way at once, dropping the one left longest (its next part says so); a run before this one’s leftovers go', async () => {
    const { root } = area();
    fs.mkdirSync(`${root}.parts`);
    fs.writeFileSync(path.join(`${root}.parts`, 'left-by-a-crash.part'), 'x');
    // The area opened again (the next start): what the stopped host left is gone at once.
    const storage = new ExtensionStorage(root, STORAGE_LIMITS);
    expect(fs.existsSync(`${root}.parts`)).toBe(false);
    for (let i = 0; i < MAX_STAGED_WRITES + 1; i++) await storage.ops.writePart({ path: `f${i}`, upload: `w${i}`, index: 0, base64: b64('x'), last: false });
    expect(fs.readdirSync(`${root}.parts`)).toHaveLength(MAX_STAGED_WRITES);
    expect(await failure(storage.ops.writePart({ path: 'f0', upload: 'w0', index: 1, base64: b64('y'), last: true }))).toEqual({ code: 'CONFLICT', path: '/upload' });
    await storage.ops.writePart({ path: 'f1', upload: 'w1', index: 1, base64: b64('y'), last: true });
    expect(await storage.ops.read({ path: 'f1' })).toBe('xy');
  });

  it('replacing a file through parts counts its new size, not both', async () => {
    const { storage } = area({ ...STORAGE_LIMITS, quotaBytes: 12 });
    await storage.ops.write({ path: 'a', data: '12345678' });
    await storage.ops.writePart({ path: 'a', upload: 'w1', index: 0, base64: b64('abcde'), last: false });
    await storage.ops.writePart({ path: 'a', upload: 'w1', index: 1, base64: b64('fghij'), last: true });
    expect(await storage.ops.read({ path: 'a' })).toBe('abcdefghij');
    // 10 of 12 bytes used: another of 3 does not fit, one of 2 does.
    expect(await failure(storage.ops.write({ path: 'b', data: 'xyz' }))).toEqual({ code: 'QUOTA_EXCEEDED', path: '/data' });
    await storage.ops.write({ path: 'b', data: 'xy' });
  });
});
