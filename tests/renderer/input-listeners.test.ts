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
});
