// @vitest-environment happy-dom
// The ctx members the broker tests did not reach, each through the real frame contract (a MessageChannel to the
// app's broker): ready() from the author, permissions, events.emit, locale, the sandbox frame, uninject, a widget
// removed, mount points, action handlers bound by attribute, an input action's label and switch.
/* eslint-disable @microsoft/sdl/no-inner-html -- the extension side writes into its own surfaces, as published frontends do */
import { onLocalToast } from '../../renderer/src/features/frontends/local-toasts';
import { MAX_ALERTS } from '../../renderer/src/features/frontends/frame-handlers';
import { ALERT_CHARS } from '../../shared/frames/frame-contract';
import { describe, expect, it } from 'vitest';
import { FrameChannel } from '../../renderer/frame/channel';
import { ID, rig, settled } from './frame-rig';

describe('ctx members, the rest', () => {
  it('ctx.ready() from the author releases what the backend sent meanwhile and tells the app', async () => {
    const r = await rig();
    const got: unknown[] = [];
    r.ctx.onBackendMessage((payload: unknown) => got.push(payload));
    r.broker.notify('backend', { payload: 'early' });
    await settled();
    expect(got).toEqual([]);
    r.ctx.ready();
    await settled();
    expect(got).toEqual(['early']);
    expect(r.store.getState().ready[ID]).toBe(true);
    // deferReady() after setup is not honoured: nothing is held back.
    r.ctx.deferReady();
    r.broker.notify('backend', { payload: 'late' });
    await settled();
    expect(got).toEqual(['early', 'late']);
  });

  it("getActiveChat names the chat's character as the app's state does (a branch's origin), once that state is of this chat", async () => {
    const r = await rig(['tools'], { surfaces: [], state: { 'chat.active': { chatId: 'chat-1', characterId: 'origin-1', avatarImageId: null } } });
    expect(r.ctx.getActiveChat()).toEqual({ chatId: 'chat-1', characterId: 'origin-1' });
    // The app moved on to another chat and has not said its character yet: the chat is its own.
    r.broker.notify('activeChat', { chatId: 'chat-2', messageIds: [] });
    await settled();
    expect(r.ctx.getActiveChat()).toEqual({ chatId: 'chat-2', characterId: 'chat-2' });
  });

  it('permissions.getGranted follows grants; a request for what it has asks nobody', async () => {
    const r = await rig(['tools', 'ui_panels']);
    expect(await r.ctx.permissions.getGranted()).toEqual(['tools', 'ui_panels']);
    expect(await r.ctx.permissions.request(['ui_panels'])).toEqual(['tools', 'ui_panels']);
    expect(r.store.getState().dialogs).toEqual([]);
    r.broker.notify('permissions', { granted: ['tools'] });
    await settled();
    expect(await r.ctx.permissions.getGranted()).toEqual(['tools']);
  });

  it('events.emit is a DOM event of the frame (spindle:<name>), for its own parts; locale is English', async () => {
    const r = await rig();
    const heard: unknown[] = [];
    window.addEventListener('spindle:dice-rolled', (event) => heard.push((event as CustomEvent).detail));
    r.ctx.events.emit('dice-rolled', { value: 4 });
    expect(heard).toEqual([{ value: 4 }]);
    expect(r.ctx.locale.get()).toBe('en');
    expect(typeof r.ctx.locale.subscribe(() => undefined)).toBe('function');
  });

  it('dom.createSandboxFrame is a sandboxed frame of its own (scripts, no same origin); uninject takes an injection away', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerDrawerTab({ id: 't', title: 'T' });
    const sandbox = r.ctx.dom.createSandboxFrame({ html: '<p>hi</p>' });
    expect(sandbox.element.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    sandbox.destroy();
    const injected = r.ctx.dom.inject(tab.root, '<b>x</b>');
    expect(tab.root.querySelector(`[data-spindle-ext="${ID}"]`)).toBe(injected);
    r.ctx.dom.uninject(injected);
    expect(tab.root.querySelector(`[data-spindle-ext="${ID}"]`)).toBeNull();
  });

  it('messages.removeWidget takes its widget off the message', async () => {
    const r = await rig();
    r.ctx.messages.renderWidget({ messageId: 'm1', widgetId: 'w1', html: '<p>a</p>' });
    r.ctx.messages.renderWidget({ messageId: 'm2', widgetId: 'w1', html: '<p>b</p>' });
    await settled();
    expect(r.store.getState().widgets.map((w) => w.messageId)).toEqual(['m1', 'm2']);
    r.ctx.messages.removeWidget('m1', 'w1');
    await settled();
    expect(r.store.getState().widgets.map((w) => w.messageId)).toEqual(['m2']);
  });

  it('ui.mount(point) opens one place per point, the same root each time it is asked', async () => {
    const r = await rig();
    const first = r.ctx.ui.mount('sidebar-bottom');
    expect(r.ctx.ui.mount('sidebar-bottom')).toBe(first);
    await settled();
    expect(r.store.getState().surfaces.filter((s) => s.kind === 'mount').map((s) => s.options.point)).toEqual(['sidebar-bottom']);
  });

  it('ui.events.bindActionHandlers calls the handler named by the clicked element’s attribute, until unbound', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerDrawerTab({ id: 't', title: 'T' });
    tab.root.innerHTML = '<div id="list"><button data-spindle-action="roll"><span id="inner">Roll</span></button><button id="plain">x</button></div>';
    const calls: string[] = [];
    const off = r.ctx.ui.events.bindActionHandlers(tab.root, { roll: (detail: { actionId: string; eventType: string }) => calls.push(`${detail.actionId}:${detail.eventType}`) });
    (tab.root.querySelector('#inner') as HTMLElement).click();
    (tab.root.querySelector('#plain') as HTMLElement).click();
    expect(calls).toEqual(['roll:click']);
    off();
    (tab.root.querySelector('#inner') as HTMLElement).click();
    expect(calls).toEqual(['roll:click']);
  });

  it('an input action’s setLabel and setEnabled reach its composer button', async () => {
    const r = await rig();
    const action = r.ctx.ui.registerInputBarAction({ id: 'roll', label: 'Roll d6' });
    action.setLabel('Roll d20');
    action.setEnabled(false);
    await settled();
    expect(r.store.getState().actions).toEqual([expect.objectContaining({ extensionId: ID, actionId: action.actionId, label: 'Roll d20', enabled: false })]);
  });

  it('dom.createElement makes a tagged element of its own, taken away with its other injections; a frame of any kind is refused', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerDrawerTab({ id: 't', title: 'T' });
    const shell = r.ctx.dom.createElement('div', { class: 'threadverse-shell', 'aria-label': 'Threads' });
    expect(shell.getAttribute('data-spindle-ext')).toBe(ID);
    expect(shell.className).toBe('threadverse-shell');
    tab.root.append(shell);
    for (const tag of ['iframe', 'FRAME', 'object', 'embed']) expect(() => r.ctx.dom.createElement(tag)).toThrow(/Forbidden element tag/);
    r.ctx.dom.cleanup();
    expect(tab.root.querySelector('.threadverse-shell')).toBeNull();
  });

  it('characters.get and chats.updateMessage go through Lumiverse’s API, so its answer or its refusal reaches the extension', async () => {
    const r = await rig();
    const asked: Array<{ method: string; path: string; body?: string }> = [];
    r.page = (request) => {
      asked.push({ method: request.method, path: request.path, ...(request.body ? { body: request.body } : {}) });
      if (request.path === '/api/v1/characters/c%201') return { status: 200, body: { id: 'c 1', name: 'Mara', creator_notes: '<b>notes</b>' } };
      if (request.method === 'PUT') return { status: 403, body: { error: 'Permission chat_mutation is needed.', code: 'PERMISSION_DENIED' } };
      return { status: 404, body: { error: 'Not found' } };
    };
    expect(await r.ctx.characters.get('c 1')).toEqual({ id: 'c 1', name: 'Mara', creator_notes: '<b>notes</b>' });
    await expect(r.ctx.characters.get('gone')).rejects.toMatchObject({ message: 'Not found', status: 404 });
    await expect(r.ctx.chats.updateMessage('chat-1', 'm1', { content: 'New text', role: 'ignored' })).rejects.toMatchObject({ code: 'PERMISSION_DENIED', status: 403 });
    expect(asked).toEqual([
      { method: 'GET', path: '/api/v1/characters/c%201' },
      { method: 'GET', path: '/api/v1/characters/gone' },
      { method: 'PUT', path: '/api/v1/chats/chat-1/messages/m1', body: JSON.stringify({ content: 'New text' }) },
    ]);
  });

  it('an answer that breaks its method’s result schema is refused in the frame, never handed to the extension', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = new FrameChannel(port2);
    port1.onmessage = (event) => {
      const { id, method } = event.data as { id: number; method: string };
      port1.postMessage({ kind: 'result', id, result: { ok: true, value: method === 'connections.models' ? { models: 'not a list' } : { models: ['a'] } } });
    };
    await expect(channel.request('connections.models', {})).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('connections.models result') });
    channel.close();
    port1.close();
  });

  it("the page's confirm, prompt and alert answer as a sandboxed frame's do (false, null, nothing) and are listed on its card", async () => {
    const r = await rig();
    const win = { confirm: () => true } as unknown as Window & { confirm(): boolean; prompt(): string | null; alert(message?: unknown): void };
    const toasts: Array<[string, string, string]> = [];
    const off = onLocalToast((id, toast) => void toasts.push([id, toast.level, toast.message]));
    r.runtime.quietDialogs(win);
    expect(win.confirm()).toBe(false);
    expect(win.prompt()).toBeNull();
    expect(win.alert()).toBeUndefined();
    expect(win.confirm()).toBe(false);
    // An alert's message is shown, as a toast with its name (aislop reports its failures so), and is then no missing
    // member; a long one is cut; one that alerts in a loop shows a few.
    win.alert('Save failed: 404');
    win.alert('x'.repeat(ALERT_CHARS + 50));
    for (let i = 0; i < 10; i++) win.alert(`Again ${i}`);
    await settled();
    off();
    expect(r.store.getState().inert[ID]).toEqual(['window.confirm', 'window.prompt', 'window.alert']);
    expect(toasts).toEqual([
      [ID, 'info', 'Save failed: 404'],
      [ID, 'info', 'x'.repeat(ALERT_CHARS)],
      ...[0, 1, 2].map((i) => [ID, 'info', `Again ${i}`]),
    ]);
    expect(toasts).toHaveLength(MAX_ALERTS);
  });
});
