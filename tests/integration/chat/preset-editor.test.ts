// The preset editor's reads and writes of one preset: the whole preset, a change at the revision it was read at, a
// stale revision refused with the one it is at (nothing changed), and every writer's change told to the window.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventPayloadFor } from '../../../shared/spindle/event-access';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { callIn, heard, installListener } from '../extensions/event-listener';
import { chatRig, type ChatRig } from './helpers';

let rig: ChatRig;
beforeEach(async () => {
  rig = await chatRig();
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

const LOOM = { name: 'Loom Suite', blocks: [{ id: 'main', name: 'Main Prompt', content: 'Be {{char}}.' }, { id: 'hist', name: 'Chat History', marker: 'chat_history' }] };

async function imported(): Promise<string> {
  const made = await rig.call('chat.presets.import', { fileName: 'Loom Suite.json', json: JSON.stringify(LOOM) });
  if (!made.ok) throw new Error(JSON.stringify(made.error));
  return (made.value as { id: string }).id;
}

describe('the preset editor on the host', () => {
  it('reads a preset whole and changes it at its revision; a stale revision is refused and changes nothing', async () => {
    const presetId = await imported();
    const read = await rig.call('chat.presets.get', { presetId });
    expect(read).toMatchObject({ ok: true, value: { id: presetId, name: 'Loom Suite', cache_revision: 0 } });
    const blocks = (read.value as { prompt_order: Array<Record<string, unknown>> }).prompt_order;
    expect(blocks.map((b) => [b.id, b.enabled, b.role])).toEqual([['main', true, 'system'], ['hist', true, 'system']]);

    const off = blocks.map((b) => (b.id === 'main' ? { ...b, enabled: false, content: 'Be {{char}}, briefly.' } : b));
    const saved = await rig.call('chat.presets.update', { presetId, prompt_order: off, metadata: { note: 'kept' }, expected_cache_revision: 0 });
    expect(saved).toMatchObject({ ok: true, value: { cache_revision: 1, metadata: { note: 'kept' } } });
    expect((saved.value as { prompt_order: Array<Record<string, unknown>> }).prompt_order[0]).toMatchObject({ enabled: false, content: 'Be {{char}}, briefly.' });

    const stale = await rig.call('chat.presets.update', { presetId, name: 'Renamed', expected_cache_revision: 0 });
    expect(stale.ok).toBe(false);
    expect(!stale.ok && stale.error).toMatchObject({ code: 'PRESET_REVISION_CONFLICT', detail: { actualCacheRevision: 1 } });
    expect((await rig.call('chat.presets.get', { presetId })).value).toMatchObject({ name: 'Loom Suite', cache_revision: 1 });
  });

  it('names the field of a bad change and of a preset that is not there', async () => {
    const missing = await rig.call('chat.presets.get', { presetId: 'nope' });
    expect(!missing.ok && missing.error).toMatchObject({ code: 'NOT_FOUND' });
    const presetId = await imported();
    const bad = await rig.call('chat.presets.update', { presetId, name: '', expected_cache_revision: 0 } as never);
    expect(!bad.ok && bad.error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(!bad.ok && JSON.stringify(bad.error)).toContain('name');
    // Blocks the editor could not tell apart, or place: refused at the block, nothing changed.
    const blocks = LOOM.blocks.map((b) => ({ ...b }));
    const twice = await rig.call('chat.presets.update', { presetId, prompt_order: [...blocks, { ...blocks[0]! }], expected_cache_revision: 0 });
    expect(!twice.ok && twice.error).toMatchObject({ code: 'INVALID_INPUT', path: '/prompt_order/2/id' });
    const deep = await rig.call('chat.presets.update', { presetId, prompt_order: [{ ...blocks[0]!, depth: -1 }], expected_cache_revision: 0 });
    expect(!deep.ok && deep.error).toMatchObject({ code: 'INVALID_INPUT', path: '/prompt_order/0/depth' });
    // A stale revision is named as this method names it.
    const stale = await rig.call('chat.presets.update', { presetId, name: 'Later', expected_cache_revision: 5 });
    expect(!stale.ok && stale.error).toMatchObject({ code: 'PRESET_REVISION_CONFLICT', path: '/expected_cache_revision' });
    expect((await rig.call('chat.presets.get', { presetId })).value).toMatchObject({ cache_revision: 0, prompt_order: [{ id: 'main' }, { id: 'hist' }] });
  });

  it("tells the window of each change, and an extension the preset only with presets", async () => {
    const presetId = await imported();
    const told = () => rig.events.filter((e) => e.type === 'presets.changed');
    expect(told()).toEqual([{ type: 'presets.changed', presetId, change: 'updated' }]);
    await rig.call('chat.presets.update', { presetId, name: 'Renamed', expected_cache_revision: 0 });
    // A refused change is no change: nothing told.
    await rig.call('chat.presets.update', { presetId, name: 'Stale', expected_cache_revision: 0 });
    expect(told()).toEqual([{ type: 'presets.changed', presetId, change: 'updated' }, { type: 'presets.changed', presetId, change: 'updated' }]);
    const preset = (await rig.call('chat.presets.get', { presetId })).value;
    expect(eventPayloadFor('PRESET_CHANGED', { id: presetId, preset }, ['presets'], 'x')).toEqual({ id: presetId, preset });
    expect(eventPayloadFor('PRESET_CHANGED', { id: presetId, preset }, ['chat_mutation'], 'x')).toEqual({ id: presetId });
  });

  it("an extension hears PRESET_CHANGED and PRESET_DELETED as Lumiverse tells them, the preset only with presets", async () => {
    const presetId = await imported();
    await installListener(rig, 'keeper', ['presets'], ['PRESET_CHANGED', 'PRESET_DELETED']);
    await installListener(rig, 'stranger', [], ['PRESET_CHANGED', 'PRESET_DELETED']);
    await rig.call('chat.presets.update', { presetId, name: 'Renamed', expected_cache_revision: 0 });
    expect(await callIn(rig, 'keeper', 'presets.delete', [presetId])).toBe(true);
    expect(rig.events.filter((e) => e.type === 'presets.changed').at(-1)).toEqual({ type: 'presets.changed', presetId, change: 'deleted' });
    const keeper = await heard(rig, 'keeper', 2);
    expect(keeper).toEqual([{ event: 'PRESET_CHANGED', payload: { id: presetId, preset: expect.objectContaining({ id: presetId, name: 'Renamed' }) } }, { event: 'PRESET_DELETED', payload: { id: presetId } }]);
    expect(await heard(rig, 'stranger', 2)).toEqual([{ event: 'PRESET_CHANGED', payload: { id: presetId } }, { event: 'PRESET_DELETED', payload: { id: presetId } }]);
  });
});
