import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type Clock } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { SettingsStore, type SettingsStoreOptions } from '../../../electron/core/settings/settings-store';
import { defaultSettings, SETTINGS_VERSION } from '../../../shared/settings';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const clock: Clock = { now: () => 1_700_000_000_000 };
const open = (dataDir: string, extra: Partial<SettingsStoreOptions> = {}) =>
  SettingsStore.open({ dataDir, backend: confBackend, clock, log: silentLogger, ...extra });
const settingsFile = (dir: string) => path.join(dir, 'settings.json');
const asideFiles = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'));

afterEach(cleanupTempDirs);

describe('settings store', () => {
  it('creates a valid settings file with defaults on first start', async () => {
    const dir = tempDir();
    const store = await open(dir);
    expect(store.get().version).toBe(SETTINGS_VERSION);
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8')).ui.theme).toBe('system');
    expect(store.problems).toEqual([]);
  });

  const badFiles: Array<[string, string, RegExp]> = [
    ['truncated', '{"version":1,"ui":{"theme":"da', /not valid JSON/],
    ['not JSON', 'hello, I am not settings', /not valid JSON/],
    ['JSON of the wrong shape', JSON.stringify({ version: 1, ui: { theme: 'purple' }, extensions: {}, council: { councilMode: false, members: [] } }), /partly invalid: ui \(.*\/ui\/theme/],
    ['a JSON array', '[1,2,3]', /not a JSON object/],
    ['from a newer version', JSON.stringify({ version: SETTINGS_VERSION + 1, ui: { theme: 'dark' } }), /newer version/],
  ];

  it.each(badFiles)('S1, S2: a settings file that is %s is moved aside, defaults load and the user is told', async (_label, content, reason) => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), content);
    const store = await open(dir);
    const aside = asideFiles(dir);
    expect(aside).toEqual([`settings.json.corrupt-${clock.now()}`]);
    expect(fs.readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe(content);
    expect(store.get().ui.theme).toBe('system');
    // What the host's SETTINGS_RECOVERED notice tells the user (its wording: the e2e shell spec).
    expect(store.problems).toEqual([expect.objectContaining({ movedTo: path.join(dir, aside[0]!), reason: expect.stringMatching(reason) })]);
    // The file on disk is valid again.
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8')).version).toBe(SETTINGS_VERSION);
  });

  it('S2: one bad field resets only its section: the rest of the file loads, the original is kept as a copy', async () => {
    const dir = tempDir();
    const store = await open(dir);
    await store.update({ ui: { theme: 'dark' } });
    const doc = JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8')) as Record<string, Record<string, unknown>>;
    doc.council!.toolsSettings = { ...(doc.council!.toolsSettings as object), timeoutMs: 'soon' };
    fs.writeFileSync(settingsFile(dir), JSON.stringify(doc));
    const reopened = await open(dir);
    expect(reopened.get().ui.theme).toBe('dark');
    expect(reopened.get().council).toEqual(defaultSettings().council);
    expect(reopened.problems).toEqual([expect.objectContaining({ partial: true, reason: expect.stringMatching(/^partly invalid: council \(\/council\/toolsSettings/) })]);
    expect(asideFiles(dir)).toHaveLength(1);
  });

  it('removes temp files a killed writer left, and keeps settings.json.bak in step with every save', async () => {
    const dir = tempDir();
    await open(dir);
    fs.writeFileSync(path.join(dir, 'settings.json.tmp-1700000000000abc'), '{"half');
    fs.writeFileSync(path.join(dir, 'settings.json.4242.0a1b2c3d.tmp'), '{"half');
    fs.writeFileSync(path.join(dir, 'settings.json.notes'), 'not ours');
    const store = await open(dir);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'settings.json.notes'))).toBe(true);
    await store.update({ ui: { theme: 'dark' } });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'settings.json.bak'), 'utf8')).ui.theme).toBe('dark');
  });

  it('leaves settings.json.bak alone at an open that changes nothing, and writes it again when it is stale', async () => {
    const dir = tempDir();
    await open(dir);
    const backup = path.join(dir, 'settings.json.bak');
    const written = fs.statSync(backup).ino;
    await open(dir);
    // An atomic write renames a new file over the old one: the same inode means no write happened.
    expect(fs.statSync(backup).ino).toBe(written);
    fs.writeFileSync(backup, '{"stale": true}');
    await open(dir);
    expect(JSON.parse(fs.readFileSync(backup, 'utf8')).version).toBe(SETTINGS_VERSION);
  });

  it('loads the last good copy when the main file is corrupt', async () => {
    const dir = tempDir();
    const first = await open(dir);
    await first.update({ ui: { theme: 'dark' } });
    // The backup is the copy that loaded cleanly at the last start.
    await open(dir);
    fs.writeFileSync(settingsFile(dir), '{"version":');
    const recovered = await open(dir);
    expect(recovered.recoveredFromBackup).toBe(true);
    expect(recovered.get().ui.theme).toBe('dark');
  });

  it('S3: keeps all of 50 concurrent updates and leaves a valid file', async () => {
    const dir = tempDir();
    const store = await open(dir);
    const updates = Array.from({ length: 50 }, (_, i) =>
      store.update((current) => ({
        ...current,
        council: { ...current.council, members: [...current.council.members, { id: `m${i}`, packId: 'p', itemId: 'i', role: '', chance: i, tools: [] }] },
      })),
    );
    await Promise.all(updates);
    const onDisk = JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8'));
    expect(onDisk.council.members).toHaveLength(50);
    expect(new Set(onDisk.council.members.map((m: { id: string }) => m.id)).size).toBe(50);
    expect(fs.readdirSync(dir).filter((f) => f !== 'settings.json' && f !== 'settings.json.bak')).toEqual([]);
  });

  it('rejects an invalid update with the field path and keeps the old state', async () => {
    const dir = tempDir();
    const store = await open(dir);
    await expect(store.update({ council: { members: [{ id: 'a', packId: 'p', itemId: 'i', role: '', chance: 101, tools: [] }] } })).rejects.toMatchObject({
      error: { code: 'SETTINGS_INVALID', path: '/council/members/0/chance' },
    });
    expect(store.get().council.members).toEqual([]);
    // Later updates still work.
    await store.update({ ui: { theme: 'light' } });
    expect(store.get().ui.theme).toBe('light');
  });

  it('ignores prototype keys in a patch', async () => {
    const store = await open(tempDir());
    await store.update(JSON.parse('{"__proto__":{"polluted":true},"ui":{"theme":"dark"}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(store.get().ui.theme).toBe('dark');
  });

  it('runs versioned migrations on an older file', async () => {
    const dir = tempDir();
    fs.writeFileSync(settingsFile(dir), JSON.stringify({ version: 1, theme: 'dark' }));
    const store = await open(dir, {
      version: 2,
      migrations: [
        {
          from: 1,
          migrate: (doc) => ({ ui: { theme: doc.theme }, extensions: {}, council: { councilMode: false, members: [] } }),
        },
      ],
    });
    expect(store.get()).toMatchObject({ version: 2, ui: { theme: 'dark' } });
    expect(store.problems).toEqual([]);
  });

  it('S6: surfaces a failed write as SETTINGS_WRITE_FAILED and keeps the old state', async () => {
    const dir = tempDir();
    let failNext = false;
    const store = await open(dir, {
      backend: (opts) => {
        const real = confBackend(opts);
        return {
          ...real,
          path: real.path,
          write(doc) {
            if (failNext) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
            real.write(doc);
          },
        };
      },
    });
    failNext = true;
    await expect(store.update({ ui: { theme: 'dark' } })).rejects.toMatchObject({ error: { code: 'SETTINGS_WRITE_FAILED' } });
    expect(store.get().ui.theme).toBe('system');
    expect(JSON.parse(fs.readFileSync(settingsFile(dir), 'utf8')).ui.theme).toBe('system');
  });
});
