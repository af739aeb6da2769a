// The Bun global a worker gives published bundles: Bun's semantics on Node, and a clear refusal for the rest.
import { createHash, createHmac } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createBunGlobal } from '../../../electron/worker/bun/bun-global';
import { wyhash } from '../../../electron/worker/bun/wyhash';
import type { SpindleStorage } from '../../../electron/worker/spindle/storage';

/** The reference vectors of wyhash (final 4), as Zig's standard library and Bun.hash use it. */
const WYHASH_VECTORS: Array<[bigint, string, bigint]> = [
  [0n, '', 0x409638ee2bde459n],
  [1n, 'a', 0xa8412d091b5fe0a9n],
  [2n, 'abc', 0x32dd92e4b2915153n],
  [3n, 'message digest', 0x8619124089a3a16bn],
  [4n, 'abcdefghijklmnopqrstuvwxyz', 0x7a43afb61d7f5f40n],
  [5n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 0xff42329b90e50d58n],
  [6n, '12345678901234567890123456789012345678901234567890123456789012345678901234567890', 0xc39cab13b115aad3n],
];

function bunWith(files: Map<string, Uint8Array> = new Map()) {
  const said: string[] = [];
  const storage = {
    readBinary: async (p: string) => files.get(p) ?? Promise.reject(Object.assign(new Error('missing'), { code: 'NOT_FOUND' })),
    writeBinary: async (p: string, data: Uint8Array) => void files.set(p, data),
    exists: async (p: string) => files.has(p),
    delete: async (p: string) => void files.delete(p),
  } as unknown as SpindleStorage;
  // Bun's members, called as bundles call them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const bun = createBunGlobal({ folder: '/ext/roundtwo', storage, main: '/ext/roundtwo/dist/backend.js', unsupported: (m) => said.push(m) }) as Record<string, any>;
  return { bun, said, files };
}

describe('Bun.hash (wyhash)', () => {
  it.each(WYHASH_VECTORS)('seed %s, %j → the reference value, as a bigint', (seed, input, expected) => {
    expect(wyhash(Buffer.from(input), seed)).toBe(expected);
    expect(bunWith().bun.hash(input, seed)).toBe(expected);
  });
});

describe('Bun.CryptoHasher and friends', () => {
  it('updates in chains, digests hex or bytes, resets after a digest; HMAC keys work; SHA256.hash hashes at once', () => {
    const { bun } = bunWith();
    const hasher = new bun.CryptoHasher('sha256');
    expect(hasher.update('coun').update('cil').digest('hex')).toBe(createHash('sha256').update('council').digest('hex'));
    expect(hasher.update('x').digest()).toEqual(createHash('sha256').update('x').digest());
    expect(new bun.CryptoHasher('sha1', 'key').update('msg').digest('base64')).toBe(createHmac('sha1', 'key').update('msg').digest('base64'));
    expect(bun.SHA256.hash('council', 'hex')).toBe(createHash('sha256').update('council').digest('hex'));
    expect(new bun.MD5().update('a').digest('hex')).toBe(createHash('md5').update('a').digest('hex'));
  });
});

describe('compression', () => {
  it('deflateSync is raw deflate by default (as Bun), zlib with windowBits 15; inflateSync reads each; gzip round-trips', () => {
    const { bun } = bunWith();
    const text = 'hello '.repeat(100);
    const raw = bun.deflateSync(text);
    expect(zlib.inflateRawSync(raw).toString()).toBe(text);
    expect(new TextDecoder().decode(bun.inflateSync(zlib.deflateRawSync(text)))).toBe(text);
    expect(zlib.inflateSync(bun.deflateSync(text, { windowBits: 15 })).toString()).toBe(text);
    expect(new TextDecoder().decode(bun.inflateSync(zlib.deflateSync(text), { windowBits: 15 }))).toBe(text);
    expect(new TextDecoder().decode(bun.gunzipSync(bun.gzipSync(text)))).toBe(text);
  });
});

describe('files within the extension’s rules', () => {
  it('relative paths are its storage; its own folder reads; anything else is PATH_NOT_ALLOWED', async () => {
    const { bun, files } = bunWith();
    expect(await bun.write('notes/a.txt', 'hello')).toBe(5);
    expect(new TextDecoder().decode(files.get('notes/a.txt'))).toBe('hello');
    expect(await bun.file('notes/a.txt').text()).toBe('hello');
    expect(await bun.file('notes/missing.txt').exists()).toBe(false);
    await expect(bun.file('/etc/passwd').text()).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(bun.file('/ext/roundtwo-other/x').exists()).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    await expect(bun.write('/ext/roundtwo/dist/backend.js', 'x')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
  });
});

describe('what Bun has and the Workbench does not', () => {
  it('is there (no TypeError), refuses with UNSUPPORTED_HERE and is said once; `in` says it is missing; Bun is not thenable', async () => {
    const { bun, said } = bunWith();
    expect(typeof bun.serve).toBe('function');
    expect(() => bun.serve({ port: 0 })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(() => bun.spawn(['ls'])).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(() => bun.serve({ port: 1 })).toThrow();
    expect(said).toEqual(['serve', 'spawn', 'serve']);
    expect('serve' in bun).toBe(false);
    expect('CryptoHasher' in bun).toBe(true);
    expect(await Promise.resolve(bun)).toBe(bun);
    expect(bun.main).toBe('/ext/roundtwo/dist/backend.js');
    expect(bun.env).toBe(process.env);
  });

  it('what is reached through a missing member refuses the same way when called or constructed, and is not thenable', async () => {
    const { bun, said } = bunWith();
    const password = bun.password;
    expect(() => password.hash('secret')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE', message: expect.stringContaining('Bun.password.hash') }));
    expect(() => bun.stdout.writer().write('x')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(() => new bun.Glob('*.ts')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(password.then).toBeUndefined();
    expect(said).toEqual(['password.hash', 'stdout.writer', 'Glob']);
  });
});
