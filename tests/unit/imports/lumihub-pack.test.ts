// Lumia packs in LumiHub's shape: imported (gender codes, loom-only packs, no remote fetch), exported back, and a
// second import of the same pack replaced or kept beside the first.
import fs from 'node:fs';
import fc from 'fast-check';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toLumiHub } from '../../../electron/core/packs/lumihub-pack';
import { PackStore } from '../../../electron/core/packs/pack-store';
import { silentLogger } from '../../../electron/core/ports';
import { HostFailure } from '../../../shared/errors';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const lumihub = {
  packName: 'Harbor Crew',
  packAuthor: 'Ada',
  coverUrl: 'https://example.com/cover.webp',
  version: 2,
  packExtras: [{ kind: 'note' }],
  lumiaItems: [
    { lumiaName: 'Old Salt', lumiaDefinition: 'A retired sailor.', lumiaPersonality: 'Gruff', lumiaBehavior: 'Swears', avatarUrl: 'https://example.com/salt.webp', genderIdentity: '1', authorName: 'Ada', version: '1' },
    { lumiaName: 'Old Salt', lumiaDefinition: 'Another one.', lumiaPersonality: '', lumiaBehavior: '', genderIdentity: 7 },
    { lumiaName: 'Mender', lumiaDefinition: 'Fixes nets.', lumiaPersonality: '', lumiaBehavior: '', genderIdentity: 3 },
  ],
  loomItems: [{ loomName: 'Tide chart', loomContent: 'Low at six.', loomCategory: 'Utility' }],
};

let dataDir = '';
function store() {
  dataDir = tempDir();
  return new PackStore({ dataDir, bundledDir: null, log: silentLogger });
}

describe('LumiHub packs', () => {
  it('imports the LumiHub shape: items, gender codes (unknown → any), avatar links kept, never fetched', () => {
    const packs = store();
    const { pack } = packs.import(JSON.stringify(lumihub));
    expect(pack).toMatchObject({ id: 'harbor-crew', name: 'Harbor Crew', version: '2', author: 'Ada' });
    expect(pack.items.map((i) => [i.id, i.name, i.genderIdentity])).toEqual([
      ['old-salt', 'Old Salt', 1],
      ['old-salt-2', 'Old Salt', 3],
      ['mender', 'Mender', 3],
    ]);
    expect(pack.items.every((i) => i.avatar === undefined)).toBe(true);
    expect(pack.lumihub).toMatchObject({ coverUrl: 'https://example.com/cover.webp', avatarUrls: { 'old-salt': 'https://example.com/salt.webp' } });
  });

  it('a pack of only loom items imports with no members, its loom items kept and listed', () => {
    const packs = store();
    const stored = packs.import(JSON.stringify({ packName: 'Looms', packAuthor: 'L', version: 1, lumiaItems: [], loomItems: lumihub.loomItems }));
    expect(stored.pack.items).toEqual([]);
    expect(packs.summary(stored, (p, t) => `${p}:${t}`).loomItems).toEqual(['Tide chart']);
  });

  it('exports back to the LumiHub shape exactly as it came: every field, each value as written (a "1" stays "1", 7 stays 7)', () => {
    const packs = store();
    packs.import(JSON.stringify(lumihub));
    const out = JSON.parse(packs.export('harbor-crew', 'lumihub').content) as typeof lumihub;
    expect(out).toEqual(lumihub);
    // And it imports again as the same pack.
    const again = store().import(JSON.stringify(out)).pack;
    expect(again.items.map((i) => i.name)).toEqual(['Old Salt', 'Old Salt', 'Mender']);
  });

  it('after edits, only what was edited changes; each persona keeps its own author; an added persona gets the pack’s', () => {
    const packs = store();
    const { pack } = packs.import(JSON.stringify({ ...lumihub, lumiaItems: [{ ...lumihub.lumiaItems[0], authorName: 'Grace' }, lumihub.lumiaItems[2]] }));
    const edited = {
      ...pack,
      author: 'Linus',
      items: [{ ...pack.items[0]!, definition: 'A sailor, retired twice.' }, { ...pack.items[1]!, genderIdentity: 3 as const }, { id: 'new-hand', name: 'New Hand', definition: 'Just signed on.', personality: '', behavior: '', genderIdentity: 0 as const }],
    };
    const out = toLumiHub(edited) as { packAuthor: string; lumiaItems: Array<Record<string, unknown>> };
    expect(out.packAuthor).toBe('Linus');
    expect(out.lumiaItems[0]).toEqual({ ...lumihub.lumiaItems[0], authorName: 'Grace', lumiaDefinition: 'A sailor, retired twice.' });
    // Unedited: "any" (3) came as 3 and stays 3.
    expect(out.lumiaItems[1]).toEqual(lumihub.lumiaItems[2]);
    expect(out.lumiaItems[2]).toMatchObject({ lumiaName: 'New Hand', authorName: 'Linus', genderIdentity: 0 });
  });

  it('the older Lumia shape (name, author, items with name and definition, loomTools) imports, and exports as LumiHub with all of it', () => {
    const older = {
      name: 'Old Guard',
      author: 'Mira',
      description: 'From before LumiHub.',
      items: [{ name: 'Warden', definition: 'Keeps the gate.', personality: 'Stern', behavior: 'Counts keys', custom: { mood: 4 } }],
      loomTools: [{ toolName: 'gate_check' }],
    };
    const packs = store();
    const { pack } = packs.import(JSON.stringify(older));
    expect(pack).toMatchObject({ id: 'old-guard', name: 'Old Guard', author: 'Mira', items: [{ id: 'warden', name: 'Warden', definition: 'Keeps the gate.', personality: 'Stern', behavior: 'Counts keys' }] });
    const out = JSON.parse(packs.export('old-guard', 'lumihub').content) as Record<string, unknown>;
    expect(out).toMatchObject({ packName: 'Old Guard', packAuthor: 'Mira', description: 'From before LumiHub.', loomItems: older.loomTools, lumiaItems: [{ lumiaName: 'Warden', lumiaDefinition: 'Keeps the gate.', custom: { mood: 4 } }] });
  });

  it('a Lumia DLC in its older published shape (name, author, coverUrl, lumiaItems) imports, and exports as LumiHub with all of it', () => {
    const { packName: _n, packAuthor: _a, ...rest } = lumihub;
    const dlc = { name: 'Harbor Crew DLC', author: 'Prolix', ...rest };
    const packs = store();
    const { pack } = packs.import(JSON.stringify(dlc));
    expect(pack).toMatchObject({ id: 'harbor-crew-dlc', name: 'Harbor Crew DLC', author: 'Prolix' });
    expect(pack.items.map((i) => i.name)).toEqual(['Old Salt', 'Old Salt', 'Mender']);
    const out = JSON.parse(packs.export('harbor-crew-dlc', 'lumihub').content) as Record<string, unknown>;
    expect(out).toMatchObject({ packName: 'Harbor Crew DLC', packAuthor: 'Prolix', coverUrl: lumihub.coverUrl, packExtras: lumihub.packExtras, loomItems: lumihub.loomItems });
    expect((out.lumiaItems as unknown[]).length).toBe(3);
  });

  it('a file that is no pack at all says what is accepted, not which field is missing', () => {
    const packs = store();
    try {
      packs.import(JSON.stringify({ title: 'Not a pack', things: [] }));
      throw new Error('expected INVALID_PACK');
    } catch (err) {
      expect((err as HostFailure).error).toMatchObject({ code: 'INVALID_PACK', message: 'This file is not a Lumia pack the Workbench reads.', hint: expect.stringContaining('packName and lumiaItems') });
    }
  });

  it('importing the same pack again: refused with both choices named, replaced with overwrite, kept beside with keepBoth', () => {
    const packs = store();
    packs.import(JSON.stringify(lumihub));
    try {
      packs.import(JSON.stringify(lumihub));
      throw new Error('expected CONFLICT');
    } catch (err) {
      expect((err as HostFailure).error).toMatchObject({ code: 'CONFLICT', path: '/id', hint: expect.stringMatching(/keepBoth.*--keep-both/) });
    }
    expect(packs.import(JSON.stringify({ ...lumihub, version: 3 }), { overwrite: true }).pack.version).toBe('3');
    const both = packs.import(JSON.stringify(lumihub), { keepBoth: true }).pack;
    expect(both).toMatchObject({ id: 'harbor-crew-2', name: 'Harbor Crew (2)' });
    expect(fs.existsSync(path.join(dataDir, 'packs', 'harbor-crew-2.json'))).toBe(true);
  });
});

describe('pack avatars next to the file', () => {
  it('a symlinked avatar that leads outside the pack folder is refused, never inlined (issue 18, finding 7)', () => {
    const folder = tempDir();
    const outside = path.join(tempDir(), 'secret.png');
    fs.writeFileSync(outside, 'not for you');
    fs.symlinkSync(outside, path.join(folder, 'face.png'));
    const pack = { id: 'linked', name: 'Linked', version: '1', items: [{ id: 'a', name: 'A', avatar: 'face.png', definition: '', personality: '', behavior: '', genderIdentity: 3 }] };
    try {
      store().import(JSON.stringify(pack), { baseDir: folder });
      throw new Error('expected a refusal');
    } catch (err) {
      expect((err as HostFailure).error).toMatchObject({ code: 'INVALID_PACK', path: '/items/0/avatar' });
    }
    expect(fs.existsSync(path.join(dataDir, 'packs', 'linked.json'))).toBe(false);
  });
});

// ---- a property: any LumiHub pack, with fields nobody here reads, comes back as it came ----
const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const leaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 3 })) })).v;
const extras = (reserved: readonly string[]) => fc.dictionary(key.filter((k) => !reserved.includes(k)), value, { maxKeys: 3 });
const ITEM_KEYS = ['lumiaName', 'lumiaDefinition', 'lumiaPersonality', 'lumiaBehavior', 'avatarUrl', 'genderIdentity', 'authorName', 'id', 'name'];
const item = fc
  .record(
    {
      lumiaName: fc.string({ minLength: 1, maxLength: 20 }).filter((n) => n.trim() !== ''),
      lumiaDefinition: fc.string({ maxLength: 40 }),
      lumiaPersonality: fc.string({ maxLength: 20 }),
      lumiaBehavior: fc.string({ maxLength: 20 }),
      avatarUrl: fc.constantFrom('https://example.com/a.webp', ''),
      genderIdentity: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('0', '1', '2')),
      authorName: fc.string({ maxLength: 12 }),
    },
    { requiredKeys: ['lumiaName', 'lumiaDefinition'] },
  )
  .chain((fields) => extras(ITEM_KEYS).map((more) => ({ ...more, ...fields })));
const PACK_KEYS = ['packName', 'packAuthor', 'coverUrl', 'version', 'lumiaItems', 'loomItems', 'packExtras', 'id', 'name', 'items'];
const pack = fc
  .record({
    packName: fc.string({ minLength: 1, maxLength: 20 }).filter((n) => /[a-z0-9]{2}/i.test(n)),
    packAuthor: fc.string({ maxLength: 12 }),
    version: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom('1.0', '2')),
    lumiaItems: fc.array(item, { minLength: 1, maxLength: 4 }),
    loomItems: fc.array(fc.record({ loomName: fc.string({ minLength: 1, maxLength: 12 }), loomContent: fc.string({ maxLength: 30 }), loomCategory: fc.string({ maxLength: 10 }) }), { maxLength: 2 }),
    top: extras(PACK_KEYS),
  })
  .map(({ top, ...fields }) => JSON.parse(JSON.stringify({ ...top, ...fields })) as Record<string, unknown>);

describe('properties: every generated LumiHub pack', () => {
  it('personas whose names make number-like ids (a pack once came back with them as new personas) export as they came', () => {
    const original = { packName: 'Numbers', packAuthor: '', version: '1.0', lumiaItems: [{ lumiaName: '!', lumiaDefinition: '' }, { lumiaName: '10', lumiaDefinition: 'x' }, { lumiaName: '!', lumiaDefinition: '' }], loomItems: [] };
    const packs = store();
    const { pack: stored } = packs.import(JSON.stringify(original));
    expect(JSON.parse(packs.export(stored.id, 'lumihub').content)).toEqual(original);
  });


  it('exported back to LumiHub equals the file it came from, extra fields at every level included', () => {
    fc.assert(
      fc.property(pack, (original) => {
        const packs = store();
        const { pack: stored } = packs.import(JSON.stringify(original));
        expect(JSON.parse(packs.export(stored.id, 'lumihub').content)).toEqual(original);
      }),
      { numRuns: 100 },
    );
  });
});
