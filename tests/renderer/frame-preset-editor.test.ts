// @vitest-environment happy-dom
// Lumiverse's preset editor in the frame, through the real frame contract: the preset the app shows as Lumiverse's
// draft, changes made at once and saved after 400 ms (or at once) at the revision they were built on, another
// writer's change rebased on, the extension's own metadata key, tabs and toolbar items placed in the app, and
// the Loom block editor component.
import { describe, expect, it, vi } from 'vitest';
import type { HostState, PresetDraft } from '../../shared/frames/host-state';
import { ID, rig, settled } from './frame-rig';

const BLOCKS = [
  { id: 'main', name: 'Main Prompt', content: 'Be {{char}}.', role: 'system', enabled: true, position: 'pre_history', depth: 0, marker: null },
  { id: 'hist', name: 'Chat History', content: '', role: 'system', enabled: true, position: 'pre_history', depth: 0, marker: 'chat_history' },
];
const DRAFT: PresetDraft = { id: 'p1', name: 'Loom Suite', blocks: BLOCKS, parameters: {}, prompts: {}, metadata: { other_ext: { kept: 1 } }, createdAt: 10, updatedAt: 20 };
const open = (preset: PresetDraft = DRAFT, revision = 3, activeSurfaceId: string | null = null): HostState => ({
  surfaces: [],
  state: {},
  presetEditor: { open: true, activeSurfaceId, preset, revision, promptVariableValues: { main: { tone: 'dry' } } },
});
const CLOSED: HostState = { surfaces: [], state: {}, presetEditor: { open: false, activeSurfaceId: null, preset: null, revision: 0, promptVariableValues: {} } };
/** What a save sent, as the stored preset the host answers with (its revision one on). */
const stored = (args: unknown[], revision: number) => {
  const input = args[1] as Record<string, unknown>;
  return { id: args[0], name: input.name, prompt_order: input.prompt_order, parameters: input.parameters, prompts: input.prompts, metadata: input.metadata, cache_revision: revision, created_at: 10, updated_at: 30 };
};

describe('the preset editor (ctx.ui.presetEditor, registerPresetEditorTab, registerPresetEditorToolbarItem)', () => {
  it('needs presets; closed, it reads closed and refuses changes as Lumiverse does', async () => {
    const without = await rig(['tools'], open());
    expect(() => without.ctx.ui.presetEditor.getState()).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => without.ctx.ui.presetEditor.extension).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => without.ctx.ui.registerPresetEditorTab({ id: 'x', title: 'X' })).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));

    // A frame that skips its ctx and asks the broker for a tab or a place in the editor's toolbar is refused there too.
    for (const [kind, options] of [['preset', {}], ['mount', { point: 'preset_editor_toolbar' }]] as const) {
      expect(await without.send({ kind: 'invoke', id: 901, method: 'surface.open', input: { surfaceId: `${kind}-x`, kind, options } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    }
    expect(without.store.getState().surfaces).toEqual([]);

    const r = await rig(['presets'], CLOSED);
    const editor = r.ctx.ui.presetEditor;
    expect(editor.getState()).toEqual({ open: false, presetId: null, activeTabId: null, preset: null });
    expect(editor.extension.getState()).toEqual({ open: false, presetId: null, activeTabId: null, blocks: [], promptVariableValues: {}, metadata: undefined });
    expect(() => editor.updatePreset((p: PresetDraft) => p)).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_CLOSED' }));
    expect(() => editor.extension.setMetadata({ a: 1 })).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_CLOSED' }));
    expect(() => editor.extension.activateBuiltinTab('blocks')).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_CLOSED' }));
    await expect(editor.flush()).rejects.toMatchObject({ code: 'PRESET_EDITOR_CLOSED' });
  });

  it('open, it answers the preset as a draft; a tab is placed in the app and activated as the editor opens on it; another preset is told after a closed one', async () => {
    const r = await rig(['presets'], CLOSED);
    const editor = r.ctx.ui.presetEditor;
    const tab = r.ctx.ui.registerPresetEditorTab({ id: 'graph', title: 'Agent graph' });
    await settled();
    const surface = r.store.getState().surfaces.find((s) => s.kind === 'preset')!;
    expect(surface).toMatchObject({ extensionId: ID, title: 'Agent graph' });
    expect(tab.tabId).toBe(`spindle:${ID}:preset-editor-tab:graph:${surface.surfaceId}`);
    expect(tab.root.ownerDocument.defaultView.HTMLElement && tab.root instanceof tab.root.ownerDocument.defaultView.HTMLElement).toBe(true);
    const heard: Array<{ open: boolean; presetId: string | null }> = [];
    let activated = 0;
    editor.onChange((s: { open: boolean; presetId: string | null }) => heard.push(s));
    tab.onActivate(() => activated++);

    r.broker.notify('hostState', open(DRAFT, 3, surface.surfaceId));
    await settled();
    expect(activated).toBe(1);
    expect(editor.getState()).toEqual({ open: true, presetId: 'p1', activeTabId: tab.tabId, preset: DRAFT });
    expect(editor.extension.getState()).toEqual({ open: true, presetId: 'p1', activeTabId: tab.tabId, blocks: BLOCKS, promptVariableValues: { main: { tone: 'dry' } }, metadata: undefined });
    const copy = editor.getState();
    copy.preset.blocks[0].name = 'changed';
    expect(editor.getState().preset.blocks[0].name).toBe('Main Prompt');

    r.broker.notify('hostState', open({ ...DRAFT, id: 'p2', name: 'Other' }, 0, surface.surfaceId));
    await settled();
    expect(heard.map((s) => [s.open, s.presetId])).toEqual([
      [true, 'p1'],
      [false, null],
      [true, 'p2'],
    ]);
    expect(activated).toBe(2);
    tab.destroy();
    await settled();
    expect(r.store.getState().surfaces.some((s) => s.kind === 'preset')).toBe(false);
  });

  it('updatePreset runs the mutator at once and saves after 400 ms, or at once, at the revision it was built on, its prompt variables kept', async () => {
    const r = await rig(['presets'], open());
    const saves: Array<[string, unknown[]]> = [];
    let revision = 3;
    r.frontend = (method, args) => (saves.push([method, args]), stored(args, ++revision));
    const editor = r.ctx.ui.presetEditor;
    let ran = false;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      editor.updatePreset((p: PresetDraft) => ((ran = true), { ...p, blocks: p.blocks.map((b) => (b.id === 'main' ? { ...b, enabled: false } : b)) }));
      // Workshop reads what its mutator did the moment updatePreset returns.
      expect(ran).toBe(true);
      expect(editor.getState().preset.blocks[0].enabled).toBe(false);
      vi.advanceTimersByTime(399);
      expect(saves).toHaveLength(0);
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    await settled();
    expect(saves).toEqual([
      ['presets.update', ['p1', { name: 'Loom Suite', prompt_order: [{ ...BLOCKS[0], enabled: false }, BLOCKS[1]], parameters: {}, prompts: {}, metadata: { other_ext: { kept: 1 }, promptVariables: { main: { tone: 'dry' } } }, expected_cache_revision: 3 }]],
    ]);
    // The next change, made before the app told of the save, is built on it and names the revision the save answered.
    editor.updatePreset((p: PresetDraft) => ({ ...p, name: 'Renamed' }), { immediate: true });
    await editor.flush();
    expect(saves[1]![1][1]).toMatchObject({ name: 'Renamed', prompt_order: [{ enabled: false }, {}], expected_cache_revision: 4 });
    // A change to nothing saves nothing; a bad draft is refused before anything changes.
    editor.updatePreset((p: PresetDraft) => p, { immediate: true });
    await editor.flush();
    expect(saves).toHaveLength(2);
    expect(() => editor.updatePreset((p: PresetDraft) => ({ ...p, id: 'other' }))).toThrow('Preset draft id cannot be changed');
    expect(() => editor.updatePreset((p: PresetDraft) => ({ ...p, extra: 1 }))).toThrow('unknown field "extra"');
    expect(() => editor.updatePreset((p: PresetDraft) => ({ ...p, name: ' ' }))).toThrow('Preset name is required');
    expect(editor.getState().preset.name).toBe('Renamed');
  });

  it("another writer's change meanwhile: the save reads the preset again and makes its change over it; blocks both changed are not merged", async () => {
    const r = await rig(['presets'], open());
    const remote = { id: 'p1', name: 'Loom Suite', prompt_order: BLOCKS, parameters: {}, prompts: {}, metadata: { other_ext: { kept: 2 }, promptVariables: { main: { tone: 'wry' } } }, cache_revision: 5, created_at: 10, updated_at: 25 };
    const calls: Array<[string, unknown[]]> = [];
    r.frontend = (method, args) => {
      calls.push([method, args]);
      if (method === 'presets.get') return remote;
      const input = args[1] as { expected_cache_revision: number };
      if (input.expected_cache_revision !== remote.cache_revision) throw Object.assign(new Error('PRESET_REVISION_CONFLICT: changed'), { code: 'PRESET_REVISION_CONFLICT' });
      return stored(args, remote.cache_revision + 1);
    };
    const own = r.ctx.ui.presetEditor.extension;
    own.setMetadata({ graph: ['a'] }, { immediate: true });
    await r.ctx.ui.presetEditor.flush();
    expect(calls.map(([m]) => m)).toEqual(['presets.update', 'presets.get', 'presets.update']);
    // Its own key over the other writer's preset: the other extension's key and the prompt variables are theirs.
    expect(calls[2]![1][1]).toMatchObject({ metadata: { other_ext: { kept: 2 }, [ID]: { graph: ['a'] }, promptVariables: { main: { tone: 'wry' } } }, expected_cache_revision: 5 });

    // Both changed the blocks: refused, and the change waits.
    remote.prompt_order = [BLOCKS[1]!];
    remote.cache_revision = 9;
    r.broker.notify('hostState', open(DRAFT, 7));
    await settled();
    r.ctx.ui.presetEditor.updatePreset((p: PresetDraft) => ({ ...p, blocks: [...p.blocks].reverse() }), { immediate: true });
    await expect(r.ctx.ui.presetEditor.flush()).rejects.toMatchObject({ code: 'PRESET_REVISION_CONFLICT' });
  });

  it("a change made while a rebased save was on its way is made over what was stored, so the other writer's change stays; one that cannot be saved is dropped", async () => {
    const r = await rig(['presets'], open());
    const remote = { id: 'p1', name: 'Renamed elsewhere', prompt_order: BLOCKS, parameters: {}, prompts: {}, metadata: { other_ext: { kept: 1 } }, cache_revision: 4, created_at: 10, updated_at: 25 };
    const updates: Array<Record<string, unknown>> = [];
    let release = () => undefined as void;
    r.frontend = async (method, args) => {
      if (method === 'presets.get') return remote;
      const input = args[1] as Record<string, unknown>;
      updates.push(input);
      if (input.expected_cache_revision !== remote.cache_revision) throw Object.assign(new Error('PRESET_REVISION_CONFLICT: changed'), { code: 'PRESET_REVISION_CONFLICT' });
      // The rebased save waits until the test lets it through.
      if (updates.length === 2) await new Promise<void>((resolve) => (release = resolve));
      remote.cache_revision += 1;
      Object.assign(remote, { name: input.name, prompt_order: input.prompt_order, metadata: input.metadata });
      return { ...remote };
    };
    const editor = r.ctx.ui.presetEditor;
    editor.extension.setMetadata({ step: 1 }, { immediate: true });
    await settled();
    // The first save conflicted and its rebase is on its way: a change now is built on what was sent.
    expect(updates.map((u) => u.expected_cache_revision)).toEqual([3, 4]);
    editor.extension.updateMetadata((current: { step: number }) => ({ step: current.step + 1 }));
    release();
    await editor.flush();
    expect(updates).toHaveLength(3);
    // The other writer's name survives both saves; the second names the revision the first answered.
    expect(updates[2]).toMatchObject({ name: 'Renamed elsewhere', metadata: { other_ext: { kept: 1 }, [ID]: { step: 2 } }, expected_cache_revision: 5 });
    expect(editor.getState().preset).toMatchObject({ name: 'Renamed elsewhere', metadata: { [ID]: { step: 2 } } });

    // Blocks both changed: the change is dropped, the editor shows the preset as the app tells it, and no flush retries it.
    remote.prompt_order = [BLOCKS[1]!];
    remote.cache_revision = 9;
    r.broker.notify('hostState', open(DRAFT, 7));
    await settled();
    editor.updatePreset((p: PresetDraft) => ({ ...p, blocks: [...p.blocks].reverse() }), { immediate: true });
    await expect(editor.flush()).rejects.toMatchObject({ code: 'PRESET_REVISION_CONFLICT' });
    const tried = updates.length;
    await editor.flush();
    expect(updates).toHaveLength(tried);
    expect(editor.getState().preset.blocks.map((b: { id: string }) => b.id)).toEqual(['main', 'hist']);
  });

  it("presetEditor.extension keeps the extension's own metadata key; bad metadata, an unknown tab and more places than Lumiverse allows are refused", async () => {
    const r = await rig(['presets'], open({ ...DRAFT, metadata: { [ID]: { mode: 'single' } } }));
    const own = r.ctx.ui.presetEditor.extension;
    expect(own.getState().metadata).toEqual({ mode: 'single' });
    own.updateMetadata((current: { mode: string }) => ({ ...current, threads: 2 }));
    expect(own.getState().metadata).toEqual({ mode: 'single', threads: 2 });
    expect(r.ctx.ui.presetEditor.getState().preset.metadata).toEqual({ [ID]: { mode: 'single', threads: 2 } });
    expect(() => own.setMetadata([1])).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_INVALID_METADATA' }));
    expect(() => own.setMetadata({ at: new Date(0) })).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_INVALID_METADATA' }));
    expect(() => own.activateBuiltinTab('variables')).toThrow(expect.objectContaining({ code: 'PRESET_EDITOR_UNKNOWN_BUILTIN_TAB' }));
    own.activateBuiltinTab('blocks');

    for (let i = 0; i < 8; i++) r.ctx.ui.registerPresetEditorTab({ id: `t${i}`, title: `T${i}` });
    expect(() => r.ctx.ui.registerPresetEditorTab({ id: 'ninth', title: 'Ninth' })).toThrow('Preset editor tab limit reached (max 8 per extension)');
    const items = Array.from({ length: 4 }, (_, i) => r.ctx.ui.registerPresetEditorToolbarItem({ id: `i${i}`, ariaLabel: `Tool ${i}` }));
    expect(() => r.ctx.ui.registerPresetEditorToolbarItem({ id: 'fifth', ariaLabel: 'Fifth' })).toThrow('Preset editor toolbar item limit reached (max 4 per extension)');
    await settled();
    const tools = () => r.store.getState().surfaces.filter((s) => s.kind === 'mount' && s.options.point === 'preset_editor_toolbar');
    expect(tools().map((s) => s.options.tooltip)).toEqual(['Tool 0', 'Tool 1', 'Tool 2', 'Tool 3']);
    expect(items[0].itemId).toBe(`spindle:${ID}:preset-editor-toolbar:i0:${tools()[0]!.surfaceId}`);
    items[0].setVisible(false);
    await settled();
    expect(tools()[0]!.visible).toBe(false);
    items[1].destroy();
    r.ctx.ui.registerPresetEditorToolbarItem({ id: 'again', ariaLabel: 'Again' });
  });
});

describe('ctx.components.mountLoomBlockEditor', () => {
  const typeInto = (field: HTMLInputElement | HTMLTextAreaElement, text: string) => {
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };

  it('lists the blocks; a block opened, edited and saved reaches onChange whole, each keystroke onDraftChange; update() mid-edit keeps the typing', async () => {
    const r = await rig(['presets'], open());
    const target = document.createElement('div');
    document.body.append(target);
    const changes: unknown[] = [];
    const drafts: unknown[] = [];
    const selections: unknown[] = [];
    const editor = r.ctx.components.mountLoomBlockEditor(target, {
      value: { blocks: BLOCKS, promptVariableValues: {} },
      onChange: (v: unknown) => changes.push(v),
      onDraftChange: (v: unknown) => drafts.push(v),
      onSelectedBlockChange: (id: unknown) => selections.push(id),
    });
    expect(target.querySelector('.spc-head')!.textContent).toBe('2 blocks');
    expect([...target.querySelectorAll('[data-block-id]')].map((row) => row.getAttribute('data-block-id'))).toEqual(['main', 'hist']);
    target.querySelector<HTMLButtonElement>('button[aria-label="Edit Main Prompt"]')!.click();
    expect(selections).toEqual(['main']);
    const content = target.querySelector('textarea')!;
    expect(content.value).toBe('Be {{char}}.');
    typeInto(content, 'Be {{char}}, briefly.');
    expect(drafts.at(-1)).toEqual({ blocks: [{ ...BLOCKS[0], content: 'Be {{char}}, briefly.' }, BLOCKS[1]], promptVariableValues: {} });
    // The extension hands the value back while the person types: the form stays, with what was typed.
    editor.update({ value: { blocks: BLOCKS, promptVariableValues: {} } });
    expect(target.querySelector('textarea')).toBe(content);
    expect(content.value).toBe('Be {{char}}, briefly.');
    expect(changes).toEqual([]);
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(changes).toEqual([{ blocks: [{ ...BLOCKS[0], content: 'Be {{char}}, briefly.' }, BLOCKS[1]], promptVariableValues: {} }]);
    expect(editor.getValue().blocks[0].content).toBe('Be {{char}}, briefly.');
    expect(selections).toEqual(['main', null]);
    expect(target.querySelector('form')).toBeNull();

    // An update without a value keeps what the person saved.
    editor.update({ compact: true });
    expect(editor.getValue().blocks[0].content).toBe('Be {{char}}, briefly.');
    // The extension handing back the edit in progress (Workshop sends its draft back as the value) keeps the form and
    // its focus; another writer's change to the block replaces the edit, and says so.
    target.querySelector<HTMLButtonElement>('button[aria-label="Edit Main Prompt"]')!.click();
    const field = target.querySelector('textarea')!;
    typeInto(field, 'Typed');
    editor.update({ value: drafts.at(-1) });
    expect(target.querySelector('textarea')).toBe(field);
    editor.update({ value: { blocks: [{ ...BLOCKS[0], content: 'Changed elsewhere' }, BLOCKS[1]], promptVariableValues: {} } });
    expect(drafts.at(-1)).toBeNull();
    expect(target.querySelector('textarea')!.value).toBe('Changed elsewhere');
    // Made read-only mid-edit: Save no longer hands anything on. A block gone closes its form and says so.
    const saved = changes.length;
    editor.update({ readOnly: true });
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(changes).toHaveLength(saved);
    editor.update({ readOnly: false, value: { blocks: [BLOCKS[1]], promptVariableValues: {} } });
    expect(selections.at(-1)).toBeNull();
    expect(target.querySelector('form')).toBeNull();

    // Selected from outside (Workshop's selectedBlockId), then left: the draft is dropped.
    editor.update({ selectedBlockId: 'hist' });
    expect(target.querySelector('form')!.getAttribute('aria-label')).toBe('Block Chat History');
    target.querySelector<HTMLButtonElement>('form button[type="button"]')!.click();
    expect(drafts.at(-1)).toBeNull();
    editor.update({ readOnly: true });
    expect(target.querySelector('button[aria-label^="Edit"]')).toBeNull();
    expect(() => editor.update({ value: { blocks: [{ name: 'no id' }] } })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => r.ctx.components.mountLoomBlockEditor(target, { value: 'nope' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    await expect(editor.refreshMacros()).resolves.toBeUndefined();
    editor.destroy();
    expect(target.children).toHaveLength(0);
  });
});
