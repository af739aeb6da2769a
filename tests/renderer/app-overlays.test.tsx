// @vitest-environment happy-dom
// An extension's app mounted over the whole app (mountApp({ position: 'app-overlay' }), Megumin Suite's studio): no
// drawer tab; over the app while the extension makes it visible; the app's Close and Escape hide it.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostConnection } from '../../renderer/src/api/connection';
import { AppProviders } from '../../renderer/src/app/context';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { AppOverlays } from '../../renderer/src/features/frontends/AppOverlays';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { drawerTabs } from '../../renderer/src/features/frontends/frontends-store';
import { ID, rig, settled } from './frame-rig';

const roots: Array<() => void> = [];
afterEach(() => roots.splice(0).forEach((done) => done()));

describe("an extension's app over the whole app", () => {
  it('is no drawer tab, shows while visible, and the Close button or Escape hides it', async () => {
    const r = await rig(['tools', 'app_manipulation']);
    const app = r.ctx.ui.mountApp({ className: 'megumin-suite-app', position: 'app-overlay' });
    app.setVisible(false);
    // A side panel (SimTracker's mountApp({ position: 'end' })) is no tab either: it sits in its page's body, placed by its CSS.
    const side = r.ctx.ui.mountApp({ className: 'side', position: 'end' });
    await settled();
    expect(r.store.getState().surfaces.find((s) => s.kind === 'app' && s.options.overlay)).toBeDefined();
    expect(drawerTabs(r.store.getState().surfaces)).toHaveLength(0);
    expect(side.root.closest('[data-spindle-mount-id]')?.parentElement).toBe(document.body);
    side.destroy();

    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    const host = { invoke: async () => ({ ok: true, value: {} }), onEvent: () => () => undefined } as unknown as HostConnection;
    act(() =>
      root.render(
        <AppProviders host={host} store={createAppStore()}>
          <FrontendsProvider value={{ store: r.store, brokers: new Map([[ID, r.broker]]) }}>
            <AppOverlays />
          </FrontendsProvider>
        </AppProviders>,
      ),
    );
    roots.push(() => {
      act(() => root.unmount());
      container.remove();
    });
    expect(container.querySelector('[data-testid="extension-overlay"]')).toBeNull();
    app.setVisible(true);
    await act(async () => settled());
    const overlay = container.querySelector<HTMLElement>('[data-testid="extension-overlay"]')!;
    expect(overlay.querySelector('iframe')).not.toBeNull();
    const close = overlay.querySelector('button')!;
    expect(document.activeElement).toBe(close);
    act(() => close.click());
    expect(container.querySelector('[data-testid="extension-overlay"]')).toBeNull();
    expect(r.store.getState().surfaces.find((s) => s.options.overlay)!.visible).toBe(false);

    app.setVisible(true);
    await act(async () => settled());
    act(() => void container.querySelector('[data-testid="extension-overlay"]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(container.querySelector('[data-testid="extension-overlay"]')).toBeNull();
  });
});
