// @vitest-environment happy-dom
// Lumiverse's frontend extensibility v2 in the frame, through the real frame contract: ctx.host.surfaces and
// ctx.state read at once from what the app told the frame and hear only changes; invoke opens a place through the
// host; the domain members and settings are host calls; what changes Lumiverse's own components is accepted and
// listed on the card.
import { describe, expect, it } from 'vitest';
import type { HostState } from '../../shared/frames/host-state';
import { ID, rig, settled } from './frame-rig';

const TABS: HostState['surfaces'] = [
  { kind: 'drawer_tab', id: 'connections', label: 'Connections' },
  { kind: 'drawer_tab', id: 'tarot/drawer-1', label: 'Tarot', owner: 'tarot', iconSvg: '<svg/>' },
];
const STATE: HostState['state'] = { 'chat.active': { chatId: 'chat-1', characterId: 'chat-1', avatarImageId: null }, 'chat.messageCount': 2 };

describe('ctx.host (frontend v2)', () => {
  it('says it has frontend v2; surfaces.list answers at once, by kind, as copies', async () => {
    const r = await rig(['tools'], { surfaces: TABS, state: STATE });
    expect(r.ctx.host.capabilities).toEqual({ 'frontend-extensibility-v2': 1 });
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
    expect(calls).toHaveLength(2);
    // A refusal of the host (too many moves) reaches the extension.
    r.frontend = () => {
      throw Object.assign(new Error('At most 5 moves of the app in 10 s.'), { code: 'RATE_LIMITED' });
    };
    await expect(r.ctx.host.surfaces.invoke({ kind: 'drawer_tab', id: 'connections' })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
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

  it('component overrides, DOM decorators and message actions are accepted with a handle and listed on its card by name', async () => {
    const r = await rig(['tools']);
    const handle = r.ctx.ui.registerComponentOverride({ host: 'ConnectionsPicker', mode: 'replace', component: () => null });
    expect(typeof handle).toBe('function');
    expect(() => handle.destroy()).not.toThrow();
    r.ctx.registerDomDecorator({ target: '[data-world-book-entry-row]', decorate: () => undefined }).destroy();
    r.ctx.registerMessageAction({ id: 'pin', label: 'Pin', onClick: () => undefined })();
    await settled();
    expect(r.store.getState().inert[ID]).toEqual(['ui.registerComponentOverride(ConnectionsPicker)', 'registerDomDecorator([data-world-book-entry-row])', 'registerMessageAction(pin)']);
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
