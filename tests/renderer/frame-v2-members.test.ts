// @vitest-environment happy-dom
// Lumiverse's frontend extensibility v2 in the frame, through the real frame contract: ctx.host.surfaces and
// ctx.state read at once from what the app told the frame and hear only changes; invoke opens a place through the
// host; the domain members and settings are host calls; what changes Lumiverse's own components is accepted and
// listed on the card.
import { installationId } from '../../shared/spindle/host-descriptor';
import { describe, expect, it, vi } from 'vitest';
import type { HostState } from '../../shared/frames/host-state';
import { placeId } from '../../renderer/src/features/frontends/lumiverse-places';
import { frontendsActions, type Surface } from '../../renderer/src/features/frontends/frontends-store';
import { ID, rig, settled } from './frame-rig';
import { followChat, followRouteChanges, routedChat } from '../../renderer/frame/lumiverse-page';

const TABS: HostState['surfaces'] = [
  { kind: 'drawer_tab', id: 'connections', label: 'Connections' },
  { kind: 'drawer_tab', id: 'tarot/drawer-1', label: 'Tarot', owner: 'tarot', iconSvg: '<svg/>' },
];
const STATE: HostState['state'] = { 'chat.active': { chatId: 'chat-1', characterId: 'chat-1', avatarImageId: null }, 'chat.messageCount': 2 };

describe('ctx.host (frontend v2)', () => {
  it('says it has frontend v2; surfaces.list answers at once, by kind, as copies', async () => {
    const r = await rig(['tools'], { surfaces: TABS, state: STATE });
    expect(r.ctx.host.capabilities).toEqual({
      'frontend-extensibility-v2': 1,
      'preset-extension-data-v1': 1,
      'preset-editor-v1': 1,
      'loom-block-editor-v1': 1,
      'loom-block-management-v1': 1,
      'generation-assembly-v1': 1,
      'text-editor-close-v1': 1,
    });
    // What is not real here is not claimed (APC checks for these and declines to run).
    expect(r.ctx.host.capabilities['interceptor-final-response-v1']).toBeUndefined();
    // Its installation id is a canonical UUID (APC checks that first), the same at every start and for its backend.
    expect(r.ctx.host.extensionInstallationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.ctx.host.extensionInstallationId).toBe(installationId(r.ctx.manifest.identifier));
    expect(installationId('another')).not.toBe(r.ctx.host.extensionInstallationId);
    const listed = r.ctx.host.surfaces.list(['drawer_tab']);
    expect(Array.isArray(listed)).toBe(true);
    expect(listed).toEqual(TABS);
    expect(r.ctx.host.surfaces.list(['route'])).toEqual([]);
    listed[0].label = 'changed';
    expect(r.ctx.host.surfaces.list()[0].label).toBe('Connections');
  });

  it('surfaces.subscribe hears a change of the places, not the same list again, and not after unsubscribing', async () => {
    const r = await rig(['tools'], { surfaces: TABS, state: STATE });
    const heard: unknown[] = [];
    const off = r.ctx.host.surfaces.subscribe((list: unknown[]) => heard.push(list.length));
    await settled();
    expect(heard).toEqual([]);
    r.broker.notify('hostState', { surfaces: TABS, state: { ...STATE, 'chat.messageCount': 3 } });
    r.broker.notify('hostState', { surfaces: TABS.slice(0, 1), state: STATE });
    await settled();
    expect(heard).toEqual([1]);
    off();
    r.broker.notify('hostState', { surfaces: TABS, state: STATE });
    await settled();
    expect(heard).toEqual([1]);
  });

  it('surfaces.invoke opens a listed drawer tab through the host; an unknown place or kind is refused', async () => {
    const r = await rig(['tools'], { surfaces: TABS, state: STATE });
    const calls: unknown[] = [];
    r.frontend = (method, args) => void calls.push([method, args]);
    await expect(r.ctx.host.surfaces.invoke({ kind: 'drawer_tab', id: 'tarot/drawer-1' })).resolves.toBeNull();
    // The 0.6.20 types' form: the id first.
    await r.ctx.host.surfaces.invoke('connections', 'open');
    expect(calls).toEqual([
      ['ui.openDrawerTab', ['tarot/drawer-1']],
      ['ui.openDrawerTab', ['connections']],
    ]);
    await expect(r.ctx.host.surfaces.invoke({ kind: 'drawer_tab', id: 'nowhere' })).rejects.toMatchObject({ code: 'HOST_ACTION_UNAVAILABLE', message: 'HOST_ACTION_UNAVAILABLE:drawer_tab:nowhere' });
    await expect(r.ctx.host.surfaces.invoke({ kind: 'route', id: '/chat' })).rejects.toMatchObject({ code: 'HOST_ACTION_UNMAPPED', message: 'HOST_ACTION_UNMAPPED:route:/chat' });
    await expect(r.ctx.host.surfaces.invoke({ kind: 'route', id: '/characters/c1' })).rejects.toMatchObject({ code: 'HOST_ACTION_UNMAPPED' });
    expect(calls).toHaveLength(2);
    // A route to a chat (Tapestry's "go to branch") asks the app to open it.
    await expect(r.ctx.host.surfaces.invoke({ kind: 'route', id: '/chat/branch%201' })).resolves.toBeNull();
    expect(calls.at(-1)).toEqual(['route.openChat', ['branch 1']]);
    // A refusal of the host (too many moves) reaches the extension.
    r.frontend = () => {
      throw Object.assign(new Error('At most 5 moves of the app in 10 s.'), { code: 'RATE_LIMITED' });
    };
    await expect(r.ctx.host.surfaces.invoke({ kind: 'drawer_tab', id: 'connections' })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe("a frontend's own route", () => {
  it('a history change to /chat/<id> asks the app to open that chat; the app’s own following of the open chat, and other routes, ask nothing', async () => {
    const r = await rig(['tools']);
    const calls: unknown[] = [];
    r.frontend = (method, args) => void calls.push([method, args]);
    // A page of its own (the rig's jsdom window) set up as frame-main.ts sets the runtime's.
    followChat(window, 'chat-1');
    followRouteChanges(window, r.channel);
    window.history.pushState(null, '', '/chat/chat-2');
    window.history.replaceState(null, '', '/chat/chat%203?x=1');
    // The same route with another state or query asks nothing again (the person may have declined it).
    window.history.replaceState({ step: 2 }, '', '/chat/chat%203?y=2');
    window.history.pushState(null, '', '/characters/c1');
    window.history.pushState(null, '', '/chat/chat-1');
    followChat(window, 'chat-4');
    await settled();
    expect(calls).toEqual([
      ['route.openChat', ['chat-2']],
      ['route.openChat', ['chat 3']],
    ]);
    expect(window.location.pathname).toBe('/chat/chat-4');
    expect(['/chat/%E0', '/chat/', '/chats/a', `/chat/${'x'.repeat(401)}`].map(routedChat)).toEqual([null, null, null, null]);
  });
});

describe('one id per drawer tab', () => {
  it('its handle’s tabId is the id the app lists it by and opens it by, the same from one start to the next', async () => {
    const r = await rig(['tools']);
    // A place opened before it changes no tab's id.
    r.ctx.ui.mount('chat_actions');
    const tab = r.ctx.ui.registerDrawerTab({ id: 'cards', title: 'Cards' });
    const again = r.ctx.ui.registerDrawerTab({ id: 'cards', title: 'More cards' });
    await settled();
    const [first, second] = r.store.getState().surfaces.filter((s) => s.kind === 'drawer');
    expect(tab.tabId).toBe(`spindle:${ID}:tab:cards`);
    expect(placeId(first!)).toBe(tab.tabId);
    // A second live tab of that id holds its place's id too; once the first is gone, its id is free again.
    expect(again.tabId).toBe(`spindle:${ID}:tab:cards:${second!.surfaceId}`);
    expect(placeId(second!)).toBe(again.tabId);
    tab.destroy();
    expect(r.ctx.ui.registerDrawerTab({ id: 'cards', title: 'Cards' }).tabId).toBe(`spindle:${ID}:tab:cards`);
  });

  it('ui.events names the tab shown whoever’s it is, by the id the app lists it by', async () => {
    const r = await rig(['tools']);
    r.markReady();
    frontendsActions.openSurface(r.store, 'tarot', 'drawer-1', 'drawer', { title: 'Tarot', tabId: 'spindle:tarot:tab:cards' });
    r.store.setState({ activeTab: 'tarot/drawer-1', drawerOpen: true });
    await settled();
    expect(r.ctx.ui.events.getDrawerState()).toEqual({ open: true, tabId: 'spindle:tarot:tab:cards' });
  });

  it('a frame cannot name its tab with another extension’s prefix: the app lists it by its own key', () => {
    const forged = { kind: 'drawer', extensionId: 'mine', surfaceId: 'drawer-1', key: 'mine/drawer-1', options: { tabId: 'spindle:cubby:tab:cubby_manager' } } as unknown as Surface;
    expect(placeId(forged)).toBe('mine/drawer-1');
  });
});

describe('ctx.state (frontend v2)', () => {
  it('get answers at once with a copy; an unknown selector and one it may not read throw as Lumiverse’s host does', async () => {
    const r = await rig(['tools'], { surfaces: [], state: STATE });
    const active = r.ctx.state.get('chat.active');
    expect(active).toEqual({ chatId: 'chat-1', characterId: 'chat-1', avatarImageId: null });
    active.chatId = 'other';
    expect(r.ctx.state.get('chat.active').chatId).toBe('chat-1');
    expect(() => r.ctx.state.get('nope.nothing')).toThrow(expect.objectContaining({ code: 'SELECTOR_UNKNOWN', message: 'SELECTOR_UNKNOWN:nope.nothing' }));
    expect(() => r.ctx.state.get('connections.profiles')).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED', message: expect.stringContaining('PERMISSION_DENIED:generation') }));
    expect(() => r.ctx.state.subscribe('connections.profiles', () => undefined)).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(r.ctx.state.list().map((s: { id: string }) => s.id)).toContain('connections.profiles');
  });

  it('subscribe hears only a change of its selector, never at once; a selector granted later is readable', async () => {
    const r = await rig(['tools'], { surfaces: [], state: STATE });
    const counts: unknown[] = [];
    r.ctx.state.subscribe('chat.messageCount', (n: unknown) => counts.push(n));
    await settled();
    expect(counts).toEqual([]);
    r.broker.notify('hostState', { surfaces: [], state: { ...STATE, 'chat.active': { chatId: 'chat-2', characterId: 'chat-2', avatarImageId: null } } });
    r.broker.notify('hostState', { surfaces: [], state: { ...STATE, 'chat.messageCount': 5 } });
    await settled();
    expect(counts).toEqual([5]);
    r.broker.notify('hostState', { surfaces: [], state: { ...STATE, 'chat.messageCount': 5, 'connections.profiles': [{ id: 'p1', name: 'Main' }] } });
    await settled();
    expect(r.ctx.state.get('connections.profiles')).toEqual([{ id: 'p1', name: 'Main' }]);
  });
});

describe('the v2 domain members and settings', () => {
  it('worldBooks, tokens, chats and messages are host calls with positional arguments; a refusal reaches the extension', async () => {
    const r = await rig(['tools']);
    const calls: unknown[] = [];
    r.frontend = (method, args) => {
      calls.push([method, args]);
      if (method === 'chat.getMessages') return [{ id: 'm1', content: 'hi' }, { id: 'm2', content: 'there' }];
      if (method === 'world_books.list') throw Object.assign(new Error('PERMISSION_DENIED:world_books — needs world_books'), { code: 'PERMISSION_DENIED' });
      return { data: [], total: 0 };
    };
    await r.ctx.worldBooks.entries.list('book-1');
    await r.ctx.tokens.countText('hello');
    expect(await r.ctx.messages.get('m2')).toEqual({ id: 'm2', content: 'there' });
    expect(await r.ctx.messages.get('m9')).toBeNull();
    await r.ctx.chats.list({ limit: 3 });
    await expect(r.ctx.worldBooks.list()).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(r.ctx.chats.delete('chat-1')).rejects.toMatchObject({ code: 'UNSUPPORTED_HERE' });
    expect(calls).toEqual([
      ['world_books.entries.list', ['book-1', {}]],
      ['tokens.countText', ['hello', {}]],
      ['chat.getMessages', ['chat-1']],
      ['chat.getMessages', ['chat-1']],
      ['chats.list', [{ limit: 3 }]],
      ['world_books.list', [{}]],
    ]);
  });

  it('at most eight calls go to the host at once; the rest wait their turn, in order', async () => {
    const r = await rig(['tools']);
    const asked: unknown[] = [];
    const waiting: Array<() => void> = [];
    r.frontend = (_method, args) => {
      asked.push(args[0]);
      return new Promise<null>((resolve) => waiting.push(() => resolve(null)));
    };
    const calls = Array.from({ length: 11 }, (_, i) => r.ctx.tokens.countText(`text ${i}`));
    await settled();
    expect(asked).toHaveLength(8);
    waiting.shift()!();
    await settled();
    expect(asked).toHaveLength(9);
    while (waiting.length) {
      waiting.shift()!();
      await settled();
    }
    await Promise.all(calls);
    expect(asked).toEqual(Array.from({ length: 11 }, (_, i) => `text ${i}`));
  });

  it('settings: undefined until set, kept through the host, watched; remove forgets; core has nothing here', async () => {
    const r = await rig(['tools']);
    const kept: Record<string, unknown> = { collapsed: ['Work'] };
    const writes: unknown[] = [];
    r.frontend = (method, args) => {
      if (method === 'frontendSettings.read') return { ...kept };
      writes.push(args);
      if (args.length === 1) delete kept[args[0] as string];
      else kept[args[0] as string] = args[1];
      return null;
    };
    expect(await r.ctx.settings.get('collapsed')).toEqual(['Work']);
    expect(await r.ctx.settings.get('folders')).toBeUndefined();
    const heard: unknown[] = [];
    r.ctx.settings.watch('folders', (v: unknown) => heard.push(v));
    const folders = ['Work', 'Play'];
    await r.ctx.settings.set('folders', folders);
    folders.push('mutated after');
    expect(await r.ctx.settings.get('folders')).toEqual(['Work', 'Play']);
    await r.ctx.settings.remove('folders');
    expect(await r.ctx.settings.get('folders')).toBeUndefined();
    expect(heard).toEqual([['Work', 'Play'], undefined]);
    expect(writes).toEqual([['folders', ['Work', 'Play']], ['folders']]);
    expect(r.ctx.settings.core.get('portraitDockSettings')).toBeUndefined();
    expect(r.ctx.settings.core.isReady()).toBe(true);
  });

  it('component overrides, DOM decorators, message actions and display resolvers are accepted with a handle and listed on its card by name', async () => {
    const r = await rig(['tools']);
    const handle = r.ctx.ui.registerComponentOverride({ host: 'ConnectionsPicker', mode: 'replace', component: () => null });
    expect(typeof handle).toBe('function');
    expect(() => handle.destroy()).not.toThrow();
    r.ctx.registerDomDecorator({ target: '[data-world-book-entry-row]', decorate: () => undefined }).destroy();
    r.ctx.registerMessageAction({ id: 'pin', label: 'Pin', onClick: () => undefined })();
    // A display resolver (LumiRealm throws at setup without ctx.display): accepted, its unregister a function.
    const resolver = { ready: () => true, resolveBody: async () => null, resolveTemplates: async () => null, applyScripts: async () => null };
    const unregister = r.ctx.display.registerResolver(resolver);
    expect(typeof unregister).toBe('function');
    unregister();
    expect(() => r.ctx.display.invalidate(['chat:hp'])).not.toThrow();
    expect(() => r.ctx.display.setExpression({ chatId: 'c', characterId: 'c', label: 'smile', imageId: 'i' })).not.toThrow();
    await settled();
    expect(r.store.getState().inert[ID]).toEqual(['ui.registerComponentOverride(ConnectionsPicker)', 'registerDomDecorator([data-world-book-entry-row])', 'registerMessageAction(pin)', 'display.registerResolver']);
  });

  it('ui.geometry.createResizeController takes a listener or { onChange } and returns a dispose function with destroy()', async () => {
    const r = await rig(['tools']);
    const stop = r.ctx.ui.geometry.createResizeController(document.body, { onChange: () => undefined });
    expect(typeof stop).toBe('function');
    expect(typeof stop.destroy).toBe('function');
    stop();
    r.ctx.ui.geometry.createResizeController(document.body, () => undefined).destroy();
  });
});

describe('the character editor (ctx.ui.registerCharacterEditorTab, ctx.ui.characterEditor)', () => {
  const open = (extensions: Record<string, unknown>, activeSurfaceId: string | null = null): HostState => ({ surfaces: [], state: STATE, characterEditor: { open: true, characterId: 's1', activeSurfaceId, extensions } });

  it('needs characters: without it a tab and a save are refused, and the editor reads closed', async () => {
    const r = await rig(['tools']);
    expect(() => r.ctx.ui.registerCharacterEditorTab({ id: 'voice', title: 'Voice' })).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(r.ctx.ui.characterEditor.getState()).toEqual({ open: false, characterId: null, activeTabId: null, extensions: {} });
    expect(() => r.ctx.ui.characterEditor.updateExtensions((e: object) => e)).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
  });

  it('a tab is a place under the character; the editor opening on it activates it, and onChange hears the card’s extensions', async () => {
    const r = await rig(['characters'], { surfaces: [], state: STATE, characterEditor: { open: false, characterId: null, activeSurfaceId: null, extensions: {} } });
    const editor = r.ctx.ui.characterEditor;
    const tab = r.ctx.ui.registerCharacterEditorTab({ id: 'voice', title: 'Readalong voice' });
    await settled();
    const surface = r.store.getState().surfaces.find((s) => s.kind === 'character')!;
    expect(surface).toMatchObject({ extensionId: ID, title: 'Readalong voice' });
    expect(tab.tabId).toBe(`spindle:${ID}:character-editor-tab:voice:${surface.surfaceId}`);
    const heard: unknown[] = [];
    let activated = 0;
    editor.onChange((s: unknown) => heard.push(s));
    tab.onActivate(() => activated++);
    r.broker.notify('hostState', open({ readalong: { voice: 'alto' } }, surface.surfaceId));
    await settled();
    expect(activated).toBe(1);
    expect(heard).toEqual([{ open: true, characterId: 's1', activeTabId: tab.tabId, extensions: { readalong: { voice: 'alto' } } }]);
    const copy = editor.getState();
    copy.extensions.readalong.voice = 'changed';
    expect(editor.getState().extensions.readalong.voice).toBe('alto');
    // The same state again is not a change.
    r.broker.notify('hostState', open({ readalong: { voice: 'alto' } }, surface.surfaceId));
    await settled();
    expect(heard).toHaveLength(1);
    tab.destroy();
    await settled();
    expect(r.store.getState().surfaces.some((s) => s.kind === 'character')).toBe(false);
  });

  it('updateExtensions saves the whole extensions object at once with immediate, after 2 s otherwise; flush saves what waits', async () => {
    const r = await rig(['characters'], open({ other: { kept: true } }));
    const saves: unknown[] = [];
    r.frontend = (method, args) => void saves.push([method, args]);
    const editor = r.ctx.ui.characterEditor;
    await editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, lumiscript: { scripts: ['a'] } }), { immediate: true });
    expect(saves).toEqual([['characters.update', ['s1', { extensions: { other: { kept: true }, lumiscript: { scripts: ['a'] } } }]]]);
    // Waiting to be saved, it is what getState shows; in place changes count too.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      void editor.updateExtensions((ext: Record<string, unknown>) => void (ext.mind = { seed: 1 }));
      expect(editor.getState().extensions).toEqual({ other: { kept: true }, lumiscript: { scripts: ['a'] }, mind: { seed: 1 } });
      vi.advanceTimersByTime(1999);
      expect(saves).toHaveLength(1);
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    await settled();
    expect(saves).toHaveLength(2);
    await editor.setExtensions({ only: true });
    await editor.flush();
    expect(saves.at(-1)).toEqual(['characters.update', ['s1', { extensions: { only: true } }]]);
    expect(() => editor.updateExtensions(() => 'not an object')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('changes made while a save is on its way build on it, save in order, and a change to another character is saved too', async () => {
    const r = await rig(['characters'], open({ base: 1 }));
    const saves: Array<[string, unknown]> = [];
    let release = () => undefined as void;
    r.frontend = (method, args) => {
      saves.push([args[0] as string, (args[1] as { extensions: unknown }).extensions]);
      // The first save waits until the test lets it through.
      return saves.length === 1 ? new Promise<null>((resolve) => (release = () => resolve(null))) : null;
    };
    const editor = r.ctx.ui.characterEditor;
    const first = editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, a: 1 }), { immediate: true });
    await settled();
    expect(saves).toEqual([['s1', { base: 1, a: 1 }]]);
    // While the first save is on its way, it is what the editor shows and what the next change builds on.
    const second = editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, b: 2 }), { immediate: true });
    await settled();
    expect(editor.getState().extensions).toEqual({ base: 1, a: 1, b: 2 });
    expect(saves).toHaveLength(1);
    release();
    await Promise.all([first, second]);
    expect(saves).toEqual([
      ['s1', { base: 1, a: 1 }],
      ['s1', { base: 1, a: 1, b: 2 }],
    ]);
    // Changes asked for together are saved together.
    void editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, x: 1 }), { immediate: true });
    await editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, y: 1 }), { immediate: true });
    expect(saves.slice(2)).toEqual([['s1', { base: 1, a: 1, b: 2, x: 1, y: 1 }]]);
    // A change waiting for one character is still saved when the editor moves to another.
    void editor.updateExtensions((ext: Record<string, unknown>) => ({ ...ext, c: 3 }));
    r.broker.notify('hostState', { surfaces: [], state: STATE, characterEditor: { open: true, characterId: 's2', activeSurfaceId: null, extensions: {} } });
    await settled();
    await editor.updateExtensions(() => ({ other: true }), { immediate: true });
    expect(saves.slice(3)).toEqual([
      ['s1', { base: 1, a: 1, b: 2, x: 1, y: 1, c: 3 }],
      ['s2', { other: true }],
    ]);
  });

  it('a save the host refuses waits for the next flush; a closed editor refuses changes', async () => {
    const r = await rig(['characters'], open({}));
    let refuse = true;
    const saves: unknown[] = [];
    r.frontend = (method, args) => {
      if (refuse) throw Object.assign(new Error('INPUT_TOO_LARGE: too big'), { code: 'INPUT_TOO_LARGE' });
      saves.push([method, args]);
    };
    await expect(r.ctx.ui.characterEditor.setExtensions({ big: 1 }, { immediate: true })).rejects.toMatchObject({ code: 'INPUT_TOO_LARGE' });
    refuse = false;
    await r.ctx.ui.characterEditor.flush();
    expect(saves).toEqual([['characters.update', ['s1', { extensions: { big: 1 } }]]]);
    r.broker.notify('hostState', { surfaces: [], state: STATE, characterEditor: { open: false, characterId: null, activeSurfaceId: null, extensions: {} } });
    await settled();
    expect(() => r.ctx.ui.characterEditor.setExtensions({})).toThrow(expect.objectContaining({ code: 'CHARACTER_EDITOR_CLOSED' }));
  });
});
