// @vitest-environment happy-dom
// What the window tells each frontend of the app for frontend v2's reads at once (host-state-news.ts), from the real
// stores: every section and every extension's drawer tab as a place; the selectors in Lumiverse's shapes; a
// connection's profile only to an extension granted generation, and never a key; told again only on a change.
import { describe, expect, it } from 'vitest';
import type { FrameNotice } from '../../shared/frames/frame-contract';
import { SECTIONS } from '../../renderer/src/app/sections';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import type { ChatSession } from '../../shared/types/chat';
import type { ConnectionProfileView } from '../../shared/types/llm';
import { FrameBroker } from '../../renderer/src/features/frontends/frame-broker';
import { createFrontendsStore, frontendsActions } from '../../renderer/src/features/frontends/frontends-store';
import { initialHostState, watchHostState } from '../../renderer/src/features/frontends/host-state-news';

const PROFILE: ConnectionProfileView = { id: 'p1', name: 'Main', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', defaultModel: 'model-a', headers: {}, hasKey: true, keyHint: 'x9Z1' };

function setup() {
  const app = createAppStore();
  const frontends = createFrontendsStore();
  const told = new Map<string, Array<FrameNotice<'hostState'>>>();
  // Real brokers (their memory of what each frame heard), whose notices are recorded instead of sent.
  const broker = (id: string) => {
    const real = new FrameBroker(id, { store: frontends, host: { invoke: async () => ({ ok: true, value: null }), onEvent: () => () => undefined } as never, granted: () => [], init: () => ({}) as never, onStopped: () => undefined, activeConnection: () => null });
    real.notify = ((topic: string, data: FrameNotice<'hostState'>) => void (topic === 'hostState' && told.set(id, [...(told.get(id) ?? []), data]))) as FrameBroker['notify'];
    return real;
  };
  const brokers = new Map([
    ['plain', broker('plain')],
    ['granted', broker('granted')],
  ]);
  const granted: Record<string, string[]> = { plain: [], granted: ['generation', 'characters'] };
  const measured = { count: 0 };
  const sources = { app, frontends, brokers, granted: (id: string) => granted[id] ?? [], drawerShown: () => app.getState().section === 'workbench', layout: () => (measured.count++, { chatRowWidth: 640, chatRowHeight: 480, chatColumnInnerMaxWidth: 640, uiScale: 1 }) };
  return { app, frontends, told, sources, measured, watch: watchHostState(sources) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the app's state as frames read it", () => {
  it('lists every section and every drawer tab; an extension tab by the id invoke takes, with its owner', () => {
    const { frontends, sources } = setup();
    frontendsActions.openSurface(frontends, 'tarot', 'drawer-1', 'drawer', { title: 'Tarot', iconSvg: '<svg/>', tabId: 'spindle:tarot:tab:cards' });
    const state = initialHostState(sources, 'plain');
    expect(state.surfaces.map((s) => s.label)).toEqual([...SECTIONS.map((s) => s.label), 'Tarot']);
    expect(state.surfaces.find((s) => s.label === 'Connections')).toMatchObject({ kind: 'drawer_tab', id: 'connections' });
    expect(state.surfaces.at(-1)).toEqual({ kind: 'drawer_tab', id: 'spindle:tarot:tab:cards', label: 'Tarot', owner: 'tarot', iconSvg: '<svg/>' });
  });

  it('the open chat and its message count in Lumiverse’s ids; connections only with generation, never a key', () => {
    const { app, sources } = setup();
    app.getState().connectionsReplaced([PROFILE]);
    const session = { id: 's1', title: 'Harbor', messages: [{ id: 'm1' }, { id: 'm2' }], avatar: { type: 'image/png', bytes: 10 }, connectionId: 'p1' } as unknown as ChatSession;
    app.setState((s) => ({ chat: { ...s.chat, openId: 's1', open: session, window: { start: 40, total: 42 } as never } }));
    const plain = initialHostState(sources, 'plain').state;
    expect(plain['chat.active']).toEqual({ chatId: 's1', characterId: 's1', avatarImageId: 'avatar-s1' });
    expect(plain['chat.messageCount']).toBe(42);
    expect(plain['persona.activeId']).toBe('persona-s1');
    expect(plain['ui.settings']).toEqual({ open: false, view: null });
    expect(plain['loom.activePresetId']).toBeNull();
    app.setState((s) => ({ settings: { ...s.settings, chat: { ...s.settings?.chat, presetId: 'loom-7' } } as never }));
    expect(initialHostState(sources, 'plain').state['loom.activePresetId']).toBe('loom-7');
    expect('connections.profiles' in plain).toBe(false);
    expect('connections.active' in plain).toBe(false);
    const granted = initialHostState(sources, 'granted').state;
    expect(granted['connections.active']).toEqual({ activeProfileId: 'p1', provider: 'openai-compatible', model: 'model-a' });
    // A branch's character is its origin's, as the host's answer for its window names it.
    app.getState().chatOriginKnown('s1', 'origin-1');
    expect(initialHostState(sources, 'plain').state['chat.active']).toEqual({ chatId: 's1', characterId: 'origin-1', avatarImageId: 'avatar-s1' });
    app.getState().chatOriginKnown('other', 'origin-2');
    expect(app.getState().chat.openOrigin).toBe('origin-1');
    app.getState().chatSessionOpened('s2');
    expect(app.getState().chat.openOrigin).toBeNull();
    expect(granted['connections.profiles']).toEqual([expect.objectContaining({ id: 'p1', name: 'Main', has_api_key: true, is_default: true })]);
    expect(JSON.stringify(granted)).not.toContain('x9Z1');
  });

  it('ui.drawer names the section shown, or the extension tab shown in the Workbench', () => {
    const { app, frontends, sources } = setup();
    app.getState().sectionSelected('connections');
    expect(initialHostState(sources, 'plain').state['ui.drawer']).toEqual({ open: true, tabId: 'connections' });
    app.getState().sectionSelected('workbench');
    expect(initialHostState(sources, 'plain').state['ui.drawer']).toEqual({ open: false, tabId: null });
    frontendsActions.openSurface(frontends, 'tarot', 'drawer-1', 'drawer', { title: 'Tarot' });
    expect(initialHostState(sources, 'plain').state['ui.drawer']).toEqual({ open: true, tabId: 'tarot/drawer-1' });
  });

  it('tells each frame once per change of what it reads, not for changes it cannot read', async () => {
    const { app, frontends, told, measured, watch } = setup();
    app.getState().sectionSelected('council');
    await tick();
    expect(told.get('plain')).toHaveLength(1);
    expect(told.get('granted')).toHaveLength(1);
    // A profile changes: only the extension that may read profiles hears of it.
    app.getState().connectionsReplaced([PROFILE]);
    await tick();
    expect(told.get('plain')).toHaveLength(1);
    expect(told.get('granted')).toHaveLength(2);
    // A burst of changes is told once.
    frontendsActions.openSurface(frontends, 'tarot', 'drawer-1', 'drawer', { title: 'Tarot' });
    frontendsActions.openSurface(frontends, 'tarot', 'drawer-2', 'drawer', { title: 'Cards' });
    await tick();
    expect(told.get('plain')).toHaveLength(2);
    expect(told.get('plain')!.at(-1)!.surfaces.slice(-2).map((s) => s.label)).toEqual(['Tarot', 'Cards']);
    // A change nothing is read from (a streamed reply's live turn) builds nothing: no measuring, no telling.
    const measures = measured.count;
    app.setState((s) => ({ chat: { ...s.chat, turns: { s1: {} as never } } }));
    await tick();
    expect(measured.count).toBe(measures);
    expect(told.get('plain')).toHaveLength(2);
    // A resize looks again though the stores did not change.
    watch.update();
    await tick();
    expect(measured.count).toBe(measures + 1);
    watch.stop();
    app.getState().sectionSelected('tools');
    await tick();
    expect(told.get('plain')).toHaveLength(2);
  });

  it("the character editor, to an extension granted characters: open while the session's Character & world shows, with its card's extensions and the extension's own tab", () => {
    const { app, frontends, sources } = setup();
    const session = { id: 's1', title: 'Harbor', messages: [], card: { spec: 'chara_card_v2', data: { extensions: { readalong: { voice: 'alto' } } } } } as unknown as ChatSession;
    app.setState((s) => ({ chat: { ...s.chat, openId: 's1', open: session } }));
    expect('characterEditor' in initialHostState(sources, 'plain')).toBe(false);
    expect(initialHostState(sources, 'granted').characterEditor).toEqual({ open: false, characterId: null, activeSurfaceId: null, extensions: {} });
    frontends.setState({ characterEditor: 's1' });
    frontendsActions.openSurface(frontends, 'granted', 'character-1', 'character', { title: 'Voice' });
    frontendsActions.openSurface(frontends, 'other', 'character-1', 'character', { title: 'Other' });
    expect(initialHostState(sources, 'granted').characterEditor).toEqual({ open: true, characterId: 's1', activeSurfaceId: 'character-1', extensions: { readalong: { voice: 'alto' } } });
    // Which character is edited: a selector for those granted characters too.
    expect(initialHostState(sources, 'granted').state['characters.editingId']).toBe('s1');
    expect('characters.editingId' in initialHostState(sources, 'plain').state).toBe(false);
    // Another session's editor is not this one's.
    frontends.setState({ characterEditor: 's2' });
    expect(initialHostState(sources, 'granted').characterEditor?.open).toBe(false);
  });

  it('the preset editor, to an extension granted presets: the preset as a draft, told again only when its revision moves', async () => {
    const { frontends, sources, told } = setup();
    sources.granted = (id: string) => (id === 'granted' ? ['presets'] : []);
    const preset = { id: 'p1', name: 'Loom', provider: 'loom', engine: 'classic', parameters: {}, prompt_order: [{ id: 'main', name: 'Main', marker: null }], prompts: {}, metadata: { promptVariables: { main: { tone: 'dry' } }, mine: 1 }, cache_revision: 2, created_at: 1, updated_at: 2 };
    expect('presetEditor' in initialHostState(sources, 'plain')).toBe(false);
    expect(initialHostState(sources, 'granted').presetEditor).toEqual({ open: false, activeSurfaceId: null, preset: null, revision: 0, promptVariableValues: {} });
    frontends.setState({ presetEditor: preset });
    expect(initialHostState(sources, 'granted').presetEditor).toEqual({
      open: true,
      activeSurfaceId: null,
      preset: { id: 'p1', name: 'Loom', blocks: preset.prompt_order, parameters: {}, prompts: {}, metadata: { mine: 1 }, createdAt: 1, updatedAt: 2 },
      revision: 2,
      promptVariableValues: { main: { tone: 'dry' } },
    });
    await tick();
    const heard = () => (told.get('granted') ?? []).filter((s) => s.presetEditor?.open).length;
    expect(heard()).toBe(1);
    // The same preset read again (another object, the same revision) is not news; a new revision is.
    frontends.setState({ presetEditor: { ...preset } });
    await tick();
    expect(heard()).toBe(1);
    frontends.setState({ presetEditor: { ...preset, name: 'Renamed', cache_revision: 3 } });
    await tick();
    expect(heard()).toBe(2);
    expect(told.get('granted')!.at(-1)!.presetEditor?.preset?.name).toBe('Renamed');
  });
});
