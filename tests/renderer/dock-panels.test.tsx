// @vitest-environment happy-dom
// A dock panel an extension asked resizable (SceneMap's map beside the chat): a handle on its inner edge, dragged or
// moved with the arrow keys, within the panel's minSize and maxSize; one not asked resizable has none.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostConnection } from '../../renderer/src/api/connection';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { DockPanels } from '../../renderer/src/features/frontends/DockPanels';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { createFrontendsStore, frontendsActions } from '../../renderer/src/features/frontends/frontends-store';

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((done) => done()));

function draw(edge: 'right' | 'bottom', resizable: boolean) {
  const store = createFrontendsStore();
  frontendsActions.openSurface(store, 'scenemap', 'dock-1', 'dock', { edge, title: 'Scene map', size: 300, minSize: 200, maxSize: 500, resizable });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const host = { invoke: async () => ({ ok: true, value: {} }), onEvent: () => () => undefined } as unknown as HostConnection;
  act(() =>
    root.render(
      <AppProviders host={host} store={createAppStore()}>
        <FrontendsProvider value={{ store, brokers: new Map() }}>
          <DockPanels />
        </FrontendsProvider>
      </AppProviders>,
    ),
  );
  roots.push(() => {
    act(() => root.unmount());
    container.remove();
  });
  const panel = container.querySelector<HTMLElement>('[data-testid="dock-panel"]')!;
  return { panel, handle: panel.querySelector<HTMLElement>('[data-testid="dock-resize"]') };
}

const pointer = (el: HTMLElement, type: string, at: { clientX?: number; clientY?: number }) =>
  act(() => void el.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 1, ...at })));
const key = (el: HTMLElement, k: string, shiftKey = false) => act(() => void el.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true })));

describe('a resizable dock panel', () => {
  it('on the right edge grows as its handle is dragged left, stops at maxSize and minSize, and follows the arrow keys', () => {
    const { panel, handle } = draw('right', true);
    expect(panel.style.width).toBe('300px');
    expect(handle!.getAttribute('role')).toBe('separator');
    pointer(handle!, 'pointerdown', { clientX: 1000 });
    pointer(handle!, 'pointermove', { clientX: 900 });
    expect(panel.style.width).toBe('400px');
    pointer(handle!, 'pointermove', { clientX: 500 });
    expect(panel.style.width).toBe('500px');
    pointer(handle!, 'pointermove', { clientX: 1300 });
    expect(panel.style.width).toBe('200px');
    pointer(handle!, 'pointercancel', { clientX: 1300 });
    // Taken away (cancelled): moving the pointer changes nothing, as after a release.
    pointer(handle!, 'pointermove', { clientX: 900 });
    expect(panel.style.width).toBe('200px');
    pointer(handle!, 'pointerdown', { clientX: 1300 });
    pointer(handle!, 'pointerup', { clientX: 1300 });
    // Released: moving the pointer changes nothing.
    pointer(handle!, 'pointermove', { clientX: 900 });
    expect(panel.style.width).toBe('200px');
    key(handle!, 'ArrowLeft');
    expect(panel.style.width).toBe('216px');
    key(handle!, 'ArrowLeft', true);
    expect(panel.style.width).toBe('280px');
    key(handle!, 'ArrowRight');
    expect(panel.style.width).toBe('264px');
    expect(handle!.getAttribute('aria-valuenow')).toBe('264');
  });

  it('on the bottom edge grows as its handle is dragged up; without resizable it has no handle', () => {
    const { panel, handle } = draw('bottom', true);
    pointer(handle!, 'pointerdown', { clientY: 800 });
    pointer(handle!, 'pointermove', { clientY: 750 });
    expect(panel.style.height).toBe('350px');
    expect(draw('right', false).handle).toBeNull();
  });
});
