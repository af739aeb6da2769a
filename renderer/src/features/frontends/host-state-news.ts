// What each running frontend may read of the app at once (Lumiverse's frontend v2: ctx.state, ctx.host.surfaces),
// built from the window's stores: the places it can open (every section, every extension's drawer tab) and the
// state selectors' values, a selector only for an extension granted what its spindle twin needs, and to one granted
// characters the character editor's state. A frame is told again when what it would read changes.
import { MAX_HOST_SURFACES, STATE_SELECTORS, type CharacterEditorState, type HostState, type PresetEditorState, type HostSurface, type SelectorId } from '../../../../shared/frames/host-state';
import { connectionDto } from '../../../../shared/spindle/connection-dto';
import { characterImageId, personaIdOf } from '../../../../shared/spindle/lumiverse-ids';
import type { AppState } from '../../stores/app/app-store';
import type { FrameBroker } from './frame-broker';
import { drawerTabs, shownTab, type FrontendsState, type FrontendsStore } from './frontends-store';
import { placeId, SECTION_PLACES } from './lumiverse-places';
import type { StoreApi } from 'zustand/vanilla';

/** The chat's size, measured in the window when the state is built. */
export interface ChatLayout {
  chatRowWidth: number;
  chatRowHeight: number;
  chatColumnInnerMaxWidth: number;
  uiScale: number;
}

export function measureChat(doc: Document): ChatLayout {
  const chat = doc.querySelector<HTMLElement>('[data-testid="chat"]');
  const box = chat?.getBoundingClientRect();
  const maxWidth = chat ? Number.parseFloat(getComputedStyle(chat).maxWidth) : Number.NaN;
  return { chatRowWidth: box?.width ?? 0, chatRowHeight: box?.height ?? 0, chatColumnInnerMaxWidth: Number.isFinite(maxWidth) ? maxWidth : (box?.width ?? 0), uiScale: 1 };
}

/** The places an extension can list and open: the app's sections, then every extension's drawer tabs. */
function places(frontends: FrontendsState): HostSurface[] {
  const sections: HostSurface[] = SECTION_PLACES.map((p) => ({ kind: 'drawer_tab', id: p.id, label: p.label }));
  const tabs: HostSurface[] = drawerTabs(frontends.surfaces).map((tab) => ({
    kind: 'drawer_tab',
    id: placeId(tab),
    label: tab.options.title ?? tab.options.shortName ?? tab.surfaceId,
    owner: tab.extensionId,
    ...(tab.options.iconSvg ? { iconSvg: tab.options.iconSvg } : {}),
  }));
  return [...sections, ...tabs].slice(0, MAX_HOST_SURFACES);
}

/** The value of every selector, as Lumiverse's v2 host shapes it. */
function selectorValues(app: AppState, frontends: FrontendsState, layout: ChatLayout, drawerShown: boolean): Record<SelectorId, unknown> {
  const { openId, open, window } = app.chat;
  const tab = shownTab(drawerTabs(frontends.surfaces), frontends.activeTab);
  const sectionPlace = SECTION_PLACES.find((p) => p.section === app.section);
  const mainId = open?.connectionId || app.settings?.chat?.mainConnectionId || null;
  const active = app.connections.items.find((p) => p.id === mainId);
  return {
    'ui.activeModal': { activeModal: frontends.dialogs.at(-1)?.kind ?? null },
    'ui.drawer': app.section === 'workbench' ? { open: drawerShown && tab !== null, tabId: drawerShown && tab ? placeId(tab) : null } : { open: true, tabId: sectionPlace?.id ?? null },
    'ui.settings': { open: false, view: null },
    'ui.layout': layout,
    // A branch's character is its origin's, as its chat's record says.
    'chat.active': { chatId: openId, characterId: openId ? (app.chat.openOrigin ?? openId) : null, avatarImageId: openId && open?.avatar ? characterImageId(openId) : null },
    'chat.messageCount': window?.total ?? open?.messages.length ?? 0,
    'persona.activeId': openId ? personaIdOf(openId) : null,
    'loom.activePresetId': app.settings?.chat?.presetId ?? null,
    'characters.editingId': frontends.characterEditor,
    'characters.favorites': [],
    'worldInfo.selectedEntryId': null,
    'connections.active': { activeProfileId: active?.id ?? null, provider: active?.provider ?? null, model: active?.defaultModel ?? null },
    'connections.profiles': app.connections.items.map((p) => connectionDto(p, mainId)),
  };
}

/** The character editor (the session's "Character & world" shown), for an extension granted characters. */
function characterEditorOf(app: AppState, frontends: FrontendsState, extensionId: string): CharacterEditorState {
  const sessionId = frontends.characterEditor;
  const session = sessionId !== null && app.chat.open?.id === sessionId ? app.chat.open : null;
  if (!session) return { open: false, characterId: null, activeSurfaceId: null, extensions: {} };
  const extensions = session.card?.data.extensions;
  const tab = frontends.surfaces.find((s) => s.extensionId === extensionId && s.kind === 'character' && s.visible);
  return { open: true, characterId: session.id, activeSurfaceId: tab?.surfaceId ?? null, extensions: extensions && typeof extensions === 'object' && !Array.isArray(extensions) ? (extensions as Record<string, unknown>) : {} };
}

/** The preset editor (the session's "Preset" shown, with the chat's preset), for an extension granted presets. */
function presetEditorOf(frontends: FrontendsState, extensionId: string): PresetEditorState {
  const shown = frontends.presetEditor;
  if (!shown) return { open: false, activeSurfaceId: null, preset: null, revision: 0, promptVariableValues: {} };
  const { promptVariables, ...metadata } = shown.metadata;
  const tab = frontends.surfaces.find((s) => s.extensionId === extensionId && s.kind === 'preset' && s.visible);
  return {
    open: true,
    activeSurfaceId: tab?.surfaceId ?? null,
    // Its blocks whole (a select variable's placements too: a change saved from them keeps them; no sealed field is stored).
    preset: { id: shown.id, name: shown.name, blocks: shown.prompt_order, parameters: shown.parameters, prompts: shown.prompts, metadata, createdAt: shown.created_at, updatedAt: shown.updated_at },
    revision: shown.cache_revision,
    promptVariableValues: promptVariables && typeof promptVariables === 'object' ? (promptVariables as Record<string, unknown>) : {},
  };
}

interface Editors {
  character(): CharacterEditorState;
  preset(): PresetEditorState;
}

const editorsOf = (app: AppState, frontends: FrontendsState, extensionId: string): Editors => ({
  character: () => characterEditorOf(app, frontends, extensionId),
  preset: () => presetEditorOf(frontends, extensionId),
});

/** What one extension is told: the places, the selectors its grants allow, and with characters and presets their editors. */
export function hostStateFor(granted: readonly string[], values: Record<SelectorId, unknown>, surfaces: HostSurface[], editors: Editors): HostState {
  const state: Record<string, unknown> = {};
  for (const [id, spec] of Object.entries(STATE_SELECTORS)) if (spec.permission === null || granted.includes(spec.permission)) state[id] = values[id as SelectorId];
  return { surfaces, state, ...(granted.includes('characters') ? { characterEditor: editors.character() } : {}), ...(granted.includes('presets') ? { presetEditor: editors.preset() } : {}) };
}

interface Sources {
  app: StoreApi<AppState>;
  frontends: FrontendsStore;
  brokers: ReadonlyMap<string, FrameBroker>;
  granted(id: string): readonly string[];
  /** The extensions panel shows (the Workbench is the section shown). */
  drawerShown(): boolean;
  layout(): ChatLayout;
}

/** The state `id` starts from (its frame's init). */
export function initialHostState(sources: Sources, id: string): HostState {
  const frontends = sources.frontends.getState();
  const app = sources.app.getState();
  return hostStateFor(sources.granted(id), selectorValues(app, frontends, sources.layout(), sources.drawerShown() && frontends.drawerOpen), places(frontends), editorsOf(app, frontends, id));
}

/** What the state is built from, by reference: a change elsewhere in the stores (a streamed reply's text) builds nothing. */
const inputsOf = (app: AppState, frontends: FrontendsState, brokers: number): unknown[] => [
  brokers,
  app.section,
  app.chat.openId,
  app.chat.open,
  app.chat.window,
  app.connections.items,
  app.settings,
  app.extensions.items,
  frontends.surfaces,
  frontends.activeTab,
  frontends.drawerOpen,
  frontends.dialogs,
  frontends.characterEditor,
  frontends.presetEditor,
];

/** Tells every frame its state when it changes; `update()` looks again even if the stores did not change (a resize). */
export function watchHostState(sources: Sources) {
  let queued = false;
  let forced = false;
  let inputs: unknown[] = [];
  const run = () => {
    queued = false;
    if (sources.brokers.size === 0) return;
    const frontends = sources.frontends.getState();
    const app = sources.app.getState();
    const now = inputsOf(app, frontends, sources.brokers.size);
    if (!forced && now.length === inputs.length && now.every((value, i) => value === inputs[i])) return;
    forced = false;
    inputs = now;
    const values = selectorValues(app, frontends, sources.layout(), sources.drawerShown() && frontends.drawerOpen);
    const surfaces = places(frontends);
    // The places are the same for every frame (and may hold every tab's icon): written out once. The preset the preset
    // editor shows (a large one is megabytes) is said by its id and revision, which every change of it moves on.
    const placesSaid = JSON.stringify(surfaces);
    const shown = frontends.presetEditor;
    for (const [id, broker] of sources.brokers) {
      const state = hostStateFor(sources.granted(id), values, surfaces, editorsOf(app, frontends, id));
      const editor = state.presetEditor && shown ? { ...state.presetEditor, preset: `${shown.id}@${shown.cache_revision}` } : state.presetEditor;
      broker.notifyChanged('hostState', state, placesSaid + JSON.stringify({ ...state, surfaces: null, presetEditor: editor }));
    }
  };
  // Store changes come in bursts: told once per burst.
  const soon = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(run);
  };
  const offs = [sources.app.subscribe(soon), sources.frontends.subscribe(soon)];
  return {
    update: () => {
      forced = true;
      soon();
    },
    stop: () => offs.forEach((off) => off()),
  };
}
