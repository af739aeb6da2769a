// @vitest-environment happy-dom
// Lumiverse's message box in an extension's frame (renderer/frame/lumiverse-composer.ts) against the app's broker over a
// real MessageChannel: only an extension granted generation has it; the draft follows the Workbench's box both ways as
// published frontends read and write it (the native value setter and an input event); its buttons are the person's.
import { describe, expect, it } from 'vitest';
import { createComposerStandIn } from '../../renderer/frame/lumiverse-composer';
import { tellComposer } from '../../renderer/src/features/frontends/composer-news';
import { MAX_COMPOSER_REPLIES_PER_MINUTE } from '../../renderer/src/features/frontends/frame-handlers';
import type { ComposerControl } from '../../renderer/src/features/frontends/frontends-store';
import { rig, settled, type Rig } from './frame-rig';

type Call = [string, ...string[]];

function withBox(r: Rig, draft = '', generating = false) {
  const calls: Call[] = [];
  const control: ComposerControl = {
    setDraft: (text) => void calls.push(['draft', text]),
    send: async (text) => void calls.push(['send', text]),
    stop: async () => void calls.push(['stop']),
    regenerate: async () => void calls.push(['regenerate']),
    continue: async () => void calls.push(['continue']),
  };
  const show = (state: { draft: string; generating: boolean }) => {
    r.store.setState({ composer: { state: { ...state, canRegenerate: true, canContinue: true }, places: {}, base: { x: 12, y: 480, width: 640 }, control } });
    tellComposer([r.broker], () => r.granted, r.store.getState());
  };
  show({ draft, generating });
  return { calls, show };
}

const area = () => document.querySelector<HTMLElement>('[data-component="InputArea"]');
const textarea = () => document.querySelector<HTMLTextAreaElement>('textarea[name="chat-message"]')!;
/** As Scene-Director and Hone write the draft: React's way, the prototype's setter and a bubbling input event. */
function write(text: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(textarea(), text);
  textarea().dispatchEvent(new Event('input', { bubbles: true }));
}

describe("Lumiverse's message box in an extension's frame", () => {
  it('granted generation: InputArea as Lumiverse renders it, placed in the room above the box, the draft heard with an input event', async () => {
    const r = await rig(['generation']);
    const standIn = createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const heard: string[] = [];
    document.addEventListener('input', (event) => heard.push((event.target as HTMLTextAreaElement).value), true);
    withBox(r, 'She opens the door');
    await settled();
    expect(area()).not.toBeNull();
    // InputArea sits in a column placed in the room above the box (what the body layer reports as the composer's).
    const column = area()!.parentElement!;
    expect(standIn.placed()).toBe(column);
    expect(column.parentElement).toBe(document.body);
    expect(column.style).toMatchObject({ left: '12px', top: '480px', width: '640px' });
    expect(textarea().value).toBe('She opens the door');
    expect(heard).toEqual(['She opens the door']);
    // Where published extensions look: the input row is the textarea wrapper's parent, a child of InputArea; Send is in the next sibling.
    const row = textarea().parentElement!.parentElement!;
    expect(row.parentElement).toBe(area());
    expect(row.className).toMatch(/_inputRow_/);
    const send = textarea().parentElement!.nextElementSibling!.querySelector('button[aria-label]')!;
    expect(send.querySelector('svg.lucide-send')).not.toBeNull();
    expect(send.getAttribute('aria-label')).toBe('Send message');
    expect(document.querySelector('[data-spindle-mount="chat_toolbar"] button[title="Back to home"]')).not.toBeNull();
    expect(document.querySelector('button[title="Regenerate"]')).not.toBeNull();
    // Saucepan's way in: the mount point above the composer, its box, and the input row to insert before.
    const mount = document.querySelector('[data-spindle-mount="chat_composer_above"]')!;
    expect(mount.closest('[data-component="InputArea"]')).toBe(area());
    expect(mount.closest('[data-component="InputArea"]')!.querySelector('[class*="_inputRow_"]')).toBe(row);
    // An older Saucepan's way: its toolbar inserted beside InputArea, in its parent, lands in the placed column above
    // the box (not loose in the page, where it would draw at the window's top).
    const toolbar = document.createElement('div');
    area()!.parentElement!.insertBefore(toolbar, area());
    expect(toolbar.parentElement).toBe(standIn.placed());
    expect(toolbar.nextElementSibling).toBe(area());
  });

  it("its code's writes reach the box, Send sends what it holds (empty: a fresh reply), and Lumiverse's labels follow", async () => {
    const r = await rig(['generation', 'chat_mutation']);
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const box = withBox(r, 'Guide: a storm rolls in');
    await settled();
    write('');
    const send = () => document.querySelector<HTMLButtonElement>('button._sendBtn_cw1_9')!;
    expect(send().getAttribute('aria-label')).toBe('Nudge for a fresh reply');
    send().click();
    write('I knock twice.');
    expect(send().getAttribute('aria-label')).toBe('Send message');
    send().click();
    // Enter in the box sends too, as Lumiverse's keydown does.
    textarea().dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    document.querySelector<HTMLButtonElement>('button[title="Regenerate"]')!.click();
    document.querySelector<HTMLButtonElement>('button[title="Continue"]')!.click();
    await settled();
    expect(box.calls).toEqual([['draft', ''], ['send', ''], ['draft', 'I knock twice.'], ['send', 'I knock twice.'], ['send', 'I knock twice.'], ['regenerate'], ['continue']]);
    // The app's echo of that draft is not written again (no input event the extension did not cause).
    const heard: string[] = [];
    document.addEventListener('input', () => heard.push('input'), true);
    box.show({ draft: 'I knock twice.', generating: false });
    await settled();
    expect(heard).toEqual([]);
  });

  it('while a reply is written: Stop in place of Send, no Regenerate or Continue; a button cloned from Back to home draws', async () => {
    const r = await rig(['generation']);
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const box = withBox(r, '', true);
    await settled();
    expect(document.querySelector('button[title="Regenerate"]')).toBeNull();
    expect(document.querySelector('button[title="Continue"]')).toBeNull();
    expect(document.querySelector('button[aria-label*="Send"]')).toBeNull();
    document.querySelector<HTMLButtonElement>('[class*="_sendBtnStop_"][aria-label="Stop generation"]')!.click();
    await settled();
    expect(box.calls).toEqual([['stop']]);
    box.show({ draft: '', generating: false });
    await settled();
    expect(document.querySelector('button[title="Regenerate"]')).not.toBeNull();
    // Hone's way: clone Lumiverse's button for its look, make it its own, put it in the action bar.
    const home = document.querySelector<HTMLButtonElement>('button[title="Back to home"]')!;
    const mine = home.cloneNode(true) as HTMLButtonElement;
    mine.title = 'Enhance draft';
    home.parentElement!.append(mine);
    await settled();
    expect(mine.hasAttribute('data-cw-stand-in')).toBe(false);
    expect(home.hasAttribute('data-cw-stand-in')).toBe(true);
  });

  it('an extension without generation hears nothing of the box and has no stand-in; asking the broker directly is refused', async () => {
    const r = await rig(['ui_panels']);
    const heard: unknown[] = [];
    r.channel.on('composer', (notice) => void heard.push(notice));
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const box = withBox(r, 'my private draft');
    await settled();
    expect(heard).toEqual([]);
    expect(area()).toBeNull();
    expect(await r.send({ kind: 'invoke', id: 902, method: 'composer.room', input: { height: 300 } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(await r.send({ kind: 'invoke', id: 901, method: 'composer.act', input: { action: 'send', text: 'x' } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(box.calls).toEqual([]);
  });

  it('generation alone: writes the draft and asks for a reply, but sends no words (chat_mutation); nothing starts while a reply is written', async () => {
    const r = await rig(['generation']);
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const box = withBox(r);
    await settled();
    expect(await r.send({ kind: 'invoke', id: 910, method: 'composer.act', input: { action: 'draft', text: 'Written for you.' } })).toMatchObject({ ok: true });
    expect(await r.send({ kind: 'invoke', id: 911, method: 'composer.act', input: { action: 'send', text: 'Written for you.' } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(await r.send({ kind: 'invoke', id: 912, method: 'composer.act', input: { action: 'send', text: '  ' } })).toMatchObject({ ok: true });
    box.show({ draft: '', generating: true });
    await settled();
    expect(await r.send({ kind: 'invoke', id: 913, method: 'composer.act', input: { action: 'regenerate' } })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await r.send({ kind: 'invoke', id: 914, method: 'composer.act', input: { action: 'stop' } })).toMatchObject({ ok: true });
    expect(box.calls).toEqual([['draft', 'Written for you.'], ['send', '  '], ['stop']]);
  });

  it("an extension that rewrites the draft as it hears it (an input listener) has the Workbench's box follow", async () => {
    const r = await rig(['generation']);
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    // Its listener turns a slash command into text, as command palettes do.
    const expand = (event: Event) => {
      const el = event.target as HTMLTextAreaElement;
      if (el.value === '/me') Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(el, '*waves*');
    };
    document.addEventListener('input', expand, true);
    const box = withBox(r, '/me');
    await settled();
    document.removeEventListener('input', expand, true);
    expect(box.calls).toEqual([['draft', '*waves*']]);
  });

  it('the box hidden (another section): the stand-in goes and acts are refused; a revoke hides it too; replies are capped a minute', async () => {
    const r = await rig(['generation']);
    createComposerStandIn(document, r.channel, (cleanup) => void r.runtime.atTeardown(cleanup));
    const box = withBox(r);
    await settled();
    for (let i = 0; i < MAX_COMPOSER_REPLIES_PER_MINUTE; i++) expect(await r.send({ kind: 'invoke', id: 1000 + i, method: 'composer.act', input: { action: 'regenerate' } })).toMatchObject({ ok: true });
    expect(await r.send({ kind: 'invoke', id: 999, method: 'composer.act', input: { action: 'send', text: '' } })).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    // Drafts and Stop are not replies.
    expect(await r.send({ kind: 'invoke', id: 998, method: 'composer.act', input: { action: 'stop' } })).toMatchObject({ ok: true });
    // A minute on, the frame answering the watchdog's pings as it goes.
    for (let i = 0; i < 12; i++) {
      r.timers.advance(5_000);
      await settled();
    }
    expect(await r.send({ kind: 'invoke', id: 997, method: 'composer.act', input: { action: 'continue' } })).toMatchObject({ ok: true });
    expect(box.calls.length).toBe(MAX_COMPOSER_REPLIES_PER_MINUTE + 2);

    r.store.setState({ composer: null });
    tellComposer([r.broker], () => r.granted, r.store.getState());
    await settled();
    expect(area()).toBeNull();
    expect(await r.send({ kind: 'invoke', id: 996, method: 'composer.act', input: { action: 'draft', text: 'x' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });

    box.show({ draft: 'back', generating: false });
    await settled();
    expect(area()).not.toBeNull();
    tellComposer([r.broker], () => [], r.store.getState());
    await settled();
    expect(area()).toBeNull();
  });
});
