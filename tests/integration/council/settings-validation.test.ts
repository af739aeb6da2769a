import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMember, call, callError, councilHost } from './helpers';
import type { CouncilView } from '../../../shared/types/council';
import { COUNCIL_TOOLS_DEFAULTS } from '../../../shared/types/council';

afterEach(cleanupTempDirs);

describe('council settings validation', () => {
  it('has the reference defaults', async () => {
    const host = await councilHost({ extensions: false });
    const view = await call<CouncilView>(host, 'council.get', {});
    expect(view.settings.toolsSettings).toEqual({
      mode: 'sidecar',
      timeoutMs: 30000,
      sidecarContextWindow: 25,
      maxWordsPerTool: 250,
      includeCharacterInfo: true,
      includeWorldInfo: true,
      includeUserPersona: true,
      excludeLatestUserMessage: false,
      allowUserControl: false,
      retainResultsForRegens: false,
    });
    expect(view.settings.toolsSettings).toEqual(COUNCIL_TOOLS_DEFAULTS);
    expect(view.settings.atLeastOneMember).toBe(false);
    await host.dispose();
  });

  it.each([
    ['-1', -1],
    ['101', 101],
    ['NaN', Number.NaN],
    ['"50"', '50'],
    ['50.5', 50.5],
  ])('chance %s is rejected with the field path, and nothing changes', async (_label, chance) => {
    const host = await councilHost({ extensions: false });
    const add = await callError(host, 'council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', chance });
    expect(add).toMatchObject({ code: 'INVALID_INPUT', path: '/chance' });

    const id = await addMember(host, { chance: 40 });
    const set = await callError(host, 'council.setMember', { memberId: id, patch: { chance } });
    expect(set).toMatchObject({ code: 'INVALID_INPUT', path: '/patch/chance' });

    // Past the contract (a caller in the core): the service refuses it too, never coerces.
    await expect(host.council.setMember(id, { chance: chance as number })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/patch/chance' } });
    await expect(host.council.addMember({ packId: 'story-council', itemId: 'pacing-critic', chance: chance as number })).rejects.toMatchObject({
      error: { code: 'INVALID_INPUT', path: '/chance' },
    });

    // A whole council profile carrying the bad value names the member's field.
    const profile = JSON.stringify({ name: 'bad', savedAt: 0, council: { ...host.council.settings(), members: [{ ...host.council.settings().members[0], chance }] } });
    const imported = await callError(host, 'council.profiles.import', { content: profile });
    expect(imported).toMatchObject({ code: 'INVALID_INPUT', path: '/council/members/0/chance' });

    const view = await call<CouncilView>(host, 'council.get', {});
    expect(view.members.map((m) => m.chance)).toEqual([40]);
    await host.dispose();
  });

  it('refuses bad tool settings and retention with paths', async () => {
    const host = await councilHost({ extensions: false });
    expect(await callError(host, 'council.update', { patch: { toolsSettings: { timeoutMs: -5 } } })).toMatchObject({ path: '/patch/toolsSettings/timeoutMs' });
    expect(await callError(host, 'council.update', { patch: { toolsSettings: { mode: 'parallel' } } })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await callError(host, 'council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', toolHistoryRetention: { 'council:pacing_review': 11 } })).toMatchObject({
      path: '/toolHistoryRetention/council:pacing_review',
    });
    expect(await callError(host, 'council.addMember', { packId: 'story-council', itemId: 'nobody' })).toMatchObject({ code: 'NOT_FOUND', path: '/itemId' });
    // Council Mode needs a member.
    expect(await callError(host, 'council.update', { patch: { councilMode: true } })).toMatchObject({ path: '/councilMode' });
    await host.dispose();
  });

  it('members: add, set, reorder, remove, quick-add a pack; settings persist', async () => {
    const host = await councilHost({ extensions: false });
    const a = await addMember(host, { role: 'Plot Enforcer', chance: 70, tools: ['council:pacing_review', 'council:pacing_review'] });
    let view = await call<CouncilView>(host, 'council.quickAddPack', { packId: 'craft-circle', chance: 30, tools: ['council:character_voice'] });
    expect(view.members.map((m) => m.itemId)).toEqual(['plot-enforcer', 'voice-coach', 'worldbuilder', 'devils-advocate']);
    expect(view.members[0]!.tools).toEqual(['council:pacing_review']);
    expect(view.members[1]).toMatchObject({ chance: 30, name: 'Maestra Lio', packName: 'Craft Circle', avatarUrl: expect.stringMatching(/^\/packs\/craft-circle\/items\/voice-coach\/avatar$/) });
    // quick add again skips items already present
    view = await call<CouncilView>(host, 'council.quickAddPack', { packId: 'craft-circle' });
    expect(view.members).toHaveLength(4);
    // Without tools named, quick-added members get the pack's own tools (else they would never take part).
    view = await call<CouncilView>(host, 'council.quickAddPack', { packId: 'story-council' });
    expect(view.members.slice(4).map((m) => [m.itemId, m.tools])).toEqual([
      ['continuity-keeper', ['pack.story-council:stakes_check']],
      ['pacing-critic', ['pack.story-council:stakes_check']],
    ]);
    for (const m of view.members.slice(4)) await call<CouncilView>(host, 'council.removeMember', { memberId: m.id });
    view = await call<CouncilView>(host, 'council.quickAddPack', { packId: 'craft-circle' });
    expect(view.members).toHaveLength(4);
    view = await call<CouncilView>(host, 'council.setMember', { memberId: a, patch: { role: 'Enforcer', toolHistoryRetention: { 'council:pacing_review': 3 } } });
    expect(view.members[0]).toMatchObject({ role: 'Enforcer', toolHistoryRetention: { 'council:pacing_review': 3 } });
    const ids = view.members.map((m) => m.id).reverse();
    view = await call<CouncilView>(host, 'council.reorderMembers', { memberIds: ids });
    expect(view.members.map((m) => m.id)).toEqual(ids);
    expect(await callError(host, 'council.reorderMembers', { memberIds: ids.slice(1) })).toMatchObject({ path: '/memberIds' });
    view = await call<CouncilView>(host, 'council.update', { patch: { councilMode: true, atLeastOneMember: true, toolsSettings: { mode: 'inline', maxWordsPerTool: 80 } } });
    expect(view.settings).toMatchObject({ councilMode: true, atLeastOneMember: true, toolsSettings: { mode: 'inline', maxWordsPerTool: 80, timeoutMs: 30000 } });
    view = await call<CouncilView>(host, 'council.removeMember', { memberId: a });
    expect(view.members).toHaveLength(3);
    expect(host.settings.get().council.toolsSettings?.maxWordsPerTool).toBe(80);
    expect(host.events.some((e) => e.type === 'council.changed')).toBe(true);
    await host.dispose();
  });

  it('profiles: save, list, load, export, import', async () => {
    const host = await councilHost({ extensions: false });
    await addMember(host, { role: 'A', tools: ['council:pacing_review'] });
    await call(host, 'council.profiles.save', { name: 'Noir night' });
    await call(host, 'council.quickAddPack', { packId: 'craft-circle' });
    expect(host.council.settings().members).toHaveLength(4);
    expect(await call(host, 'council.profiles.list', {})).toEqual([{ name: 'Noir night', savedAt: expect.any(Number), members: 1 }]);
    const loaded = await call<CouncilView>(host, 'council.profiles.load', { name: 'Noir night' });
    expect(loaded.members.map((m) => m.role)).toEqual(['A']);
    const file = await call<{ fileName: string; content: string }>(host, 'council.profiles.export', { name: 'Noir night' });
    expect(file.fileName).toBe('noir-night.council-profile.json');
    await call(host, 'council.profiles.import', { content: file.content, name: 'Copy' });
    expect((await call<Array<{ name: string }>>(host, 'council.profiles.list', {})).map((p) => p.name)).toEqual(['Copy', 'Noir night']);
    expect(await callError(host, 'council.profiles.import', { content: '{"name":' })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await callError(host, 'council.profiles.load', { name: 'nope' })).toMatchObject({ code: 'NOT_FOUND' });
    await host.dispose();
  });
});
