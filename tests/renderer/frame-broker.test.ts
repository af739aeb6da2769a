// @vitest-environment happy-dom
// The frame contract end to end without a browser: an extension's ctx (renderer/frame) on one end of a real
// MessageChannel, the app's broker on the other, a fake host. Every ctx member the Workbench answers, the
// permission checks on both sides, bad messages, flooding, the watchdog and teardown.
// The extension side writes innerHTML into its own surfaces, as published frontends do.
/* eslint-disable @microsoft/sdl/no-inner-html */
import { describe, expect, it } from 'vitest';
import { MAX_REQUESTS_PER_SECOND, PING_INTERVAL_MS, UNRESPONSIVE_AFTER_MS } from '../../renderer/src/features/frontends/frame-broker';
import { MAX_FRONTEND_MESSAGE_CHARS } from '../../shared/limits';
import { frontendsActions } from '../../renderer/src/features/frontends/frontends-store';
import { ID, rig, settled } from './frame-rig';
import { interceptedTags } from '../../renderer/src/features/frontends/message-extras';
import { MAX_TAGS_PER_MESSAGE } from '../../renderer/src/features/frontends/tag-scan';

describe('ctx members, answered by the broker', () => {
  it('registerDrawerTab: a drawer surface with its title; setBadge, activate and onActivate', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerDrawerTab({ id: 'dice', title: 'Dice Tray', shortName: 'Dice' });
    tab.root.innerHTML = '<button id="roll">Roll</button>';
    expect(document.getElementById('roll')).not.toBeNull();
    const activated: number[] = [];
    tab.onActivate(() => activated.push(1));
    tab.setBadge('3');
    r.markReady();
    await settled();
    // Shown first, once its frontend is ready: activated as a click on it would.
    expect(activated).toEqual([1]);
    tab.activate();
    await settled();
    const surface = r.store.getState().surfaces.find((s) => s.kind === 'drawer')!;
    expect(surface).toMatchObject({ extensionId: ID, title: 'Dice Tray', badge: '3', options: { shortName: 'Dice' } });
    expect(r.store.getState().activeTab).toBe(surface.key);
    expect(activated).toEqual([1]);
    expect(tab.tabId).toBe(`spindle:${ID}:tab:dice`);
  });

  it('F4: float widgets and dock panels need ui_panels (refused at once without it); mountApp needs app_manipulation', async () => {
    const without = await rig(['tools']);
    expect(() => without.ctx.ui.createFloatWidget({ width: 10, height: 10 })).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => without.ctx.ui.requestDockPanel({ edge: 'right', title: 'x', size: 200 })).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
    expect(() => without.ctx.ui.mountApp({})).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/^PERMISSION_DENIED:app_manipulation/) }));
    // A frame that skips its ctx and asks the broker directly is refused there too.
    expect(await without.send({ kind: 'invoke', id: 900, method: 'surface.open', input: { surfaceId: 'float-x', kind: 'float', options: {} } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });

    const allowed = await rig(['tools', 'ui_panels', 'app_manipulation']);
    const widget = allowed.ctx.ui.createFloatWidget({ width: 120, height: 40, tooltip: 'Last roll' });
    widget.moveTo(30, 40);
    allowed.ctx.ui.requestDockPanel({ edge: 'left', title: 'Map', size: 240 });
    // At the start or end of the page's body, as Lumiverse places it, for its own CSS to position (SimTracker's side
    // panel); the app shows what the runtime page's body draws. An overlay is a surface of its own.
    const side = allowed.ctx.ui.mountApp({ className: 'sim-side', position: 'start' }) as { root: HTMLElement; setVisible(v: boolean): void; destroy(): void };
    const end = allowed.ctx.ui.mountApp({ className: 'sim-end' }) as { root: HTMLElement; destroy(): void };
    allowed.ctx.ui.mountApp({ className: 'sim', position: 'app-overlay' });
    await settled();
    const container = side.root.parentElement!;
    expect(document.body.firstElementChild).toBe(container);
    expect(container).toMatchObject({ className: 'sim-side' });
    expect(container.dataset).toMatchObject({ spindleAppMount: ID });
    expect(side.root.className).toBe('sim-side');
    expect(document.body.lastElementChild).toBe(end.root.parentElement);
    side.setVisible(false);
    expect(container.style.display).toBe('none');
    side.destroy();
    end.destroy();
    expect(container.isConnected).toBe(false);
    expect(document.querySelector('[data-spindle-app-mount]')).toBeNull();
    const kinds = allowed.store.getState().surfaces.map((s) => s.kind);
    expect(kinds).toEqual(['float', 'dock', 'app']);
    expect(allowed.store.getState().surfaces[0]).toMatchObject({ size: { width: 120, height: 40 }, position: { x: 30, y: 40 } });
  });

  it('F4: revoking a permission reaches the frame: the next placement that needs it is refused', async () => {
    const r = await rig(['tools', 'ui_panels']);
    r.broker.notify('permissions', { granted: ['tools'] });
    await settled();
    expect(() => r.ctx.ui.createFloatWidget({})).toThrow(expect.objectContaining({ code: 'PERMISSION_DENIED' }));
  });

  it('registerInputBarAction: a composer action whose clicks reach onClick; destroy removes it', async () => {
    const r = await rig();
    const action = r.ctx.ui.registerInputBarAction({ id: 'quick', label: 'Roll d6' });
    const clicks: number[] = [];
    action.onClick(() => clicks.push(1));
    await settled();
    const stored = r.store.getState().actions[0]!;
    expect(stored).toMatchObject({ extensionId: ID, label: 'Roll d6', enabled: true });
    r.broker.notify('inputAction', { actionId: stored.actionId });
    await settled();
    expect(clicks).toEqual([1]);
    action.destroy();
    await settled();
    expect(r.store.getState().actions).toEqual([]);
  });

  it('showModal: a modal surface, dismissed by the person (onDismiss); at most two at once', async () => {
    const r = await rig();
    const modal = r.ctx.ui.showModal({ title: 'Quick roll' });
    const dismissed: number[] = [];
    modal.onDismiss(() => dismissed.push(1));
    r.ctx.ui.showModal({ title: 'Second' });
    expect(() => r.ctx.ui.showModal({ title: 'Third' })).toThrow(/at most 2/);
    await settled();
    const surface = r.store.getState().surfaces.find((s) => s.title === 'Quick roll')!;
    r.broker.notify('surface', { surfaceId: surface.surfaceId, what: 'dismiss' });
    await settled();
    expect(dismissed).toEqual([1]);
    expect(r.store.getState().surfaces.map((s) => s.title)).toEqual(['Second']);
  });

  it('showConfirm, showContextMenu, permissions.request and uploads.pickFile wait for the person', async () => {
    const r = await rig(['tools']);
    const answer = async (kind: string, value: unknown) => {
      await settled();
      const dialog = r.store.getState().dialogs.find((d) => d.kind === kind)!;
      r.store.setState((s) => ({ dialogs: s.dialogs.filter((d) => d !== dialog) }));
      dialog.resolve(value);
    };
    const confirmed = r.ctx.ui.showConfirm({ title: 'Delete?', message: 'Really' });
    await answer('confirm', { confirmed: true });
    expect(await confirmed).toEqual({ confirmed: true });

    const menu = r.ctx.ui.showContextMenu({ position: { x: 1, y: 2 }, items: [{ key: 'a', label: 'A' }] });
    await answer('contextMenu', { selectedKey: 'a' });
    expect(await menu).toEqual({ selectedKey: 'a' });

    const asked = r.ctx.permissions.request(['ui_panels'], { reason: 'To float' });
    await answer('permissions', { grant: ['ui_panels'] });
    expect(await asked).toEqual(['tools', 'ui_panels']);
    expect(r.invoked).toContainEqual({ method: 'extensions.grant', input: { id: ID, permission: 'ui_panels' } });
    // Already granted: answered at once, nobody asked.
    expect(await r.ctx.permissions.request(['tools'])).toEqual(['tools']);

    const picked = r.ctx.uploads.pickFile({ accept: ['.json'] });
    await answer('file', [{ name: 'a.json', mimeType: 'application/json', sizeBytes: 2, base64: btoa('{}') }]);
    const files = await picked;
    expect(files[0]).toMatchObject({ name: 'a.json', sizeBytes: 2 });
    expect(new TextDecoder().decode(files[0].bytes)).toBe('{}');
  });

  it('a refused permission request rejects with PERMISSION_DENIED', async () => {
    const r = await rig();
    const asked = r.ctx.permissions.request(['ui_panels']);
    await settled();
    r.store.getState().dialogs[0]!.reject({ code: 'PERMISSION_DENIED', message: 'Permission request denied by user' });
    await expect(asked).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
  });

  it('sendToBackend reaches the host; backend messages wait for ready(); events reach ctx.events.on', async () => {
    const r = await rig();
    r.ctx.sendToBackend({ type: 'roll' });
    const got: unknown[] = [];
    r.ctx.onBackendMessage((payload: unknown) => got.push(payload));
    const events: unknown[] = [];
    r.ctx.events.on('CHAT_SWITCHED', (payload: unknown) => events.push(payload));
    r.broker.notify('backend', { payload: { n: 1 } });
    r.broker.notify('event', { event: 'CHAT_SWITCHED', payload: { chatId: 'chat-2' } });
    await settled();
    expect(r.invoked).toContainEqual({ method: 'extensions.sendFrontend', input: { id: ID, payload: { type: 'roll' } } });
    expect(got).toEqual([]);
    expect(events).toEqual([{ chatId: 'chat-2' }]);
    r.markReady();
    await settled();
    expect(got).toEqual([{ n: 1 }]);
    expect(r.store.getState().ready[ID]).toBe(true);
  });

  it('F9: a message to the backend over the cap is refused at the bridge with INPUT_TOO_LARGE; the host never sees it', async () => {
    const r = await rig();
    const huge = { blob: 'x'.repeat(MAX_FRONTEND_MESSAGE_CHARS) };
    expect(await r.send({ kind: 'invoke', id: 901, method: 'backend.send', input: { payload: huge } })).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    expect(r.invoked.filter((c) => c.method === 'extensions.sendFrontend')).toEqual([]);
    // sendToBackend answers nothing: the refusal is on the extension's card.
    expect(r.store.getState().refusals[ID]).toEqual([`sendToBackend: A message to the backend is at most ${MAX_FRONTEND_MESSAGE_CHARS} characters of JSON.`]);
    // Its frontend starting again clears it (frontendsActions.clearProblem, as its frame loads).
    frontendsActions.clearProblem(r.store, ID);
    expect(r.store.getState().refusals[ID]).toBeUndefined();
    // A 2 MB one (a published frontend's media upload; Lumiverse's socket takes 4 MB) goes through.
    expect(await r.send({ kind: 'invoke', id: 902, method: 'backend.send', input: { payload: { blob: 'x'.repeat(2 * 1024 * 1024) } } })).toMatchObject({ ok: true });
    expect(r.invoked.filter((c) => c.method === 'extensions.sendFrontend')).toHaveLength(1);
  });

  it('getActiveChat and the message ids follow the app', async () => {
    const r = await rig();
    expect(r.ctx.getActiveChat()).toEqual({ chatId: 'chat-1', characterId: 'chat-1' });
    expect(r.ctx.messages.getLatestMessageId()).toBe('m2');
    const ids = r.ctx.messages.listMessageIds();
    expect(ids.length).toBeGreaterThan(1);
    // Lumiverse's indexing: from the start, or from the end when negative; past either end, or not a whole number, null.
    expect(r.ctx.messages.getMessageIdAtIndex(0)).toBe(ids[0]);
    expect(r.ctx.messages.getMessageIdAtIndex(-1)).toBe('m2');
    expect(r.ctx.messages.getMessageIdAtIndex(-ids.length)).toBe(ids[0]);
    expect(r.ctx.messages.getMessageIdAtIndex(-ids.length - 1)).toBeNull();
    expect(r.ctx.messages.getMessageIdAtIndex(ids.length)).toBeNull();
    expect(r.ctx.messages.getMessageIdAtIndex(0.5)).toBeNull();
  });

  it('tag interceptors hear their tags; widgets are stored for the message and their posts reach the handler', async () => {
    const r = await rig();
    const tags: unknown[] = [];
    r.ctx.messages.registerTagInterceptor({ tagName: 'dice' }, (payload: unknown) => tags.push(payload));
    const posts: unknown[] = [];
    r.ctx.messages.renderWidget({ messageId: 'm2', widgetId: 'w', html: '<button>x</button>' }, (payload: unknown) => posts.push(payload));
    await settled();
    const interceptor = r.store.getState().interceptors[0]!;
    expect(interceptor).toMatchObject({ tagName: 'dice', removeFromMessage: true });
    expect(r.store.getState().widgets).toEqual([{ extensionId: ID, messageId: 'm2', widgetId: 'w', html: '<button>x</button>' }]);
    r.broker.notify('tag', { interceptorId: interceptor.interceptorId, tagName: 'dice', attrs: {}, content: '2d6', fullMatch: '<dice>2d6</dice>', messageId: 'm2' });
    r.broker.notify('widget', { messageId: 'm2', widgetId: 'w', payload: { type: 'check' } });
    await settled();
    expect(tags).toEqual([{ extensionId: ID, tagName: 'dice', attrs: {}, content: '2d6', fullMatch: '<dice>2d6</dice>', messageId: 'm2' }]);
    expect(posts).toEqual([{ type: 'check' }]);
  });

  it("a tag interceptor with attrs takes only the tags that carry those values, as Lumiverse matches them (LTracker's type=\"state\")", async () => {
    const r = await rig();
    r.ctx.messages.registerTagInterceptor({ tagName: 'ltracker', attrs: { type: 'state' } }, () => undefined);
    r.ctx.messages.registerTagInterceptor({ tagName: 'ltracker', removeFromMessage: false }, () => undefined);
    await settled();
    const [state, any] = r.store.getState().interceptors;
    expect(state).toMatchObject({ tagName: 'ltracker', attrs: { type: 'state' }, removeFromMessage: true });
    expect(any).not.toHaveProperty('attrs');
    const text = 'a <ltracker type="state">hp 3</ltracker> b <ltracker type="log">hit</ltracker> c <ltracker>bare</ltracker>';
    const found = interceptedTags(text, [state!, any!]).map((m) => [m.interceptor === state ? 'state' : 'any', m.content]);
    expect(found).toEqual([['state', 'hp 3'], ['any', 'hp 3'], ['any', 'hit'], ['any', 'bare']]);
    // An attribute asked for and absent counts as empty: only a tag without it, or with it empty, matches "".
    const empty = { ...state!, attrs: { type: '' } };
    expect(interceptedTags(text, [empty]).map((m) => m.content)).toEqual(['bare']);
    // What is not an own attribute of the tag is absent, not an Object member.
    expect(interceptedTags(text, [{ ...state!, attrs: { constructor: '' } }]).map((m) => m.content)).toEqual(['hp 3', 'hit', 'bare']);
    // Tags that do not match take none of the message's budget: the one that does, after hundreds, is still found.
    const crowded = `${'<ltracker type="log">x</ltracker>'.repeat(MAX_TAGS_PER_MESSAGE + 10)}<ltracker type="state">hp 1</ltracker>`;
    expect(interceptedTags(crowded, [state!]).map((m) => m.content)).toEqual(['hp 1']);
  });

  it('dom.findMessageElement: a place of its own for that message, shown under it once something is put there', async () => {
    const r = await rig();
    expect(r.ctx.dom.findMessageElement({ not: 'an id' })).toBeNull();
    const place = r.ctx.dom.findMessageElement('m2');
    expect(place.getAttribute('data-message-id')).toBe('m2');
    expect(r.ctx.dom.findMessageElement('m2')).toBe(place);
    // Lumiverse's pairs, as decorators read them: for (const { messageId, element } of listMessageElements()).
    const listed = r.ctx.dom.listMessageElements() as Array<{ messageId: string; element: Element }>;
    expect(listed.map(({ messageId, element }) => [messageId, element.getAttribute('data-message-id')])).toEqual([['m1', 'm1'], ['m2', 'm2']]);
    expect(listed[1]?.element).toBe(place);
    // Each card says who wrote it, as Lumiverse's does (Hone puts its button on the character's only).
    expect(listed.map(({ element }) => element.querySelector('[data-component="BubbleMessage"]')?.getAttribute('data-part'))).toEqual(['user', 'character']);
    await settled();
    // Asked for but empty: no frame under the message yet.
    expect(r.store.getState().surfaces.filter((x) => x.kind === 'message')).toEqual([]);
    const card = r.ctx.dom.inject(place, '<div class="sim-card">Tracked</div>');
    r.ctx.dom.inject(place, '<div>More</div>');
    await settled();
    expect(r.store.getState().surfaces.filter((x) => x.kind === 'message')).toEqual([expect.objectContaining({ extensionId: ID, options: { messageId: 'm2' } })]);
    expect(r.ctx.dom.getMessageId(card)).toBe('m2');
    // The newest message, named by an event before the app's list of ids has it, has its place too.
    expect(r.ctx.dom.findMessageElement('m3-just-written')).not.toBeNull();
    // Another chat: the last one's places go.
    r.broker.notify('activeChat', { chatId: 'chat-2', messageIds: ['n1'] });
    await settled();
    expect(r.store.getState().surfaces.filter((x) => x.kind === 'message')).toEqual([]);
    expect(r.ctx.dom.findMessageElement('m2')).not.toBe(place);
  });

  it("Lumiverse's message list, as decorators read its page: a row per message with its card and action bar; a button put there shows under the message", async () => {
    const r = await rig();
    const list = document.querySelector('[data-component="MessageList"]')!;
    const rows = () => [...list.querySelectorAll<HTMLElement>(':scope > [data-message-id]')].map((row) => [row.getAttribute('data-message-id'), row.getAttribute('data-message-index')]);
    expect(rows()).toEqual([['m1', '0'], ['m2', '1']]);
    // Hone's way: each row's action bar (skipping a streaming card), a button of its own in it.
    const added: string[] = [];
    const watch = new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach((n) => added.push((n as Element).getAttribute?.('data-message-id') ?? ''))));
    watch.observe(list, { childList: true });
    const bar = list.querySelector('[data-message-id="m2"] [data-component="BubbleMessage"]:not([data-part="streaming"]) [data-component="BubbleActions"]')!;
    await settled();
    // Lumiverse's own parts alone open no frame under any message.
    expect(r.store.getState().surfaces.filter((x) => x.kind === 'message')).toEqual([]);
    const refine = document.createElement('button');
    refine.textContent = 'Refine';
    bar.append(refine);
    await settled();
    expect(r.store.getState().surfaces.filter((x) => x.kind === 'message')).toEqual([expect.objectContaining({ options: { messageId: 'm2' } })]);
    expect(r.ctx.dom.getMessageId(refine)).toBe('m2');
    // A new message: its row is appended, and an observer of the list hears it.
    r.broker.notify('activeChat', { chatId: 'chat-1', messageIds: ['m1', 'm2', 'm3'] });
    await settled();
    watch.disconnect();
    expect(added).toEqual(['m3']);
    expect(rows().map(([id]) => id)).toEqual(expect.arrayContaining(['m1', 'm3']));
    expect(r.ctx.dom.listMessageElements().map((e: { element: Element }) => e.element.querySelector('[data-component="BubbleActions"]') !== null)).toEqual([true, true, true]);
  });

  it('F1: dom: injected HTML is sanitized; styles and lookups span its documents', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerDrawerTab({ id: 't', title: 'T' });
    tab.root.innerHTML = '<div id="here"></div>';
    const wrapper = r.ctx.dom.inject('#here', '<img src=x onerror="window.__pwned=1"><b id="bold">ok</b><script>window.__pwned=2</script>');
    expect(wrapper.getAttribute('data-spindle-ext')).toBe(ID);
    // Sanitized by DOMPurify in a browser (the e2e shows it); where DOMPurify cannot run, as text: never as markup.
    expect(wrapper.querySelector('script, [onerror]')).toBeNull();
    expect(wrapper.textContent).toContain('ok');
    expect(r.ctx.dom.query('[data-spindle-ext]')).toBe(wrapper);
    const remove = r.ctx.dom.addStyle('.x { color: red }');
    expect([...document.querySelectorAll('style')].some((s) => s.textContent === '.x { color: red }')).toBe(true);
    remove();
    expect([...document.querySelectorAll('style')].some((s) => s.textContent === '.x { color: red }')).toBe(false);
  });

  it('a settings tab says how tall its content is; the card holds it at that height', async () => {
    const r = await rig();
    const tab = r.ctx.ui.registerSettingsTab({ id: 'prefs', title: 'Prefs' });
    await settled();
    const surface = () => r.store.getState().surfaces.find((s) => s.kind === 'settings')!;
    expect(surface().contentHeight).toBeNull();
    const surfaceId = surface().surfaceId;
    expect(await r.send({ kind: 'invoke', id: 700, method: 'surface.contentHeight', input: { surfaceId, height: 479.4 } })).toMatchObject({ ok: true });
    expect(surface().contentHeight).toBe(479);
    // Its own surface with a height that is not a number: refused by the contract, naming the field.
    expect(await r.send({ kind: 'invoke', id: 701, method: 'surface.contentHeight', input: { surfaceId, height: '300px' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/height' } });
    expect(surface().contentHeight).toBe(479);
    tab.destroy();
  });

  it('what has no place here: UNSUPPORTED_HERE, and the card lists it once', async () => {
    const r = await rig();
    // A component newer than this host's list: UNSUPPORTED_HERE (never an undefined member that ends a setup with a TypeError).
    expect(() => r.ctx.components.mountTimelineScrubber(document.body, {})).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(() => r.ctx.components.mountTimelineScrubber(document.body, {})).toThrow();
    expect(r.ctx.ui.getBuiltInTabRoot('chat')).toBeUndefined();
    await settled();
    expect(r.store.getState().inert[ID]).toEqual(['components.mountTimelineScrubber', 'ui.getBuiltInTabRoot']);
    expect(r.store.getState().surfaces).toEqual([]);
  });
});

describe('what the broker refuses', () => {
  it.each([
    ['an unknown method', { kind: 'invoke', id: 1, method: 'app.takeOver', input: {} }, 'UNKNOWN_METHOD'],
    ['a name every object has', { kind: 'invoke', id: 7, method: 'constructor', input: {} }, 'UNKNOWN_METHOD'],
    ['params that break the contract', { kind: 'invoke', id: 2, method: 'surface.open', input: { surfaceId: '', kind: 'drawer', options: {} } }, 'INVALID_INPUT'],
    ['an extra field', { kind: 'invoke', id: 3, method: 'backend.send', input: { payload: 1, extra: true } }, 'INVALID_INPUT'],
    ['a surface that is not its own', { kind: 'invoke', id: 4, method: 'surface.update', input: { surfaceId: 'drawer-99', patch: { title: 'x' } } }, 'INVALID_INPUT'],
    ['the height of a surface that is not its own', { kind: 'invoke', id: 5, method: 'surface.contentHeight', input: { surfaceId: 'drawer-99', height: 300 } }, 'INVALID_INPUT'],
    ['a tag attribute no tag can carry', { kind: 'invoke', id: 8, method: 'messages.interceptTags', input: { interceptorId: 'tag-1', tagName: 'x', attrs: { 'no such name!': 'v' } } }, 'INVALID_INPUT'],
    ['a tag attribute name of 65 characters', { kind: 'invoke', id: 9, method: 'messages.interceptTags', input: { interceptorId: 'tag-1', tagName: 'x', attrs: { [`a${'b'.repeat(64)}`]: 'v' } } }, 'INVALID_INPUT'],
  ])('F5: %s: a stable code, nothing changes', async (_what, message, code) => {
    const r = await rig();
    expect(await r.send(message)).toMatchObject({ ok: false, error: { code } });
    expect(r.store.getState().surfaces).toEqual([]);
    expect(r.stopped()).toBe(false);
  });

  it('F6: a frame that floods requests is stopped, its places cleared, and its card says why', async () => {
    const r = await rig();
    r.ctx.ui.registerDrawerTab({ id: 't', title: 'T' });
    await settled();
    for (let i = 0; i <= MAX_REQUESTS_PER_SECOND; i++) r.ctx.sendToBackend({ i });
    await settled();
    r.timers.advance(2_000);
    await settled();
    expect(r.stopped()).toBe(true);
    expect(r.store.getState().surfaces).toEqual([]);
    expect(r.store.getState().problems[ID]).toMatch(/more than 300 requests in a second/);
  });

  it('F7: a frame that stops answering pings is stopped after the watchdog’s limit', async () => {
    const r = await rig();
    // The frame no longer answers (a busy loop): its pongs stop.
    r.broker.transfer.onmessage = null;
    r.broker.transfer.close();
    r.timers.advance(UNRESPONSIVE_AFTER_MS + PING_INTERVAL_MS + 1_000 + 1);
    await settled();
    expect(r.stopped()).toBe(true);
    expect(r.store.getState().problems[ID]).toMatch(/stopped answering/);
  });

  it('stop(): teardown runs in the frame (its places close), then the frame is removed', async () => {
    const r = await rig();
    const cleaned: string[] = [];
    r.ctx.onTeardown(() => cleaned.push('teardown'));
    r.ctx.ui.registerInputBarAction({ id: 'a', label: 'A' });
    await settled();
    r.broker.stop();
    await settled();
    expect(cleaned).toEqual(['teardown']);
    expect(r.stopped()).toBe(true);
    expect(r.store.getState().actions).toEqual([]);
  });
});
