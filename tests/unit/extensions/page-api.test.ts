// The host's side of a frame's /api/v1 requests and uploads: a few requests at a time per extension, malformed paths
// refused, uploads read back in parts and kept out of the storage area, and an earlier run's idle uploads dropped.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PAGE_REQUESTS_IN_FLIGHT, PageRequests, type PageDeps } from '../../../electron/core/extensions/page-api';
import { ExtensionUploads, UPLOAD_READ_PART_BYTES, UPLOAD_TTL_MS } from '../../../electron/core/extensions/spindle-host/extension-uploads';
import { createSpindleHost } from '../../../electron/core/extensions/spindle-host/spindle-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const clock = { now: () => Date.now() };
const caller = (extensionId: string) => ({ extensionId, allowed: () => true });
const call = { signal: new AbortController().signal, emit: () => undefined };

function deps(dataRoot: string, spindle: PageDeps['spindle'] = async () => ({ ok: true, value: null })): PageDeps {
  return { extensionId: 'ext_a', spindle, uploads: new ExtensionUploads(dataRoot, clock), image: () => null, avatar: () => null, generatedImage: () => null, activeChatId: () => null, activePresetId: () => null, settings: { list: () => [], get: () => null, put: async () => [], delete: async () => false }, branch: async () => 'b', now: () => 0 };
}

describe('page requests', () => {
  it('answers a few at a time per extension: the next is a 429 until one ends', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pages = new PageRequests();
    const slow = deps(tempDir('cw-page-'), async () => (await gate, { ok: true, value: { id: 'c' } }));
    const waiting = Array.from({ length: MAX_PAGE_REQUESTS_IN_FLIGHT }, () => pages.answer({ method: 'GET', path: '/api/v1/chats/c', headers: {} }, slow));
    expect(await pages.answer({ method: 'GET', path: '/api/v1/system/info', headers: {} }, slow)).toMatchObject({ status: 429, headers: { 'Retry-After': '1' } });
    release();
    expect((await Promise.all(waiting)).map((a) => a.status)).toEqual(Array(MAX_PAGE_REQUESTS_IN_FLIGHT).fill(200));
    expect(await pages.answer({ method: 'GET', path: '/api/v1/system/info', headers: {} }, slow)).toMatchObject({ status: 200 });
  });

  it("answers Lumiverse's activeLoomPresetId with the chats' preset, and a preset by presets.get", async () => {
    const asked: Array<[string, unknown[]]> = [];
    const d = { ...deps(tempDir('cw-page-'), async (method, args) => (asked.push([method, args]), { ok: true, value: { id: args[0], name: 'Loom' } })), activePresetId: () => 'preset-1' };
    const answer = async (path: string) => JSON.parse((await new PageRequests().answer({ method: 'GET', path, headers: {} }, d)).body) as unknown;
    expect(await answer('/api/v1/settings/activeLoomPresetId')).toEqual({ key: 'activeLoomPresetId', value: 'preset-1', updated_at: 0 });
    expect(await answer('/api/v1/presets/preset-1')).toEqual({ id: 'preset-1', name: 'Loom' });
    expect(asked).toEqual([['presets.get', ['preset-1']]]);
  });

  it('a path that is not valid percent-encoding is a 400, not a failure of the host', async () => {
    expect(await new PageRequests().answer({ method: 'GET', path: '/api/v1/chats/%E0', headers: {} }, deps(tempDir('cw-page-')))).toMatchObject({ status: 400 });
  });
});

describe('uploads', () => {
  it('a backend reads an upload larger than one part whole, in parts; an incomplete one is not there yet', async () => {
    const root = tempDir('cw-uploads-');
    const uploads = new ExtensionUploads(root, clock);
    const handlers = uploads.handlers();
    const size = UPLOAD_READ_PART_BYTES * 2 + 5;
    const record = uploads.create('ext_a', 'big.bin', size);
    // Each byte tells its place, so a part read from the wrong offset would not match.
    const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
    uploads.append(record, 0, bytes.subarray(0, size - 5));
    expect(handlers['uploads.get']({ uploadId: record.id }, caller('ext_a'), call)).toBeNull();
    uploads.append(record, size - 5, bytes.subarray(size - 5));
    expect(handlers['uploads.get']({ uploadId: record.id }, caller('ext_a'), call)).toEqual({ fileName: 'big.bin', size });
    expect(handlers['uploads.get']({ uploadId: record.id }, caller('ext_b'), call)).toBeNull();
    const parts = [0, UPLOAD_READ_PART_BYTES, UPLOAD_READ_PART_BYTES * 2].map((offset) => Buffer.from(handlers['uploads.read']({ uploadId: record.id, offset }, caller('ext_a'), call) as string, 'base64'));
    expect(parts.map((p) => p.length)).toEqual([UPLOAD_READ_PART_BYTES, UPLOAD_READ_PART_BYTES, 5]);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    expect(() => handlers['uploads.read']({ uploadId: record.id, offset: 0 }, caller('ext_b'), call)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND' }) }));
  });

  it('its first use of spindle.storage leaves its uploads where they are (they are not files of its own from before storage)', async () => {
    const root = tempDir('cw-uploads-');
    const host = createSpindleHost({ dataRoot: root, log: () => undefined });
    const record = host.uploads.create('ext_a', 'a.txt', 3);
    const origin = { extensionId: 'ext_a', denyPermission: () => undefined, allowed: () => true };
    expect(await host.answer(origin, 'storage.write', { path: 'x.txt', data: 'x' }, call)).toMatchObject({ ok: true });
    host.uploads.append(record, 0, Buffer.from('abc'));
    expect(fs.readFileSync(path.join(root, 'ext_a', 'uploads', record.id), 'utf8')).toBe('abc');
    expect(fs.existsSync(path.join(root, 'ext_a', 'storage', 'uploads'))).toBe(false);
  });

  it("a start drops an earlier run's uploads idle past the TTL, and leaves recent ones (a command line beside the app)", () => {
    const root = tempDir('cw-uploads-');
    const folder = path.join(root, 'ext_a', 'uploads');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'old'), 'x');
    fs.writeFileSync(path.join(folder, 'recent'), 'y');
    const long = (Date.now() - UPLOAD_TTL_MS - 60_000) / 1000;
    fs.utimesSync(path.join(folder, 'old'), long, long);
    new ExtensionUploads(root, clock);
    expect(fs.readdirSync(folder)).toEqual(['recent']);
  });
});
