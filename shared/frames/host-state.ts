// Lumiverse's frontend extensibility v2 as a frame reaches it. Some of it answers at once, without a round trip
// (ctx.state's selectors, ctx.host.surfaces.list), so the window tells each frame what it may read of the app's
// state and which places it can open, and tells it again when that changes (the `hostState` notice). Each selector
// is told only to an extension holding the permission its spindle twin needs. The rest of v2 (world books, tokens,
// connections, chats, messages, settings) is asked of the host: `host.call` with one of FRONTEND_CALLS.
import { Type, type Static } from '@sinclair/typebox';

/** A state selector of Lumiverse's (the v2 host's names): the permission its value needs, and what it is. */
interface SelectorSpec {
  permission: string | null;
  description: string;
}

export const STATE_SELECTORS = {
  'ui.activeModal': { permission: null, description: 'The dialog shown over the app, by kind, or null.' },
  'ui.drawer': { permission: null, description: 'The place shown: open, and its tab id (a section of the app or an extension tab).' },
  'ui.settings': { permission: null, description: 'The settings dialog: the Workbench has none, so it is never open.' },
  'ui.layout': { permission: null, description: "The chat's geometry in layout pixels, and the UI scale." },
  'chat.active': { permission: null, description: 'The open chat, its character and the character picture\'s image id.' },
  'chat.messageCount': { permission: null, description: 'How many messages the open chat has.' },
  'persona.activeId': { permission: null, description: "The open chat's persona id." },
  'loom.activePresetId': { permission: null, description: "The Loom preset the chat's prompt is built from, or null." },
  'characters.editingId': { permission: 'characters', description: "The character whose editor shows (a session's Character & world), or null." },
  'characters.favorites': { permission: null, description: 'Favourite characters: the Workbench keeps none.' },
  'worldInfo.selectedEntryId': { permission: null, description: 'The world-book entry selected in its editor: the Workbench has no such editor.' },
  'connections.active': { permission: 'generation', description: "The open chat's connection: its id, provider and model." },
  'connections.profiles': { permission: 'generation', description: 'The connection profiles, never a key.' },
} as const satisfies Record<string, SelectorSpec>;
export type SelectorId = keyof typeof STATE_SELECTORS;
export const SELECTOR_IDS = Object.keys(STATE_SELECTORS) as SelectorId[];

/**
 * A drawer tab's id, the same in its handle (tabId), ui.events' drawer state, ctx.state's ui.drawer and
 * ctx.host.surfaces: its extension and the `id` it gave, so it is the same from one start to the next (Cubby keeps
 * the ids it files); a second live tab of the same `id` gets its place's id too.
 */
export const drawerTabPrefix = (extensionId: string) => `spindle:${extensionId}:tab:`;
export const drawerTabId = (extensionId: string, name: string, surfaceId?: string) => `${drawerTabPrefix(extensionId)}${name}${surfaceId ? `:${surfaceId}` : ''}`;

/** The kinds of place a v2 frontend can list and open (ctx.host.surfaces). */
export const HOST_SURFACE_KINDS = ['drawer_tab'] as const;

const HostSurfaceSchema = Type.Object(
  {
    kind: Type.Union(HOST_SURFACE_KINDS.map((k) => Type.Literal(k))),
    id: Type.String({ minLength: 1, maxLength: 300 }),
    label: Type.String({ maxLength: 200 }),
    /** The extension the place belongs to; none for the app's own. */
    owner: Type.Optional(Type.String({ maxLength: 64 })),
    iconSvg: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
  },
  { additionalProperties: false },
);
export type HostSurface = Static<typeof HostSurfaceSchema>;

/** Places listed at most (every section and every extension's drawer tabs). */
export const MAX_HOST_SURFACES = 200;

/**
 * The character editor as an extension granted `characters` sees it (Lumiverse's ctx.ui.characterEditor): open while the
 * Workbench shows a session's "Character & world", with that session's character and its card's whole `extensions`;
 * `activeSurfaceId` is this extension's character editor tab shown there (all of them show at once here).
 */
const CharacterEditorSchema = Type.Object(
  {
    open: Type.Boolean(),
    characterId: Type.Union([Type.String(), Type.Null()]),
    activeSurfaceId: Type.Union([Type.String(), Type.Null()]),
    extensions: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);
export type CharacterEditorState = Static<typeof CharacterEditorSchema>;

/** A preset as Lumiverse's preset editor hands it to extensions (SpindlePresetEditorDraft): its metadata without the prompt variables. */
const PresetDraftSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    blocks: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    prompts: Type.Record(Type.String(), Type.Unknown()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    createdAt: Type.Number(),
    updatedAt: Type.Number(),
  },
  { additionalProperties: false },
);
export type PresetDraft = Static<typeof PresetDraftSchema>;

/**
 * The preset editor as an extension granted `presets` sees it (Lumiverse's ctx.ui.presetEditor): open while the Workbench
 * shows a session's "Preset" with the chat's preset, that preset as a draft, its revision (the one a save must name) and
 * its prompt variables' values; `activeSurfaceId` is this extension's preset editor tab shown there (all show at once).
 */
const PresetEditorSchema = Type.Object(
  {
    open: Type.Boolean(),
    activeSurfaceId: Type.Union([Type.String(), Type.Null()]),
    preset: Type.Union([PresetDraftSchema, Type.Null()]),
    revision: Type.Integer(),
    promptVariableValues: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);
export type PresetEditorState = Static<typeof PresetEditorSchema>;

export const HostStateSchema = Type.Object(
  {
    surfaces: Type.Array(HostSurfaceSchema, { maxItems: MAX_HOST_SURFACES }),
    /** The selectors this extension may read, with their values (the others are absent). */
    state: Type.Record(Type.String({ maxLength: 80 }), Type.Unknown()),
    /** Absent for an extension without `characters`. */
    characterEditor: Type.Optional(CharacterEditorSchema),
    /** Absent for an extension without `presets`. */
    presetEditor: Type.Optional(PresetEditorSchema),
  },
  { additionalProperties: false },
);
export type HostState = Static<typeof HostStateSchema>;

/**
 * What a frontend asks of the host for v2's domain members (and the character editor's saves): the spindle methods its
 * backend could call with the same permissions (the frame is the same extension), its own settings (ctx.settings), and
 * its route's move to a chat.
 */
export const FRONTEND_CALLS = [
  'ui.openDrawerTab',
  'ui.openSettings',
  'world_books.list',
  'world_books.get',
  'world_books.create',
  'world_books.update',
  'world_books.delete',
  'world_books.getActivated',
  'world_books.getGlobal',
  'world_books.setGlobal',
  'world_books.entries.list',
  'world_books.entries.get',
  'world_books.entries.create',
  'world_books.entries.update',
  'world_books.entries.delete',
  'tokens.countText',
  'tokens.countMessages',
  'tokens.countChat',
  'connections.list',
  'connections.get',
  'chats.list',
  'chats.get',
  'chats.getActive',
  'chats.update',
  'chat.getMessages',
  'chat.updateMessage',
  'chat.deleteMessage',
  'characters.update',
  'presets.get',
  'presets.update',
  'frontendSettings.read',
  'frontendSettings.write',
  // Its route went to `/chat/<id>` (a history change, or surfaces.invoke of that route): the window opens that chat.
  'route.openChat',
] as const;
export type FrontendCall = (typeof FRONTEND_CALLS)[number];
/** Calls of one extension's frontends the host answers at once; more are refused (RATE_LIMITED), so its frame queues them. */
export const MAX_FRONTEND_CALLS_IN_FLIGHT = 8;
export const FrontendCallSchema = Type.Union(FRONTEND_CALLS.map((m) => Type.Literal(m)));
/** A call's arguments, positional as the backend's spindle calls take them. */
export const FrontendArgsSchema = Type.Array(Type.Unknown(), { maxItems: 8 });
