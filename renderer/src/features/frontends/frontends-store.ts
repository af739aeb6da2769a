// What extensions' frontends have placed in the Workbench, mirrored for the components that show it: their
// surfaces, composer actions, pending dialogs, message tag interceptors and widgets, and their problems.
// The brokers (frame-broker.ts) write it; the surfaces components read it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Static } from '@sinclair/typebox';
import type { PresetSchema } from '../../../../shared/contract/presets';
import type { FrameNotice, InputAction, SurfaceKind, SurfaceOptions, SurfacePatch } from '../../../../shared/frames/frame-contract';

export type Preset = Static<typeof PresetSchema>;

export interface Surface {
  /** `<extensionId>/<surfaceId>`: unique across extensions. */
  key: string;
  extensionId: string;
  surfaceId: string;
  kind: SurfaceKind;
  options: SurfaceOptions;
  title: string;
  badge: string | null;
  visible: boolean;
  collapsed: boolean;
  fullscreen: boolean;
  position: { x: number; y: number } | null;
  size: { width: number; height: number } | null;
  /** How tall its content is, as its frame last said (null until it says). */
  contentHeight: number | null;
  /** Where its content draws in its frame, as the frame last said (null: nothing, or not said yet). */
  drawn: { x: number; y: number; width: number; height: number } | null;
}

export interface ComposerAction extends InputAction {
  extensionId: string;
}

/** What the Workbench's message box does for an extension's stand-in of it (ComposerStandIns.tsx registers it). */
export interface ComposerControl {
  setDraft(text: string): void;
  /** Sends `text` as the person's message; empty, a new reply to the chat as it is. Failures show under the box. */
  send(text: string): Promise<void>;
  stop(): Promise<void>;
  regenerate(): Promise<void>;
  continue(): Promise<void>;
}

/** The message box while the Workbench shows it: what it holds, where extensions' pieces go, and its controls. */
export interface ComposerShown {
  state: Omit<FrameNotice<'composer'>, 'shown' | 'place'>;
  /** Each extension's room above the box (window coordinates); one with no room yet gets `base`. */
  places: Record<string, { x: number; y: number; width: number }>;
  base: { x: number; y: number; width: number };
  control: ComposerControl;
}

export type DialogKind = 'confirm' | 'contextMenu' | 'permissions' | 'file' | 'input' | 'textEditor' | 'modal';

export interface PendingDialog {
  id: number;
  /** A dialog its backend opened (backend-dialogs.ts): the host's id, answered through the host. */
  hostId?: string;
  extensionId: string;
  kind: DialogKind;
  params: Record<string, unknown>;
  resolve(value: unknown): void;
  reject(error: { code: string; message: string }): void;
}

export interface TagInterceptor {
  extensionId: string;
  interceptorId: string;
  tagName: string;
  /** Only tags with these attribute values (Lumiverse's SpindleMessageTagInterceptorOptions.attrs). */
  attrs?: Record<string, string>;
  removeFromMessage: boolean;
}

export interface MessageWidget {
  extensionId: string;
  messageId: string;
  widgetId: string;
  html: string;
  minHeight?: number;
  maxHeight?: number;
}

/** The visible part of the open chat, in whole pixels of the window. */
export type ChatViewPlace = { x: number; y: number; width: number; height: number };

export interface FrontendsState {
  surfaces: Surface[];
  actions: ComposerAction[];
  dialogs: PendingDialog[];
  interceptors: TagInterceptor[];
  widgets: MessageWidget[];
  /** The drawer tab shown in the Workbench's extensions panel (its key), or null. */
  activeTab: string | null;
  drawerOpen: boolean;
  /** Why an extension's frontend was stopped (shown on its card), by extension id. */
  problems: Record<string, string>;
  /** ctx members it used that do nothing here, by extension id. */
  inert: Record<string, string[]>;
  /** What the app refused its frontend and the frontend cannot show (sendToBackend answers nothing), newest last. */
  refusals: Record<string, string[]>;
  ready: Record<string, boolean>;
  /**
   * Where what its code appended to the runtime page's body draws, by extension id (the runtime frame shows there);
   * `passive`: nothing there takes the pointer.
   */
  layers: Record<string, Array<NonNullable<Surface['drawn']> & { passive?: true }>>;
  /** The Workbench's message box, while it shows (null: it does not). */
  composer: ComposerShown | null;
  /** How tall each extension's pieces in its stand-in of the message box draw: the room the box makes above itself. */
  composerRooms: Record<string, number>;
  /** Where the open chat shows (window coordinates; Lumiverse's ChatView, in frames: chat-view-news.ts), or null. */
  chatView: ChatViewPlace | null;
  /** The session whose "Character & world" shows (Lumiverse's character editor, open), or null. */
  characterEditor: string | null;
  /** The preset the session's "Preset" view shows, as last read (Lumiverse's preset editor, open), or null. */
  presetEditor: Preset | null;
}

const MAX_REFUSALS_SHOWN = 5;

const empty = (): FrontendsState => ({ surfaces: [], actions: [], dialogs: [], interceptors: [], widgets: [], activeTab: null, drawerOpen: true, problems: {}, inert: {}, refusals: {}, ready: {}, layers: {}, composer: null, composerRooms: {}, chatView: null, characterEditor: null, presetEditor: null });

export type FrontendsStore = StoreApi<FrontendsState>;

export function createFrontendsStore(): FrontendsStore {
  return createStore<FrontendsState>(() => empty());
}

export const surfaceKey = (extensionId: string, surfaceId: string) => `${extensionId}/${surfaceId}`;

const IN_DRAWER: ReadonlySet<string> = new Set(['drawer', 'mount']);

/** Mount points that belong on the extension's card (its settings), not in the drawer. */
export const CARD_MOUNT_POINTS: ReadonlySet<string> = new Set(['settings_extensions', 'settings_tab', 'settings_section']);

/** Lumiverse's mount points around its message box: shown at the Workbench's (ComposerMounts.tsx), above it or below. */
export const COMPOSER_MOUNT_POINTS: ReadonlySet<string> = new Set(['chat_toolbar', 'chat_composer_above', 'chat_input_tools_left', 'chat_input_tools_right', 'chat_actions', 'chat_composer_below']);

/** Lumiverse's mount point in its drawer's header (Cubby's back button): shown in the bar of the Workbench's extensions panel. */
export const DRAWER_HEADER_MOUNT_POINTS: ReadonlySet<string> = new Set(['drawer_header_actions']);
/** Lumiverse's chat header (Cue's launcher button): the open session's title bar here. */
export const CHAT_HEADER_MOUNT_POINTS: ReadonlySet<string> = new Set(['chat_header_left', 'chat_header_center', 'chat_header_right']);
/** Lumiverse's preset editor toolbar (ui.mount, and registerPresetEditorToolbarItem's items): the preset editor's bar here. */
export const PRESET_TOOLBAR_MOUNT_POINTS: ReadonlySet<string> = new Set(['preset_editor_toolbar']);

/** The tabs of the Workbench's extensions panel: drawer tabs, and what was mounted with no nearer place here. */
export const isDrawerTab = (x: Surface) =>
  IN_DRAWER.has(x.kind) &&
  x.visible &&
  !(x.kind === 'mount' && [CARD_MOUNT_POINTS, COMPOSER_MOUNT_POINTS, DRAWER_HEADER_MOUNT_POINTS, PRESET_TOOLBAR_MOUNT_POINTS, CHAT_HEADER_MOUNT_POINTS].some((points) => points.has(x.options.point ?? '')));

/** The panel's tabs, by extension (the order frontends finished loading in changes from start to start), each extension's in the order it made them. */
export const drawerTabs = (surfaces: Surface[]): Surface[] => surfaces.filter(isDrawerTab).sort((a, b) => (a.extensionId < b.extensionId ? -1 : a.extensionId > b.extensionId ? 1 : 0));

/** The tab the panel shows: the chosen one, else the first. */
export const shownTab = (tabs: Surface[], activeKey: string | null): Surface | null => tabs.find((t) => t.key === activeKey) ?? tabs[0] ?? null;
/** The drawer is open with a tab to show: the Workbench makes room for it beside the chat. */
export const drawerShown = (state: Pick<FrontendsState, 'surfaces' | 'drawerOpen'>): boolean => state.drawerOpen && state.surfaces.some(isDrawerTab);

/** The store changes the brokers make, each one pure over the state. */
export const frontendsActions = {
  openSurface(store: FrontendsStore, extensionId: string, surfaceId: string, kind: SurfaceKind, options: SurfaceOptions): void {
    const key = surfaceKey(extensionId, surfaceId);
    const surface: Surface = {
      key,
      extensionId,
      surfaceId,
      kind,
      options,
      title: options.title ?? options.headerTitle ?? '',
      badge: null,
      visible: true,
      collapsed: options.startCollapsed === true,
      fullscreen: options.fullscreen === true,
      position: options.initialPosition ?? null,
      size: options.width !== undefined && options.height !== undefined ? { width: options.width, height: options.height } : null,
      contentHeight: null,
      drawn: null,
    };
    store.setState((s) => ({
      surfaces: s.surfaces.some((x) => x.key === key) ? s.surfaces.map((x) => (x.key === key ? surface : x)) : [...s.surfaces, surface],
    }));
  },
  updateSurface(store: FrontendsStore, key: string, patch: SurfacePatch): void {
    store.setState((s) => ({
      surfaces: s.surfaces.map((x) =>
        x.key !== key
          ? x
          : {
              ...x,
              ...(patch.title !== undefined ? { title: patch.title } : {}),
              ...(patch.badge !== undefined ? { badge: patch.badge } : {}),
              ...(patch.visible !== undefined ? { visible: patch.visible } : {}),
              ...(patch.collapsed !== undefined ? { collapsed: patch.collapsed } : {}),
              ...(patch.fullscreen !== undefined ? { fullscreen: patch.fullscreen } : {}),
              ...(patch.position !== undefined ? { position: patch.position } : {}),
              ...(patch.size !== undefined ? { size: patch.size } : {}),
            },
      ),
    }));
  },
  setContentHeight(store: FrontendsStore, key: string, height: number): void {
    const bounded = Math.round(Math.min(Math.max(height, 0), 100_000));
    store.setState((s) => ({ surfaces: s.surfaces.map((x) => (x.key === key ? { ...x, contentHeight: bounded } : x)) }));
  },
  setDrawnBox(store: FrontendsStore, key: string, drawn: Surface['drawn']): void {
    store.setState((s) => ({ surfaces: s.surfaces.map((x) => (x.key === key ? { ...x, drawn } : x)) }));
  },
  closeSurface(store: FrontendsStore, key: string): void {
    store.setState((s) => {
      const surfaces = s.surfaces.filter((x) => x.key !== key);
      // The panel falls back to its first tab, in its own order.
      return { surfaces, activeTab: s.activeTab === key ? null : s.activeTab };
    });
  },
  /** Everything an extension placed goes (its frontend stopped); its frontend's pending dialogs are answered as cancelled (its backend's stay). */
  clearExtension(store: FrontendsStore, extensionId: string, problem?: string): void {
    const s = store.getState();
    const frontendOf = (d: PendingDialog) => d.extensionId === extensionId && d.hostId === undefined;
    for (const dialog of s.dialogs.filter(frontendOf)) dialog.reject({ code: 'CANCELLED', message: 'The extension frontend was stopped.' });
    store.setState({
      surfaces: s.surfaces.filter((x) => x.extensionId !== extensionId),
      actions: s.actions.filter((x) => x.extensionId !== extensionId),
      dialogs: s.dialogs.filter((x) => !frontendOf(x)),
      interceptors: s.interceptors.filter((x) => x.extensionId !== extensionId),
      widgets: s.widgets.filter((x) => x.extensionId !== extensionId),
      activeTab: s.activeTab?.startsWith(`${extensionId}/`) ? null : s.activeTab,
      ready: { ...s.ready, [extensionId]: false },
      layers: { ...s.layers, [extensionId]: [] },
      composerRooms: { ...s.composerRooms, [extensionId]: 0 },
      problems: problem ? { ...s.problems, [extensionId]: problem } : s.problems,
    });
  },
  /** Keeps the newest few, each once, for its card. */
  noteRefusal(store: FrontendsStore, extensionId: string, refusal: string): void {
    store.setState((s) => ({ refusals: { ...s.refusals, [extensionId]: [...(s.refusals[extensionId] ?? []).filter((r) => r !== refusal), refusal].slice(-MAX_REFUSALS_SHOWN) } }));
  },
  /** Its frontend starts again: what stopped or was refused last time is not said any more. */
  clearProblem(store: FrontendsStore, extensionId: string): void {
    const { [extensionId]: _gone, ...problems } = store.getState().problems;
    const { [extensionId]: _refused, ...refusals } = store.getState().refusals;
    store.setState({ problems, refusals });
  },
};
