// spindle.presets over the real chats' database, through the contract's dispatcher: Lumiverse's preset and prompt
// block shapes and defaults, the revision every change bumps (a stale writer refused with Lumiverse's code and
// fields), categories from the markers, prompt variable values pruned, kept across a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { presetHandlers } from '../../../electron/core/extensions/spindle-host/presets';
import { PresetStore } from '../../../electron/core/presets/preset-store';
import { PERSON, RegexStore } from '../../../electron/core/regex/regex-store';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

type Preset = { id: string; name: string; cache_revision: number; prompt_order: Array<Record<string, unknown>>; metadata: Record<string, unknown>; created_at: number; engine: string };

function setup(dir = tempDir()) {
  const clock = { t: 1_750_000_000_000, now() { return this.t; } };
  const sessions = new SessionStore({ dataDir: dir, clock });
  const store = new PresetStore(sessions.db, clock);
  const regex = new RegexStore(sessions.db, clock);
  const call = (method: string, ...args: unknown[]) => callSpindle(presetHandlers(() => store, () => regex), anyCaller('x'), method, { args });
  return { dir, sessions, store, regex, call, clock };
}

describe('presets', () => {
  it('creates with Lumiverse’s defaults, lists, gets, updates at the read revision and deletes', async () => {
    const { call, clock } = setup();
    const made = (await call('presets.create', { name: 'Loom Classic', provider: 'loom', prompt_order: [{ name: 'Main', content: 'Be vivid.' }, {}], metadata: { description: 'mine' } })) as Preset;
    expect(made).toMatchObject({ name: 'Loom Classic', provider: 'loom', engine: 'classic', parameters: {}, prompts: {}, cache_revision: 0, created_at: 1_750_000_000 });
    expect(made.prompt_order[0]).toEqual({ id: expect.any(String), name: 'Main', content: 'Be vivid.', role: 'system', enabled: true, position: 'pre_history', depth: 0, marker: null, isLocked: false, color: null, injectionTrigger: [], group: null, categoryMode: null });
    expect(made.prompt_order[1]).toMatchObject({ name: 'New Chat', content: '' });
    expect(await call('presets.get', made.id)).toEqual(made);
    expect(await call('presets.list', { limit: 10 })).toEqual({ data: [made], total: 1 });
    // The most recently changed first, as Lumiverse lists them.
    clock.t += 5000;
    const later = (await call('presets.create', { name: 'Later', provider: 'loom' })) as Preset;
    expect(((await call('presets.list')) as { data: Preset[] }).data.map((p) => p.id)).toEqual([later.id, made.id]);
    clock.t += 5000;
    await call('presets.update', made.id, { expected_cache_revision: 0, name: 'Loom Classic' });
    expect(((await call('presets.list')) as { data: Preset[] }).data.map((p) => p.id)).toEqual([made.id, later.id]);

    const updated = (await call('presets.update', made.id, { expected_cache_revision: 1, metadata: { ...made.metadata, vellum_engine: { v: 1 } } }, 'user-1')) as Preset;
    expect(updated).toMatchObject({ cache_revision: 2, metadata: { description: 'mine', vellum_engine: { v: 1 } }, name: 'Loom Classic' });
    expect(updated.prompt_order).toEqual(made.prompt_order);
    expect(await call('presets.delete', made.id)).toBe(true);
    expect(await call('presets.delete', made.id)).toBe(false);
    expect(await call('presets.get', made.id)).toBeNull();
  });

  it("a preset deleted takes its own regex scripts with it (its import brought them); others' stay", async () => {
    const { call, regex } = setup();
    const made = (await call('presets.create', { name: 'Devilish', provider: 'loom' })) as Preset;
    const other = (await call('presets.create', { name: 'Plain', provider: 'loom' })) as Preset;
    regex.create({ name: 'Hide thoughts', find_regex: '<Thoughts>', scope: 'preset', scope_id: made.id }, PERSON);
    regex.create({ name: 'Its own', find_regex: 'x', scope: 'preset', scope_id: other.id }, PERSON);
    regex.create({ name: 'Everywhere', find_regex: 'y' }, PERSON);
    expect(await call('presets.delete', made.id)).toBe(true);
    expect(regex.all().map((s) => s.name)).toEqual(['Its own', 'Everywhere']);
  });

  it('refuses a writer holding an old revision with Lumiverse’s code and the current revision, changing nothing', async () => {
    const { call } = setup();
    const made = (await call('presets.create', { name: 'P', provider: 'loom' })) as Preset;
    await call('presets.update', made.id, { expected_cache_revision: 0, name: 'Q' });
    await expect(call('presets.update', made.id, { expected_cache_revision: 0, name: 'R' })).rejects.toMatchObject({
      error: { code: 'PRESET_REVISION_CONFLICT', message: `Preset ${made.id} changed since revision 0; current revision is 1`, detail: { presetId: made.id, expectedCacheRevision: 0, actualCacheRevision: 1 } },
    });
    expect(await call('presets.get', made.id)).toMatchObject({ name: 'Q', cache_revision: 1 });
    // The revision is required, as Lumiverse's contract says; a wrong field is named.
    await expect(call('presets.update', made.id, { name: 'S' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/expected_cache_revision' } });
    await expect(call('presets.create', { name: '', provider: 'loom' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/name' } });
    // A block's fields of the wrong kind take Lumiverse's defaults, as its normalizer gives them, rather than refusing it.
    const odd = (await call('presets.create', { name: 'X', provider: 'loom', prompt_order: [{ role: 'narrator', depth: 'deep', position: 7, enabled: 0 }] })) as Preset;
    expect(odd.prompt_order[0]).toMatchObject({ role: 'system', depth: 0, position: 'pre_history', enabled: false });
    // Only the preset's own fields are written: an id or a stray field sent with an update is not kept.
    const kept = (await call('presets.update', odd.id, { expected_cache_revision: 0, id: 'stolen', created_at: 1, stray: 1, name: 'Y' })) as Preset;
    expect(kept).toMatchObject({ id: odd.id, name: 'Y', created_at: 1_750_000_000 });
    expect(await call('presets.get', odd.id)).not.toHaveProperty('stray');
    await expect(call('presets.update', 'nope', { expected_cache_revision: 0 })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/presetId' } });
  });

  it('edits blocks in place (each a new revision), groups them under category markers and prunes orphaned variable values', async () => {
    const { call } = setup();
    const preset = (await call('presets.create', {
      name: 'Vars',
      provider: 'loom',
      prompt_order: [{ id: 'style', name: 'Style', variables: [{ id: 'v1', name: 'tone', label: 'Tone', type: 'text', defaultValue: 'warm' }] }],
      metadata: { promptVariables: { style: { tone: 'cold', gone: 'x' }, deleted: { tone: 'y' } } },
    })) as Preset;
    expect(preset.metadata.promptVariables).toEqual({ style: { tone: 'cold' } });

    const binding = { variableId: 'v1', options: { warm: { role: 'system', position: 'in_history', depth: 2 } } };
    await call('presets.blocks.update', preset.id, 'style', { placementBinding: binding });
    const tone = (await call('presets.blocks.create', preset.id, { name: 'Tone', marker: 'category', categoryMode: 'radio' }, { index: 0 })) as { id: string };
    // Another block's edit keeps the binding (every block is normalized again on each write).
    expect(await call('presets.blocks.get', preset.id, 'style')).toMatchObject({ placementBinding: binding });
    const extra = (await call('presets.blocks.create', preset.id, { name: 'Extra', content: 'More.', marker: 'note', categoryMode: 'radio' })) as { id: string; categoryMode: unknown };
    expect(extra.categoryMode).toBeNull();
    expect(((await call('presets.blocks.list', preset.id)) as Array<{ name: string }>).map((b) => b.name)).toEqual(['Tone', 'Style', 'Extra']);
    expect(await call('presets.blocks.update', preset.id, extra.id, { enabled: false, id: 'ignored' })).toMatchObject({ id: extra.id, enabled: false, content: 'More.' });
    const groups = (await call('presets.categories.list', preset.id)) as Array<{ categoryBlock: { id: string } | null; children: Array<{ name: string }> }>;
    expect(groups.map((g) => [g.categoryBlock?.id ?? null, g.children.map((c) => c.name)])).toEqual([[tone.id, ['Style', 'Extra']]]);

    expect(await call('presets.blocks.delete', preset.id, 'style')).toBe(true);
    expect(await call('presets.blocks.delete', preset.id, 'style')).toBe(false);
    expect(await call('presets.blocks.delete', 'no-such-preset', 'style')).toBe(false);
    const after = (await call('presets.get', preset.id)) as Preset;
    expect(after.cache_revision).toBe(5);
    expect(after.metadata.promptVariables).toEqual({});
    expect(await call('presets.blocks.get', preset.id, extra.id)).toMatchObject({ name: 'Extra' });
    await expect(call('presets.blocks.update', preset.id, 'nope', {})).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/blockId' } });
    await expect(call('presets.blocks.list', 'nope')).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('are kept in the database across a restart, and a permissionless caller is refused', async () => {
    const first = setup();
    const made = (await first.call('presets.create', { name: 'Kept', provider: 'openai', parameters: { temperature: 0.8 } })) as Preset;
    await first.sessions.close();
    const second = setup(first.dir);
    expect(await second.call('presets.get', made.id)).toEqual(made);
    const none = { extensionId: 'x', allowed: () => false };
    await expect(callSpindle(presetHandlers(() => second.store), none, 'presets.list', { args: [] })).rejects.toMatchObject({ error: { code: 'PERMISSION_DENIED' } });
  });
});
