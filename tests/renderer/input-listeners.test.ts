// @vitest-environment happy-dom
// An extension's input listeners on its runtime page's document and window hear its surfaces (each a document of its
// own), as on Lumiverse's one page; other listeners stay the page's own, and a removed one is gone everywhere.
import { Window as HappyWindow } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { InputListeners } from '../../renderer/frame/input-listeners';

function surface(): { win: Window; button: HTMLButtonElement } {
  const win = new HappyWindow() as unknown as Window;
  const button = win.document.createElement('button');
  button.id = 'inside';
  win.document.body.appendChild(button);
  return { win, button };
}

describe('input listeners shared with surfaces', () => {
  it('a click bubbling to the document and a key on the window reach the runtime page’s listeners, target and all; a removed one hears nothing more', () => {
    const input = new InputListeners();
    // Added before install: the page's own, never shared (ours, set up before the extension's code runs).
    const ours: string[] = [];
    document.addEventListener('click', () => ours.push('click'));
    input.install(window);
    const first = surface();
    input.attach(first.win);
    const heard: string[] = [];
    const onClick = (event: Event) => heard.push(`click on ${(event.target as Element).id}`);
    const onKey = (event: Event) => heard.push(`key ${(event as KeyboardEvent).key}`);
    const onResize = () => heard.push('resize');
    document.addEventListener('click', onClick);
    window.addEventListener('keydown', onKey);
    window.addEventListener('resize', onResize);
    first.button.click();
    first.button.dispatchEvent(new (first.win as unknown as typeof globalThis).KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    // Not input: a surface's resize is its own.
    first.win.dispatchEvent(new (first.win as unknown as typeof globalThis).Event('resize'));
    expect(heard).toEqual(['click on inside', 'key Escape']);
    expect(ours).toEqual([]);
    // A surface that attaches later hears the listeners kept.
    const second = surface();
    input.attach(second.win);
    second.button.click();
    expect(heard.at(-1)).toBe('click on inside');
    expect(heard).toHaveLength(3);
    // Removed with another capture flag: still there; removed as added: gone from every surface.
    document.removeEventListener('click', onClick, true);
    first.button.click();
    expect(heard).toHaveLength(4);
    document.removeEventListener('click', onClick);
    first.button.click();
    second.button.click();
    expect(heard).toHaveLength(4);
    // A detached surface is given nothing more.
    input.detach(second.win);
    document.addEventListener('click', onClick);
    second.button.click();
    first.button.click();
    expect(heard.slice(4)).toEqual(['click on inside']);
  });

  it('a once listener is heard once in all, added twice it is there once, and one ended by its signal is gone from surfaces to come', () => {
    const input = new InputListeners();
    input.install(window);
    const first = surface();
    input.attach(first.win);
    const heard: string[] = [];
    document.addEventListener('click', () => heard.push('once'), { once: true });
    first.button.click();
    document.body.click();
    const later = surface();
    input.attach(later.win);
    later.button.click();
    expect(heard).toEqual(['once']);
    // A once listener added again before it fired stays once, and is not doubled on the page itself.
    const onceMore = () => heard.push('once more');
    document.addEventListener('click', onceMore, { once: true });
    document.addEventListener('click', onceMore);
    document.body.click();
    document.body.click();
    expect(heard).toEqual(['once', 'once more']);

    // Added twice (the platform keeps one), removed once: gone, and a surface attached after does not bring it back.
    const twice = () => heard.push('twice');
    document.addEventListener('click', twice);
    document.addEventListener('click', twice);
    first.button.click();
    expect(heard).toEqual(['once', 'once more', 'twice']);
    document.removeEventListener('click', twice);
    const third = surface();
    input.attach(third.win);
    first.button.click();
    third.button.click();
    expect(heard).toEqual(['once', 'once more', 'twice']);

    // Ended by its signal: heard nowhere, and not given to a surface attached after.
    const ended = new AbortController();
    document.addEventListener('click', () => heard.push('signalled'), { signal: ended.signal });
    first.button.click();
    ended.abort();
    first.button.click();
    const fourth = surface();
    input.attach(fourth.win);
    fourth.button.click();
    expect(heard).toEqual(['once', 'once more', 'twice', 'signalled']);
  });
});
