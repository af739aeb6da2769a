// @vitest-environment happy-dom
// Where extensions' places appear, as seen with seven published extensions at once: the panel's tabs in the same
// order at every start, float widgets that asked for no place side by side instead of on top of each other,
// and a settings tab on a card as tall as what the extension drew in it.
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { cloneElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardSurfaces } from '../../renderer/src/features/frontends/CardSurfaces';
import { ChatHeaderMounts } from '../../renderer/src/features/frontends/BarMountFrames';
import { watchDrawer } from '../../renderer/src/features/frontends/drawer-news';
import { ExtensionDrawer } from '../../renderer/src/features/frontends/ExtensionDrawer';
import { FloatWidgets } from '../../renderer/src/features/frontends/FloatWidgets';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { createFrontendsStore, frontendsActions, surfaceKey, type FrontendsStore } from '../../renderer/src/features/frontends/frontends-store';
import type { FrameBroker } from '../../renderer/src/features/frontends/frame-broker';
import type { ReactElement } from 'react';

// The frames as the app makes them, without their address: happy-dom loads no frame page (and complains at
// each one); the frames' own pages run in Chromium (e2e).
vi.mock('../../renderer/src/features/frontends/SurfaceFrame', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../renderer/src/features/frontends/SurfaceFrame')>();
  return { ...actual, SurfaceFrame: (props: Parameters<typeof actual.SurfaceFrame>[0]) => cloneElement(actual.SurfaceFrame(props), { src: undefined, srcDoc: '' }) };
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.replaceChildren();
  localStorage.clear();
});

function show(store: FrontendsStore, ui: ReactElement, brokers = new Map<string, FrameBroker>()): HTMLElement {
  const container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  act(() => root!.render(<FrontendsProvider value={{ store, brokers }}>{ui}</FrontendsProvider>));
  return container;
}

describe('places of several extensions at once', () => {
  it("a mount in Lumiverse's drawer header is no tab: it shows in the panel's bar once it draws", () => {
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'cubby', 'drawer-1', 'drawer', { title: 'Cubby' });
    frontendsActions.openSurface(store, 'cubby', 'mount-2', 'mount', { point: 'drawer_header_actions' });
    const ui = show(store, <ExtensionDrawer />);
    expect([...ui.querySelectorAll('[role="tab"]')].map((t) => t.textContent)).toEqual(['Cubby']);
    const header = () => ui.querySelector<HTMLIFrameElement>('iframe[data-surface-id="mount-2"]')!;
    expect(header().getAttribute('aria-hidden')).toBe('true');
    act(() => frontendsActions.setContentHeight(store, surfaceKey('cubby', 'mount-2'), 28));
    expect(header().getAttribute('aria-hidden')).toBeNull();
    expect(header().style.height).toBe('28px');
  });


  it("a mount in Lumiverse's chat header (Cue's launcher) is no tab: it shows in the chat's title bar once it draws", () => {
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'cue', 'drawer-1', 'drawer', { title: 'Cue' });
    for (const point of ['chat_header_left', 'chat_header_right']) frontendsActions.openSurface(store, 'cue', `mount-${point}`, 'mount', { point });
    const drawer = show(store, <ExtensionDrawer />);
    expect([...drawer.querySelectorAll('[role="tab"]')].map((t) => t.textContent)).toEqual(['Cue']);
    expect(drawer.querySelector('iframe[data-surface-id^="mount-"]')).toBeNull();
    act(() => root?.unmount());
    const bar = show(store, <><ChatHeaderMounts side="left" /><hr /><ChatHeaderMounts side="right" /></>);
    const launcher = () => bar.querySelector<HTMLIFrameElement>('iframe[data-surface-id="mount-chat_header_right"]')!;
    // The left one before the title (the rule stands for it), the right one with the bar's buttons.
    expect([...bar.querySelectorAll('iframe, hr')].map((el) => el.getAttribute('data-surface-id') ?? 'title')).toEqual(['mount-chat_header_left', 'title', 'mount-chat_header_right']);
    expect(launcher().getAttribute('aria-hidden')).toBe('true');
    act(() => frontendsActions.setContentHeight(store, surfaceKey('cue', 'mount-chat_header_right'), 30));
    expect(launcher().getAttribute('aria-hidden')).toBeNull();
    expect(launcher().style.height).toBe('30px');
  });

  it('the panel lists its tabs by extension, whichever frontend finished first, and shows the first', () => {
    for (const order of [['summary_plus', 'lumi_timeline', 'novelist'], ['novelist', 'summary_plus', 'lumi_timeline']]) {
      const store = createFrontendsStore();
      for (const id of order) frontendsActions.openSurface(store, id, 'tab', 'drawer', { title: id });
      store.setState({ drawerOpen: true });
      const container = show(store, <ExtensionDrawer />);
      const tabs = [...container.querySelectorAll('[role="tab"]')].map((tab) => tab.getAttribute('data-extension-id'));
      expect(tabs).toEqual(['lumi_timeline', 'novelist', 'summary_plus']);
      expect(container.querySelector('[role="tab"][aria-selected="true"]')?.getAttribute('data-extension-id')).toBe('lumi_timeline');
      act(() => root!.unmount());
      root = null;
    }
  });

  it('once every frontend has placed its tabs, the one shown stays shown when an extension whose id sorts first arrives', () => {
    const store = createFrontendsStore();
    const heard: Array<[string, unknown]> = [];
    const broker = (id: string) => {
      const notify = (_topic: string, data: unknown) => void heard.push([id, data]);
      return { notify, notifyChanged: notify } as unknown as FrameBroker;
    };
    const brokers = new Map([['novelist', broker('novelist')], ['summary_plus', broker('summary_plus')]]);
    const drawer = watchDrawer(store, brokers, () => true);
    for (const id of ['summary_plus', 'novelist']) frontendsActions.openSurface(store, id, 'tab', 'drawer', { title: id });
    store.setState({ drawerOpen: true, ready: { novelist: true, summary_plus: true } });
    expect(store.getState().activeTab).toBe(surfaceKey('novelist', 'tab'));
    brokers.set('aardvark', broker('aardvark'));
    frontendsActions.openSurface(store, 'aardvark', 'tab', 'drawer', { title: 'aardvark' });
    store.setState({ ready: { ...store.getState().ready, aardvark: true } });
    expect(store.getState().activeTab).toBe(surfaceKey('novelist', 'tab'));
    expect(heard.filter(([id]) => id === 'aardvark').every(([, data]) => (data as { surfaceId: string | null }).surfaceId === null)).toBe(true);
    drawer.stop();
  });

  it('float widgets that name no place start side by side at the bottom right; one that names its place keeps it', () => {
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'spotify', 'w', 'float', { width: 48, height: 64, tooltip: 'Spotify' });
    frontendsActions.openSurface(store, 'subsonic', 'w', 'float', { width: 48, height: 64, tooltip: 'Subsonic' });
    frontendsActions.openSurface(store, 'weather', 'w', 'float', { width: 200, height: 80, initialPosition: { x: 40, y: 30 } });
    const container = show(store, <FloatWidgets />);
    const lefts = [...container.querySelectorAll<HTMLElement>('[data-testid="float-widget"]')].map((w) => [w.dataset.extensionId, parseFloat(w.style.left), parseFloat(w.style.top)]);
    const [spotify, subsonic, weather] = lefts;
    expect(spotify![1]).toBeGreaterThan(subsonic![1] as number);
    expect((spotify![1] as number) - (subsonic![1] as number)).toBeGreaterThanOrEqual(48);
    expect(spotify![2]).toBe(subsonic![2]);
    expect(weather).toEqual(['weather', 40, 30]);
  });

  it('a widget that comes after the person moved one starts beside the ones still there, not on top of them', () => {
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'spotify', 'w', 'float', { width: 48, height: 64, tooltip: 'Spotify' });
    frontendsActions.openSurface(store, 'subsonic', 'w', 'float', { width: 48, height: 64, tooltip: 'Subsonic' });
    const container = show(store, <FloatWidgets />);
    const boxes = () =>
      new Map([...container.querySelectorAll<HTMLElement>('[data-testid="float-widget"]')].map((w) => [w.dataset.extensionId!, { x: parseFloat(w.style.left), y: parseFloat(w.style.top), width: parseFloat(w.style.width) }]));
    // The person drags Spotify's widget to the top left (as settle() does: the store and the remembered place).
    act(() => frontendsActions.updateSurface(store, surfaceKey('spotify', 'w'), { position: { x: 20, y: 20 } }));
    localStorage.setItem('cw.float.spotify.Spotify', JSON.stringify({ x: 20, y: 20 }));
    act(() => frontendsActions.openSurface(store, 'weather', 'w', 'float', { width: 48, height: 64, tooltip: 'Weather' }));
    const subsonic = boxes().get('subsonic')!;
    const weather = boxes().get('weather')!;
    expect(weather.y).toBe(subsonic.y);
    expect(Math.abs(weather.x - subsonic.x)).toBeGreaterThanOrEqual(48);
  });

  it("an extension's moveTo onto the app's navigation lands beside it, and the extension hears where; the person's own place stays", () => {
    // The navigation down the left side (happy-dom lays nothing out: its box is given).
    const nav = Object.assign(document.createElement('nav'), { className: 'nav' });
    nav.getBoundingClientRect = () => ({ left: 0, top: 0, right: 200, bottom: 768, width: 200, height: 768, x: 0, y: 0, toJSON: () => ({}) });
    document.body.appendChild(nav);
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'weather', 'w', 'float', { width: 120, height: 80, tooltip: 'Weather', initialPosition: { x: 400, y: 300 } });
    const told: unknown[] = [];
    const broker = { notify: (_kind: string, detail: { what: string; position: unknown }) => void told.push(detail.position) } as unknown as FrameBroker;
    const container = show(store, <FloatWidgets />, new Map([['weather', broker]]));
    const widget = () => container.querySelector<HTMLElement>('[data-testid="float-widget"]')!;
    expect([parseFloat(widget().style.left), parseFloat(widget().style.top)]).toEqual([400, 300]);
    // Its moveTo reaches the app as a surface update.
    act(() => frontendsActions.updateSurface(store, surfaceKey('weather', 'w'), { position: { x: 20, y: 100 } }));
    const left = parseFloat(widget().style.left);
    expect(left).toBeGreaterThanOrEqual(200);
    expect(parseFloat(widget().style.top)).toBe(100);
    expect(store.getState().surfaces[0]!.position).toEqual({ x: left, y: 100 });
    expect(told.at(-1)).toEqual({ x: left, y: 100 });
    // The person drags it onto the navigation (settle() remembers the place first): it stays.
    localStorage.setItem('cw.float.weather.Weather', JSON.stringify({ x: 20, y: 100 }));
    act(() => frontendsActions.updateSurface(store, surfaceKey('weather', 'w'), { position: { x: 20, y: 100 } }));
    expect([parseFloat(widget().style.left), parseFloat(widget().style.top)]).toEqual([20, 100]);
  });

  it('a settings tab on a card is as tall as its content once its frame says how tall that is', () => {
    const store = createFrontendsStore();
    frontendsActions.openSurface(store, 'subsonic', 'settings-1', 'settings', { title: 'Subsonic' });
    const container = show(store, <CardSurfaces extensionId="subsonic" />);
    const frame = () => container.querySelector<HTMLIFrameElement>('iframe[data-surface-id="settings-1"]')!;
    expect(frame().style.height).toBe('');
    act(() => frontendsActions.setContentHeight(store, surfaceKey('subsonic', 'settings-1'), 479));
    expect(frame().style.height).toBe('481px');
    // Past what a card holds, the frame scrolls.
    act(() => frontendsActions.setContentHeight(store, surfaceKey('subsonic', 'settings-1'), 5000));
    expect(frame().style.height).toBe('900px');
  });
});
