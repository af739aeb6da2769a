// Model downloads against a local HTTP server that speaks like Hugging Face's (resolve URLs, Range, the LFS SHA-256 as
// X-Linked-ETag): progress, a dropped connection resumed with Range, pause and resume, cancel, a checksum mismatch, a
// full disk, a server that ignores Range, and bad sources. Nothing is left behind by a failure but a resumable part.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discardDownload, downloadModel, resolveSource, type DownloadProgress } from '../../../electron/core/local-model/model-download';
import { tinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const BODY = tinyGguf();
const SHA = createHash('sha256').update(BODY).digest('hex');
const CHUNK = 16 * 1024;

/** How the next request is answered. */
let behaviour: { dropAfter?: number; ignoreRange?: boolean } = {};
const ranges: Array<string | undefined> = [];
let server: http.Server;
let origin: string;
let folder: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url !== '/someone/tiny-repo/resolve/main/tiny.gguf') {
      res.writeHead(404).end('Entry not found');
      return;
    }
    ranges.push(req.headers.range);
    const from = !behaviour.ignoreRange && req.headers.range ? Number(/^bytes=(\d+)-$/.exec(req.headers.range)?.[1] ?? 0) : 0;
    const headers = { 'content-type': 'application/octet-stream', 'x-linked-etag': `"${SHA}"`, 'content-length': String(BODY.length - from) };
    if (from > 0) res.writeHead(206, { ...headers, 'content-range': `bytes ${from}-${BODY.length - 1}/${BODY.length}` });
    else res.writeHead(200, headers);
    const dropAfter = behaviour.dropAfter;
    behaviour = {};
    let at = from;
    // In chunks, one per turn of the loop: the client sees a stream, not one buffer.
    const next = () => {
      if (at >= BODY.length) return void res.end();
      // Ends the connection after what was written has gone out (a reset could lose bytes still in flight).
      if (dropAfter !== undefined && at >= dropAfter) return void res.socket?.end();
      const end = Math.min(BODY.length, at + CHUNK, dropAfter ?? Infinity);
      res.write(BODY.subarray(at, end));
      at = end;
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  cleanupTempDirs();
});
beforeEach(() => {
  folder = tempDir('cw-models-');
  behaviour = {};
  ranges.length = 0;
});

const HF_REF = 'hf:someone/tiny-repo/tiny.gguf';
const deps = (extra: Record<string, unknown> = {}) => ({ folder, env: { HF_ENDPOINT: origin }, freeBytes: () => 10 * 1024 ** 3, ...extra });
const target = () => path.join(folder, 'tiny.gguf');
const part = () => `${target()}.part`;
const fail = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => (e as { error: { code: string; message: string } }).error);

describe('model downloads', () => {
  it('an hf: reference resolves against HF_ENDPOINT; progress comes in bytes with speed and time left; the LFS SHA-256 is checked', async () => {
    expect(resolveSource(HF_REF, {}).url).toBe('https://huggingface.co/someone/tiny-repo/resolve/main/tiny.gguf');
    const progress: DownloadProgress[] = [];
    let now = 0;
    const result = await downloadModel({ source: HF_REF }, deps({ clock: { now: () => (now += 100) } }), (p) => progress.push(p));
    expect(result).toMatchObject({ file: target(), sizeBytes: BODY.length, sha256: SHA, resumedFrom: 0 });
    expect(fs.readFileSync(target()).equals(BODY)).toBe(true);
    expect(fs.existsSync(part())).toBe(false);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toMatchObject({ bytesDone: BODY.length, totalBytes: BODY.length, secondsLeft: 0 });
    expect(progress.every((p, i) => i === 0 || p.bytesDone >= progress[i - 1]!.bytesDone)).toBe(true);
    expect(progress.some((p) => p.bytesPerSecond > 0 && p.secondsLeft !== null && p.secondsLeft > 0)).toBe(true);
  });

  it('a connection dropped half-way keeps what arrived; the next try asks for the rest with Range and the whole file checks out', async () => {
    behaviour = { dropAfter: 100 * 1024 };
    expect(await fail(downloadModel({ source: HF_REF }, deps(), () => undefined))).toMatchObject({ code: 'DOWNLOAD_FAILED' });
    // What reached the file before the drop (the last bytes in flight may not have: a loaded machine showed 96 of 100 kB).
    const kept = fs.statSync(part()).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(100 * 1024);
    expect(fs.existsSync(target())).toBe(false);
    const resumed = await downloadModel({ source: HF_REF }, deps(), () => undefined);
    expect(ranges).toEqual([undefined, `bytes=${kept}-`]);
    expect(resumed).toMatchObject({ resumedFrom: kept, sha256: SHA, sizeBytes: BODY.length });
    expect(fs.readFileSync(target()).equals(BODY)).toBe(true);
  });

  it('pause keeps the part and a later call resumes it; cancel removes it', async () => {
    // A clock that moves 300 ms a reading: every chunk is reported (reports are at most 4 a second).
    let now = 0;
    const clock = { now: () => (now += 300) };
    const pause = new AbortController();
    const paused = await fail(downloadModel({ source: HF_REF }, deps({ clock }), (p) => p.bytesDone >= 3 * CHUNK && pause.abort(), pause.signal));
    expect(paused).toMatchObject({ code: 'CANCELLED' });
    const kept = fs.statSync(part()).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(BODY.length);
    const again = new AbortController();
    expect(await fail(downloadModel({ source: HF_REF }, deps({ clock }), (p) => p.bytesDone >= kept + CHUNK && again.abort(), again.signal))).toMatchObject({ code: 'CANCELLED' });
    expect(ranges.at(-1)).toBe(`bytes=${kept}-`);
    discardDownload(HF_REF, folder, { HF_ENDPOINT: origin });
    expect(fs.existsSync(part())).toBe(false);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('a checksum mismatch keeps nothing; a full disk stops before a byte is written', async () => {
    expect(await fail(downloadModel({ source: HF_REF, sha256: 'ab'.repeat(32) }, deps(), () => undefined))).toMatchObject({ code: 'DOWNLOAD_CHECKSUM_MISMATCH', message: expect.stringContaining(SHA) });
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(await fail(downloadModel({ source: HF_REF }, deps({ freeBytes: () => 1024 }), () => undefined))).toMatchObject({ code: 'DISK_FULL' });
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('a server that ignores Range: the download starts over and is still whole', async () => {
    behaviour = { dropAfter: 64 * 1024 };
    await fail(downloadModel({ source: HF_REF }, deps(), () => undefined));
    behaviour = { ignoreRange: true };
    const result = await downloadModel({ source: HF_REF }, deps(), () => undefined);
    expect(result).toMatchObject({ resumedFrom: 0, sha256: SHA });
    expect(fs.readFileSync(target()).equals(BODY)).toBe(true);
  });

  it('bad sources and checksums are refused with the field; a missing file is the server’s 404 with a hint', async () => {
    const code = (source: string, sha256?: string) => fail(downloadModel({ source, ...(sha256 ? { sha256 } : {}) }, deps(), () => undefined));
    expect(await code('ftp://example.org/m.gguf')).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await code(`${origin}/model.bin`)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await code('not a source')).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await code(HF_REF, 'xyz')).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await code('hf:someone/tiny-repo/other.gguf')).toMatchObject({ code: 'DOWNLOAD_FAILED', message: expect.stringContaining('404') });
    expect(await code(`http://127.0.0.1:1/m.gguf`)).toMatchObject({ code: 'DOWNLOAD_FAILED' });
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
