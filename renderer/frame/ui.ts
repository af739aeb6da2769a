// ctx.ui: the places an extension draws into (drawer tabs, float widgets, dock panels, modals, app mounts,
// settings tabs, mount points; the editors' tabs are editors.ts's) and the host-drawn ones (input bar actions,
// confirms, context menus), with the handles Lumiverse returns. Each place is a frame of the extension's own origin the app puts
// where the Workbench shows it; what has no place here says so (UNSUPPORTED_HERE, logged once).
import { drawerTabId } from '../../shared/frames/host-state';
import { frameError } from './channel';
import { createEditors } from './editors';
import type { RuntimeState } from './runtime-state';
import { clip, openSurface, surfaceOptions } from './surface-open';

type Options = Record<string, unknown>;

function drawerTab(state: RuntimeState, options: Options, tabIds: Map<string, string>) {
  const name = String(options?.id ?? 'tab').slice(0, 60);
  const taken = [...tabIds.values()].includes(drawerTabId(state.extensionId, name));
  let tabId = '';
  const s = openSurface(state, 'drawer', (surfaceId) => surfaceOptions(options, { tabId: (tabId = drawerTabId(state.extensionId, name, taken ? surfaceId : undefined)) }));
  tabIds.set(s.surfaceId, tabId);
  // Its id is free again once it is gone (teardown closes it too).
  state.atTeardown(() => tabIds.delete(s.surfaceId));
  return {
    root: s.root,
    tabId,
    setTitle: (title: string) => s.update({ title: clip('title', title) }),
    setShortName: (shortName: string) => s.update({ shortName: clip('shortName', shortName) }),
    setBadge: (text: string | null) => s.update({ badge: text === null ? null : clip('badge', text) }),
    activate: () => state.channel.send('surface.activate', { surfaceId: s.surfaceId }),
    destroy() {
      s.close();
      tabIds.delete(s.surfaceId);
    },
    onActivate: (handler: () => void) => s.on('activate', () => handler()),
  };
}

function floatWidget(state: RuntimeState, options: Options = {}) {
  state.require('ui_panels', 'ctx.ui.createFloatWidget');
  const width = typeof options.width === 'number' ? options.width : 48;
  const height = typeof options.height === 'number' ? options.height : 48;
  const s = openSurface(state, 'float', surfaceOptions(options, { width, height }));
  if (options.chromeless === true) state.drawnWanted.add(s.surfaceId);
  // Until the app says where it put it: where it asked, else Lumiverse's default, the bottom right.
  let position = (options.initialPosition as { x: number; y: number } | undefined) ?? { x: Math.max(0, innerWidth - width - 16), y: Math.max(0, innerHeight - height - 16) };
  let visible = true;
  let fullscreen = options.fullscreen === true;
  const placed = (notice: { position?: { x: number; y: number } }) => void (notice.position && (position = notice.position));
  s.on('dragEnd', placed);
  s.on('position', placed);
  return {
    root: s.root,
    widgetId: s.surfaceId,
    moveTo(x: number, y: number) {
      position = { x, y };
      s.update({ position });
    },
    getPosition: () => ({ ...position }),
    setSize: (w: number, h: number) => s.update({ size: { width: w, height: h } }),
    setVisible(v: boolean) {
      visible = v;
      s.update({ visible: v });
    },
    isVisible: () => visible,
    setFullscreen(v: boolean) {
      fullscreen = v;
      s.update({ fullscreen: v });
    },
    isFullscreen: () => fullscreen,
    destroy: s.close,
    onDragEnd: (handler: (pos: { x: number; y: number }) => void) => s.on('dragEnd', (notice) => notice.position && handler(notice.position)),
  };
}

function dockPanel(state: RuntimeState, options: Options) {
  state.require('ui_panels', 'ctx.ui.requestDockPanel');
  const s = openSurface(state, 'dock', surfaceOptions(options));
  let collapsed = options?.startCollapsed === true;
  const set = (value: boolean) => {
    collapsed = value;
    s.update({ collapsed: value });
  };
  s.on('visibility', (notice) => void (collapsed = notice.visible === false));
  return {
    root: s.root,
    panelId: s.surfaceId,
    collapse: () => set(true),
    expand: () => set(false),
    isCollapsed: () => collapsed,
    setTitle: (title: string) => s.update({ title: String(title) }),
    destroy: s.close,
    onVisibilityChange: (handler: (visible: boolean) => void) => s.on('visibility', (notice) => handler(notice.visible !== false)),
  };
}

const MAX_OPEN_MODALS = 2;

/**
 * ui.events' drawer and viewport: the app says whether its extensions panel shows and which of this
 * extension's tabs it shows; a tab becoming the shown one fires its onActivate, as a click on it does in
 * Lumiverse (here the first tab is shown without a click). The runtime frame is as large as the app's
 * window, so its size is the viewport's.
 */
function layoutEvents(state: RuntimeState) {
  let drawer = { open: false, surfaceId: null as string | null, tabId: null as string | null };
  const drawerHandlers = new Set<(s: { open: boolean; tabId: string | null }) => void>();
  const drawerState = () => ({ open: drawer.open, tabId: drawer.tabId });
  state.channel.on('drawer', (next) => {
    const before = drawer;
    drawer = next;
    if (next.surfaceId && next.surfaceId !== before.surfaceId) state.emitSurface({ surfaceId: next.surfaceId, what: 'activate' });
    if (next.open !== before.open || next.tabId !== before.tabId) for (const handler of drawerHandlers) handler(drawerState());
  });
  const keyboardState = () => ({ visible: false, insetBottom: 0, viewportWidth: innerWidth, viewportHeight: innerHeight });
  const subscribe = <T>(set: Set<(s: T) => void>, handler: (s: T) => void) => {
    set.add(handler);
    const off = () => void set.delete(handler);
    state.atTeardown(off);
    return off;
  };
  return {
    getKeyboardState: keyboardState,
    onKeyboardChange(handler: (s: ReturnType<typeof keyboardState>) => void) {
      const listener = () => handler(keyboardState());
      addEventListener('resize', listener);
      const off = () => removeEventListener('resize', listener);
      state.atTeardown(off);
      return off;
    },
    getDrawerState: drawerState,
    onDrawerChange: (handler: (s: ReturnType<typeof drawerState>) => void) => subscribe(drawerHandlers, handler),
  };
}

/**
 * mountApp at the start or end of the page's body, as Lumiverse places it, for the extension's own CSS to position (a
 * SimTracker side panel is `position: fixed`): here that body is the runtime page's, which the app shows where it draws.
 */
function bodyMount(extensionId: string, mountId: string, options: Options) {
  const container = document.createElement('div');
  const root = document.createElement('div');
  for (const el of [container, root]) {
    el.setAttribute('data-spindle-app-mount', extensionId);
    if (typeof options.className === 'string') el.className = options.className;
  }
  container.setAttribute('data-spindle-mount-id', mountId);
  root.setAttribute('data-spindle-extension-root', extensionId);
  container.append(root);
  if (options.position === 'start') document.body.prepend(container);
  else document.body.append(container);
  return { root, mountId, setVisible: (visible: boolean) => void (container.style.display = visible ? '' : 'none'), destroy: () => container.remove() };
}

export function createUi(state: RuntimeState) {
  let openModals = 0;
  const mounts = new Map<string, HTMLElement>();
  const tabIds = new Map<string, string>();
  const editors = createEditors(state);
  return {
    events: {
      ...layoutEvents(state),
      getSettingsState: () => ({ open: false, view: '' }),
      onSettingsChange: () => () => undefined,
      bindActionHandlers(target: string | Element, handlers: Record<string, (detail: unknown) => void>, options: { attribute?: string; events?: string[] } = {}) {
        const attribute = options.attribute ?? 'data-spindle-action';
        const roots = typeof target === 'string' ? state.docs.queryAll(target) : [target];
        const listener = (event: Event) => {
          const element = (event.target as Element | null)?.closest?.(`[${attribute}]`) as HTMLElement | null;
          const actionId = element?.getAttribute(attribute);
          const root = roots.find((r) => r.contains(element));
          if (element && actionId && handlers[actionId] && root) handlers[actionId]({ actionId, eventType: event.type, element, root, originalEvent: event });
        };
        const types = options.events ?? ['click'];
        for (const root of roots) for (const type of types) root.addEventListener(type, listener);
        return () => roots.forEach((root) => types.forEach((type) => root.removeEventListener(type, listener)));
      },
    },
    mount(point: string): Element {
      const known = mounts.get(point);
      if (known) return known;
      const root = openSurface(state, 'mount', { point: String(point).slice(0, 80) }).root;
      mounts.set(point, root);
      return root;
    },
    registerDrawerTab: (options: Options) => drawerTab(state, options, tabIds),
    ...editors,
    createFloatWidget: (options?: Options) => floatWidget(state, options),
    requestDockPanel: (options: Options) => dockPanel(state, options),
    mountApp(options: Options = {}) {
      state.require('app_manipulation', 'ctx.ui.mountApp');
      if (options.position === 'app-overlay') {
        const s = openSurface(state, 'app', surfaceOptions(options, { overlay: true }));
        if (typeof options.className === 'string') s.root.className = options.className;
        return { root: s.root, mountId: s.surfaceId, setVisible: (visible: boolean) => s.update({ visible }), destroy: s.close };
      }
      return bodyMount(state.extensionId, state.nextId('app'), options);
    },
    registerInputBarAction(options: Options) {
      const actionId = `${String(options?.id ?? 'action').slice(0, 60)}-${state.nextId('a')}`;
      let current = {
        actionId,
        label: clip('label', options?.label ?? ''),
        ...(typeof options?.subtitle === 'string' ? { subtitle: clip('subtitle', options.subtitle) } : {}),
        ...(typeof options?.iconSvg === 'string' ? { iconSvg: clip('iconSvg', options.iconSvg) } : {}),
        enabled: options?.enabled !== false,
      };
      const handlers = new Set<() => void>();
      const off = state.channel.on('inputAction', (notice) => {
        if (notice.actionId === actionId) for (const handler of handlers) handler();
      });
      const push = (patch: Partial<typeof current>) => {
        current = { ...current, ...patch };
        state.channel.send('inputAction.set', current);
      };
      push({});
      const destroy = () => {
        off();
        undo();
        state.channel.send('inputAction.remove', { actionId });
      };
      const undo = state.atTeardown(destroy);
      return {
        actionId,
        setLabel: (label: string) => push({ label: clip('label', label) }),
        setSubtitle: (subtitle?: string) => push(subtitle === undefined ? {} : { subtitle: clip('subtitle', subtitle) }),
        setEnabled: (enabled: boolean) => push({ enabled: enabled !== false }),
        onClick(handler: () => void) {
          handlers.add(handler);
          return () => handlers.delete(handler);
        },
        destroy,
      };
    },
    showContextMenu: (options: Options) => state.channel.request('dialog.contextMenu', options as never),
    showModal(options: Options) {
      if (openModals >= MAX_OPEN_MODALS) throw frameError('INVALID_INPUT', `An extension may show at most ${MAX_OPEN_MODALS} modals at once.`);
      openModals++;
      const s = openSurface(state, 'modal', surfaceOptions(options));
      const dismissHandlers = new Set<() => void>();
      const finish = () => {
        if (s.isClosed()) return;
        openModals--;
        s.close();
        for (const handler of dismissHandlers) handler();
      };
      s.on('dismiss', finish);
      return {
        root: s.root,
        modalId: s.surfaceId,
        dismiss: finish,
        setTitle: (title: string) => s.update({ title: String(title) }),
        onDismiss(handler: () => void) {
          dismissHandlers.add(handler);
          return () => dismissHandlers.delete(handler);
        },
      };
    },
    showConfirm: (options: Options) => state.channel.request('dialog.confirm', options as never),
    requestTabLocation: () => state.inert('ui.requestTabLocation'),
    getTabLocation: () => ({ kind: 'main-drawer' }),
    getBuiltInTabTitle: () => void state.inert('ui.getBuiltInTabTitle'),
    getBuiltInTabRoot: () => void state.inert('ui.getBuiltInTabRoot'),
    registerSettingsTab(options: Options & { render?: (root: HTMLElement) => void | (() => void) }) {
      const s = openSurface(state, 'settings', surfaceOptions(options));
      const rendered = options.render?.(s.root);
      if (typeof rendered === 'function') state.atTeardown(rendered);
      return { id: String(options.id ?? s.surfaceId), root: s.root, update: (next: Options = {}) => s.update({ ...(typeof next.title === 'string' ? { title: next.title } : {}) }), destroy: s.close };
    },
    geometry: {
      getUiScale: () => 1,
      toLayoutPx: (value: number) => value,
      layoutViewportSize: () => ({ width: innerWidth, height: innerHeight }),
      layoutElementRect: (element: Element) => element.getBoundingClientRect(),
      /** Its size as it changes: a listener (0.6.20's types) or `{ onChange }` (the v2 host); the handle is a dispose function with destroy(). */
      createResizeController(element: Element, listener: ((rect: DOMRect) => void) | { onChange?: (rect: DOMRect) => void }) {
        const onChange = typeof listener === 'function' ? listener : listener?.onChange;
        const observer = new ResizeObserver(() => onChange?.(element.getBoundingClientRect()));
        observer.observe(element);
        const undo = state.atTeardown(() => observer.disconnect());
        const stop = () => {
          observer.disconnect();
          undo();
        };
        return Object.assign(stop, { destroy: stop });
      },
    },
  };
}
