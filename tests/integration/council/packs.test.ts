import { MAX_IMPORT_INPUT_BYTES } from '../../../shared/limits';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePack } from '../../../electron/core/packs/validate-pack';
import { PACK_LIMITS, type CouncilView, type PackSummary } from '../../../shared/types/council';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { call, callError, councilHost } from './helpers';

afterEach(cleanupTempDirs);

const FIXTURE = path.join(import.meta.dirname, '../../fixtures/council/pack-files/noir-pack.json');
const valid = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, unknown> & { items: Array<Record<string, unknown>> };

/** A real 2×2 PNG built by hand (signature, IHDR, IDAT with zlib, IEND). */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

describe('Lumia packs', () => {
  it('bundled packs: at least 6 distinct personas with real avatar images served as data URLs', async () => {
    const host = await councilHost({ extensions: false });
    const packs = await call<PackSummary[]>(host, 'packs.list', {});
    const bundled = packs.filter((p) => p.source === 'bundled');
    expect(bundled.length).toBeGreaterThanOrEqual(2);
    const items = bundled.flatMap((p) => p.items.map((i) => ({ pack: p.id, ...i })));
    expect(new Set(items.map((i) => i.name)).size).toBeGreaterThanOrEqual(6);
    for (const item of items) {
      expect(item.avatarUrl).toBe(`/packs/${item.pack}/items/${item.id}/avatar`);
      const { dataUrl } = await call<{ dataUrl: string }>(host, 'packs.avatar', { packId: item.pack, itemId: item.id });
      expect(dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(dataUrl.split(',')[1]!, 'base64').toString('utf8');
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).not.toMatch(/<script|onload=|href="http/i);
    }
    expect(bundled.flatMap((p) => p.tools).length).toBeGreaterThan(0);
    await host.dispose();
  });

  it('import from a file inlines the avatar, registers pack tools, exports self-contained, quick-adds', async () => {
    const host = await councilHost({ extensions: false });
    const summary = await call<PackSummary>(host, 'packs.import', { path: FIXTURE });
    expect(summary).toMatchObject({ id: 'noir-desk', source: 'user', items: [{ id: 'gumshoe', avatarUrl: expect.any(String) }, { avatarUrl: null }, {}] });
    expect(summary.tools).toEqual([{ name: 'motive_map', displayName: 'Motive Map', description: 'Who wants what.', qualifiedName: 'pack.noir-desk:motive_map' }]);
    expect(host.registry.get('pack.noir-desk:motive_map')).toMatchObject({ councilEligible: true, mode: 'read', source: 'builtin' });
    const stored = JSON.parse(fs.readFileSync(path.join(host.packs.userDir, 'noir-desk.json'), 'utf8')) as { items: Array<{ avatar?: string }>; extraFieldFromAnotherApp?: unknown };
    expect(stored.items[0]!.avatar).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(stored.extraFieldFromAnotherApp).toBeUndefined();
    expect((await call<{ dataUrl: string }>(host, 'packs.avatar', { packId: 'noir-desk', itemId: 'gumshoe' })).dataUrl).toBe(stored.items[0]!.avatar);
    expect((await call<{ dataUrl: null }>(host, 'packs.avatar', { packId: 'noir-desk', itemId: 'informant' })).dataUrl).toBeNull();

    const view = await call<CouncilView>(host, 'council.quickAddPack', { packId: 'noir-desk', tools: ['pack.noir-desk:motive_map'] });
    expect(view.members.map((m) => m.name)).toEqual(['The Gumshoe', 'The Informant', 'The Night Editor']);
    // Quick-added members get the part their item is named for as their role.
    expect(view.members.map((m) => m.role)).toEqual(view.members.map((m) => m.itemId.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ')));
    expect(view.members[0]!.role).toBe('Gumshoe');

    // export a bundled pack: avatars inlined, re-importable under another id
    const out = await call<{ fileName: string; content: string }>(host, 'packs.export', { id: 'story-council' });
    const exported = JSON.parse(out.content) as { id: string; items: Array<{ avatar: string }> };
    expect(exported.items.every((i) => i.avatar.startsWith('data:image/svg+xml;base64,'))).toBe(true);
    exported.id = 'story-copy';
    expect((await call<PackSummary>(host, 'packs.import', { content: JSON.stringify(exported) })).items).toHaveLength(3);
    // the same id twice needs overwrite; bundled ids are refused
    expect(await callError(host, 'packs.import', { path: FIXTURE })).toMatchObject({ code: 'CONFLICT', path: '/id' });
    await call(host, 'packs.import', { path: FIXTURE, overwrite: true });
    exported.id = 'story-council';
    expect(await callError(host, 'packs.import', { content: JSON.stringify(exported) })).toMatchObject({ code: 'CONFLICT' });
    // removal unregisters the pack tools and flags members as missing
    expect(await call(host, 'packs.remove', { id: 'noir-desk' })).toEqual({ removed: true });
    expect(host.registry.get('pack.noir-desk:motive_map')).toBeUndefined();
    const after = await call<CouncilView>(host, 'council.get', {});
    expect(after.members.every((m) => m.missingItem && m.missingTools.includes('pack.noir-desk:motive_map'))).toBe(true);
    expect(await callError(host, 'packs.remove', { id: 'story-council' })).toMatchObject({ code: 'CONFLICT' });
    await host.dispose();
  });

  it('a PNG avatar next to the file is inlined as image/png', async () => {
    const host = await councilHost({ extensions: false });
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'face.png'), tinyPng());
    const pack = valid();
    pack.id = 'png-pack';
    pack.items[0]!.avatar = 'face.png';
    fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify(pack));
    await call(host, 'packs.import', { path: path.join(dir, 'pack.json') });
    const { dataUrl } = await call<{ dataUrl: string }>(host, 'packs.avatar', { packId: 'png-pack', itemId: 'gumshoe' });
    expect(dataUrl.startsWith('data:image/png;base64,iVBORw0KGgo')).toBe(true);
    await host.dispose();
  });

  it.each([
    ['genderIdentity 7', (p: ReturnType<typeof valid>) => void (p.items[2]!.genderIdentity = 7), '/items/2/genderIdentity'],
    ['genderIdentity "1"', (p: ReturnType<typeof valid>) => void (p.items[1]!.genderIdentity = '1'), '/items/1/genderIdentity'],
    ['missing definition', (p: ReturnType<typeof valid>) => void delete p.items[0]!.definition, '/items/0/definition'],
    ['duplicate item id', (p: ReturnType<typeof valid>) => void (p.items[2]!.id = 'gumshoe'), '/items/2/id'],
    ['bad pack id', (p: ReturnType<typeof valid>) => void (p.id = 'Bad Id!'), '/id'],
    ['avatar escaping the folder', (p: ReturnType<typeof valid>) => void (p.items[0]!.avatar = '../../etc/passwd.png'), '/items/0/avatar'],
    ['avatar as a remote URL', (p: ReturnType<typeof valid>) => void (p.items[0]!.avatar = 'https://evil.example/x.png'), '/items/0/avatar'],
    ['tool with a colon in its name', (p: ReturnType<typeof valid>) => void ((p.tools as Array<Record<string, unknown>>)[0]!.name = 'a:b'), '/tools/0/name'],
    [
      'no items and no tools',
      (p: ReturnType<typeof valid>) => {
        p.items = [];
        p.tools = [];
      },
      '/items',
    ],
    ['too many items', (p: ReturnType<typeof valid>) => void (p.items = Array.from({ length: PACK_LIMITS.maxItems + 1 }, (_, i) => ({ ...p.items[0]!, id: `i${i}` }))), '/items'],
  ])('malformed pack (%s) is refused naming the field path', async (_label, mutate, path_) => {
    const pack = valid();
    mutate(pack);
    const parsed = parsePack(JSON.stringify(pack));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatchObject({ code: 'INVALID_PACK', path: path_ });
  });

  it('not JSON, or over 64 MB: refused before anything is stored', async () => {
    const host = await councilHost({ extensions: false });
    expect(await callError(host, 'packs.import', { content: '{"id": "x", ' })).toMatchObject({ code: 'INVALID_PACK', message: expect.stringMatching(/not valid JSON/) });
    const dir = tempDir();
    // A file past the pack cap is refused by its size, unread.
    fs.writeFileSync(path.join(dir, 'big.json'), Buffer.alloc(PACK_LIMITS.maxFileBytes + 1, 0x20));
    expect(await callError(host, 'packs.import', { path: path.join(dir, 'big.json') })).toMatchObject({ code: 'INVALID_PACK', message: expect.stringMatching(/64 MB/) });
    // Sent as content, beyond the import cap of a call the contract refuses it unread.
    const big = valid();
    big.id = 'big-pack';
    big.items[0]!.definition = 'x'.repeat(MAX_IMPORT_INPUT_BYTES);
    expect(await callError(host, 'packs.import', { content: JSON.stringify(big) })).toMatchObject({ code: 'INPUT_TOO_LARGE' });
    expect(fs.existsSync(path.join(host.packs.userDir, 'big-pack.json'))).toBe(false);
    // a path import is for the CLI only
    const ws = await host.api.call('packs.import', { path: FIXTURE }, { origin: 'ws' });
    expect(ws).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/path' } });
    await host.dispose();
  });
});
