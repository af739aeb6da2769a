// @vitest-environment happy-dom
// The chat's stick-to-bottom, on a scroll area whose sizes the test sets (happy-dom lays nothing out) and a
// ResizeObserver the test fires: growth below follows the bottom; a person who scrolled up, even by a little, is
// left where they are until they scroll back down; a turn they start goes to the bottom.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useStickToBottom } from '../../renderer/src/features/workbench/chat-scroll';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let resized: () => void = () => undefined;
class ManualResizeObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {}
}

/** A main area 500 px tall whose content is `height` px (scrollTop clamped as a browser does). */
function scrollArea(main: HTMLElement) {
  let height = 2000;
  let top = 0;
  Object.defineProperty(main, 'clientHeight', { get: () => 500 });
  Object.defineProperty(main, 'scrollHeight', { get: () => height });
  Object.defineProperty(main, 'scrollTop', { get: () => top, set: (v: number) => void (top = Math.max(0, Math.min(v, height - 500))) });
  return {
    grow(by: number) {
      height += by;
      resized();
    },
    fromEnd: () => height - top - 500,
    scrollBy(dy: number) {
      main.scrollTop = top + dy;
      main.dispatchEvent(new Event('scroll'));
    },
  };
}

function Chat(props: { turnId?: string }) {
  const chat = document.getElementById('chat');
  useStickToBottom(chat, props.turnId);
  return null;
}

describe('stick to bottom', () => {
  let host: HTMLElement;
  beforeEach(() => {
    (globalThis as { ResizeObserver?: unknown }).ResizeObserver = ManualResizeObserver;
    document.body.replaceChildren();
    const main = Object.assign(document.createElement('main'), { id: 'main' });
    const chat = Object.assign(document.createElement('div'), { id: 'chat' });
    chat.dataset.firstMessage = 'm0';
    main.append(chat);
    host = Object.assign(document.createElement('div'), { id: 'root' });
    document.body.append(main, host);
  });
  afterEach(() => {
    delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  });

  it('follows growth at the bottom, stays where a person scrolled up to (even 40 px), and goes to the bottom for a new turn', async () => {
    const main = document.getElementById('main')!;
    const area = scrollArea(main);
    const root = createRoot(host);
    await act(async () => root.render(<Chat />));
    expect(area.fromEnd()).toBe(0);
    area.grow(300);
    expect(area.fromEnd()).toBe(0);

    // A wheel up by 40 px: within reach of the end, but the person left it.
    main.dispatchEvent(new WheelEvent('wheel', { deltaY: -40 }));
    area.scrollBy(-40);
    area.grow(300);
    expect(area.fromEnd()).toBe(340);
    // Back at the bottom, it follows again.
    area.scrollBy(1000);
    area.grow(300);
    expect(area.fromEnd()).toBe(0);

    // Keys up in the chat (not in the message box) leave it too.
    main.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageUp', bubbles: true }));
    area.scrollBy(-30);
    area.grow(100);
    expect(area.fromEnd()).toBe(130);
    // A turn the person starts goes to the bottom and holds there.
    await act(async () => root.render(<Chat turnId="t1" />));
    expect(area.fromEnd()).toBe(0);
    area.grow(200);
    expect(area.fromEnd()).toBe(0);
    await act(async () => root.unmount());
  });

  it('growth above (an older page put before the first message) is not the bottom', async () => {
    const main = document.getElementById('main')!;
    const area = scrollArea(main);
    const root = createRoot(host);
    await act(async () => root.render(<Chat />));
    area.scrollBy(-60);
    document.getElementById('chat')!.dataset.firstMessage = 'older';
    area.grow(3000);
    expect(area.fromEnd()).toBe(3060);
    await act(async () => root.unmount());
  });
});
