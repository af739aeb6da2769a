// The contract between an extension's frontend frames and the app that hosts them, in the style of the
// renderer ⇄ core contract: every request a frame may make once (name, params, result), every message
// the app sends a frame once, validated where it arrives (TypeBox's Value: no code generation, so it
// runs under the frames' and the app's CSP), errors as data with stable codes.
//
// The runtime frame talks over a MessagePort the app hands it, in the RPC kernel's messages: each request a declared
// endpoint (shared/rpc/endpoint.ts) answered by id, and the app's notices as events { topic, data }.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { MAX_CLIPBOARD_CHARS } from '../contract/host';
import { FrontendArgsSchema, FrontendCallSchema, HostStateSchema } from './host-state';

const Text = (max: number) => Type.String({ maxLength: max });
const Id = Type.String({ minLength: 1, maxLength: 128 });
const Num = Type.Number();
const Json = Type.Unknown();
const Open = <T extends Record<string, TSchema>>(props: T) => Type.Object(props, { additionalProperties: true });
const Closed = <T extends Record<string, TSchema>>(props: T) => Type.Object(props, { additionalProperties: false });

export const SURFACE_KINDS = ['drawer', 'float', 'dock', 'modal', 'app', 'settings', 'mount', 'message', 'character', 'preset'] as const;
export type SurfaceKind = (typeof SURFACE_KINDS)[number];

/** A place an extension's own DOM is shown: what it asked for, as the app shows it. */
export const SurfaceOptionsSchema = Open({
  title: Type.Optional(Text(200)),
  shortName: Type.Optional(Text(60)),
  description: Type.Optional(Text(1000)),
  headerTitle: Type.Optional(Text(200)),
  iconSvg: Type.Optional(Text(64 * 1024)),
  width: Type.Optional(Num),
  height: Type.Optional(Num),
  maxHeight: Type.Optional(Num),
  initialPosition: Type.Optional(Closed({ x: Num, y: Num })),
  snapToEdge: Type.Optional(Type.Boolean()),
  chromeless: Type.Optional(Type.Boolean()),
  tooltip: Type.Optional(Text(200)),
  edge: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('right'), Type.Literal('top'), Type.Literal('bottom')])),
  size: Type.Optional(Num),
  minSize: Type.Optional(Num),
  maxSize: Type.Optional(Num),
  resizable: Type.Optional(Type.Boolean()),
  startCollapsed: Type.Optional(Type.Boolean()),
  persistent: Type.Optional(Type.Boolean()),
  /** A float widget that starts covering the window. */
  fullscreen: Type.Optional(Type.Boolean()),
  /** mountApp({ position: 'app-overlay' }): over the whole app while visible, not a tab. */
  overlay: Type.Optional(Type.Boolean()),
  /** mount(point): the Lumiverse mount point asked for (the app picks the nearest place it has). */
  point: Type.Optional(Text(80)),
  /** message: the chat message it is shown under (dom.findMessageElement). */
  messageId: Type.Optional(Text(128)),
  /** drawer: the tab's id everywhere (drawerTabId; the app takes it only under this extension's own prefix). */
  tabId: Type.Optional(Text(200)),
});
export type SurfaceOptions = Static<typeof SurfaceOptionsSchema>;

export const SurfacePatchSchema = Closed({
  title: Type.Optional(Text(200)),
  shortName: Type.Optional(Text(60)),
  badge: Type.Optional(Type.Union([Text(40), Type.Null()])),
  visible: Type.Optional(Type.Boolean()),
  position: Type.Optional(Closed({ x: Num, y: Num })),
  size: Type.Optional(Closed({ width: Num, height: Num })),
  collapsed: Type.Optional(Type.Boolean()),
  fullscreen: Type.Optional(Type.Boolean()),
});
export type SurfacePatch = Static<typeof SurfacePatchSchema>;

const InputActionSchema = Closed({
  actionId: Id,
  label: Text(120),
  subtitle: Type.Optional(Text(200)),
  iconSvg: Type.Optional(Text(64 * 1024)),
  enabled: Type.Optional(Type.Boolean()),
});
export type InputAction = Static<typeof InputActionSchema>;

/** A body travels as text, or as base64 when it is bytes (a tus PATCH); a part of one request carries at most 512 KiB. */
const BodyEncoding = Type.Union([Type.Literal('utf8'), Type.Literal('base64')]);
export const PAGE_BODY_PART_BYTES = 512 * 1024;
/** Boxes a runtime frame's body layer reports at most (body-layer.ts). */
export const MAX_LAYER_BOXES = 16;
const PageRequestSchema = Closed({
  method: Type.String({ pattern: '^[A-Za-z]{1,10}$' }),
  path: Type.String({ minLength: 1, maxLength: 4096 }),
  headers: Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 8192 }), { maxProperties: 64 }),
  body: Type.Optional(Type.String({ maxLength: Math.ceil(PAGE_BODY_PART_BYTES / 3) * 4 })),
  bodyEncoding: Type.Optional(BodyEncoding),
});
const PageResponseSchema = Closed({ status: Num, headers: Type.Record(Type.String(), Type.String()), body: Type.String(), bodyEncoding: BodyEncoding });

const UploadedFileSchema = Closed({ name: Text(1024), mimeType: Text(256), sizeBytes: Num, base64: Type.String() });


/** The longest draft the message box and its stand-in exchange (chat.send's limit). */
export const COMPOSER_DRAFT_CHARS = 200_000;
/** What an extension's code does with the stand-in of the message box. */
const ComposerAction = Type.Union([Type.Literal('draft'), Type.Literal('send'), Type.Literal('stop'), Type.Literal('regenerate'), Type.Literal('continue')]);

/** The most of an alert's text shown (a toast is a few lines). */
export const ALERT_CHARS = 1000;

/** Every request a frame may make. */
export const FRAME_METHODS = {
  /** setup() finished (or its deferReady() was released): queued backend messages may flow. */
  'frame.ready': endpoint({ params: Closed({}), result: Type.Null() }),
  /** setup() threw or its module had none: the frame is stopped and its card says why. */
  'frame.failed': endpoint({ params: Closed({ message: Text(4000) }), result: Type.Null() }),
  /** Answer to a ping (the watchdog). */
  'frame.pong': endpoint({ params: Closed({ seq: Num }), result: Type.Null() }),
  /** It used something the Workbench has no place for (listed once on its card). */
  'frame.inert': endpoint({ params: Closed({ member: Text(120) }), result: Type.Null() }),
  /** Its frame's policy refused something (frame/policy-refusals.ts): said once each on its card. */
  'frame.policy': endpoint({ params: Closed({ what: Text(160) }), result: Type.Null() }),
  /** Its page's `alert(message)`: shown as a toast with its name (a frame shows no dialog over the app). */
  'frame.alert': endpoint({ params: Closed({ message: Text(ALERT_CHARS) }), result: Type.Null() }),
  /** Teardown ran; the frame may be removed. */
  'frame.tornDown': endpoint({ params: Closed({}), result: Type.Null() }),
  /** ctx.sendToBackend(payload): to the backend's onFrontendMessage handlers. */
  'backend.send': endpoint({ params: Closed({ payload: Json }), result: Type.Null() }),
  'surface.open': endpoint({ params: Closed({ surfaceId: Id, kind: Type.Union(SURFACE_KINDS.map((k) => Type.Literal(k))), options: SurfaceOptionsSchema }), result: Type.Null() }),
  'surface.update': endpoint({ params: Closed({ surfaceId: Id, patch: SurfacePatchSchema }), result: Type.Null() }),
  /** How tall what the extension drew in a surface is (a settings tab on its card is made that tall). */
  'surface.contentHeight': endpoint({ params: Closed({ surfaceId: Id, height: Num }), result: Type.Null() }),
  /** Where what the extension drew in a surface is, in the frame's viewport (null: nothing): a float takes the pointer only there. */
  'surface.drawnBox': endpoint({ params: Closed({ surfaceId: Id, box: Type.Union([Closed({ x: Num, y: Num, width: Num, height: Num }), Type.Null()]) }), result: Type.Null() }),
  'surface.activate': endpoint({ params: Closed({ surfaceId: Id }), result: Type.Null() }),
  'surface.close': endpoint({ params: Closed({ surfaceId: Id }), result: Type.Null() }),
  'inputAction.set': endpoint({ params: InputActionSchema, result: Type.Null() }),
  'inputAction.remove': endpoint({ params: Closed({ actionId: Id }), result: Type.Null() }),
  'dialog.confirm': endpoint({ params: Open({ title: Text(200), message: Text(8000), variant: Type.Optional(Text(20)), confirmLabel: Type.Optional(Text(60)), cancelLabel: Type.Optional(Text(60)) }), result: Closed({ confirmed: Type.Boolean() }) }),
  'dialog.contextMenu': endpoint({ params: Open({
      position: Closed({ x: Num, y: Num }),
      items: Type.Array(Open({ key: Text(120), label: Type.Optional(Text(200)), disabled: Type.Optional(Type.Boolean()), danger: Type.Optional(Type.Boolean()), type: Type.Optional(Text(20)) }), { maxItems: 100 }),
    }), result: Closed({ selectedKey: Type.Union([Type.String(), Type.Null()]) }) }),
  'permissions.request': endpoint({ params: Closed({ permissions: Type.Array(Text(64), { maxItems: 64 }), reason: Type.Optional(Text(1000)) }), result: Type.Array(Type.String()) }),
  /** navigator.clipboard.writeText from its code (which runs in a frame that never has focus): the app writes it. */
  'clipboard.write': endpoint({ params: Closed({ text: Type.String({ maxLength: MAX_CLIPBOARD_CHARS }) }), result: Type.Null() }),
  'uploads.pickFile': endpoint({ params: Closed({ accept: Type.Optional(Type.Array(Text(100), { maxItems: 50 })), multiple: Type.Optional(Type.Boolean()), maxSizeBytes: Type.Optional(Num) }), result: Type.Array(UploadedFileSchema) }),
  /** A model combobox bound to a connection: its models' names (without connectionId, the open chat's connection). */
  'connections.models': endpoint({ params: Closed({ connectionId: Type.Optional(Id) }), result: Closed({ models: Type.Array(Type.String({ maxLength: 300 }), { maxItems: 5000 }) }) }),
  'messages.interceptTags': endpoint({
    params: Closed({
      interceptorId: Id,
      tagName: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$' }),
      // An attribute's name as the tag scanner reads one (tag-scan.ts), at most 64 characters.
      attrs: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_:][-A-Za-z0-9_:.]{0,63}$' }), Type.String({ maxLength: 500 }), { maxProperties: 16, additionalProperties: false })),
      removeFromMessage: Type.Optional(Type.Boolean()),
    }),
    result: Type.Null(),
  }),
  'messages.stopIntercepting': endpoint({ params: Closed({ interceptorId: Id }), result: Type.Null() }),
  'messages.renderWidget': endpoint({ params: Closed({ messageId: Id, widgetId: Id, html: Text(512 * 1024), minHeight: Type.Optional(Num), maxHeight: Type.Optional(Num) }), result: Type.Null() }),
  'messages.removeWidget': endpoint({ params: Closed({ messageId: Id, widgetId: Id }), result: Type.Null() }),
  /** Its code fetched Lumiverse's own `/api/v1/…` (lumiverse-page.ts): the host answers as Lumiverse would, within its permissions. */
  'page.request': endpoint({ params: PageRequestSchema, result: PageResponseSchema }),
  /** Its code used the stand-in of Lumiverse's message box (lumiverse-composer.ts): the draft it wrote, or a button it clicked. */
  'composer.act': endpoint({ params: Closed({ action: ComposerAction, text: Type.Optional(Type.String({ maxLength: COMPOSER_DRAFT_CHARS })) }), result: Type.Null() }),
  /** How tall what its code put in the stand-in of the message box draws: the app makes that much room above the box. */
  'composer.room': endpoint({ params: Closed({ height: Num }), result: Type.Null() }),
  /** Lumiverse's frontend v2 domain members and settings (host-state.ts), asked of the host within its permissions. */
  'host.call': endpoint({ params: Closed({ method: FrontendCallSchema, args: FrontendArgsSchema }), result: Json }),
  /** Where what its code appended to the runtime page's body draws (none: nothing): the app shows the frame there. */
  // passive: nothing in the box takes the pointer (body-layer.ts).
  'runtime.layer': endpoint({ params: Closed({ boxes: Type.Array(Closed({ x: Num, y: Num, width: Num, height: Num, passive: Type.Optional(Type.Literal(true)) }), { maxItems: MAX_LAYER_BOXES }) }), result: Type.Null() }),
} as const;

export type FrameMethod = keyof typeof FRAME_METHODS;
export type FrameParams<M extends FrameMethod> = Static<(typeof FRAME_METHODS)[M]['params']>;
export type FrameResult<M extends FrameMethod> = Static<(typeof FRAME_METHODS)[M]['result']>;

/** What the app tells a frame. */
export const FRAME_TOPICS = {
  /** The state a frontend starts from (sent with the port). */
  init: Closed({
    extensionId: Id,
    granted: Type.Array(Type.String()),
    activeChat: Type.Union([Type.String(), Type.Null()]),
    messageIds: Type.Array(Type.String()),
    /** Which of them the person wrote (Lumiverse's page marks their cards `data-part="user"`). */
    userMessageIds: Type.Optional(Type.Array(Type.String())),
    theme: Type.Record(Type.String(), Type.String()),
    manifest: Type.Record(Type.String(), Json),
    hostState: HostStateSchema,
  }),
  /** A host event, with Lumiverse's name and payload (what ctx.events.on hears). */
  event: Closed({ event: Text(80), payload: Json }),
  /** spindle.sendToFrontend(payload) from its backend. */
  backend: Closed({ payload: Json }),
  permissions: Closed({ granted: Type.Array(Type.String()) }),
  activeChat: Closed({ chatId: Type.Union([Type.String(), Type.Null()]), messageIds: Type.Array(Type.String()), userMessageIds: Type.Optional(Type.Array(Type.String())) }),
  theme: Closed({ vars: Type.Record(Type.String(), Type.String()) }),
  /** What it may read of the app's state at once, and the places it can open (ctx.state, ctx.host.surfaces). */
  hostState: HostStateSchema,
  /** Something happened to a surface: the person activated a tab, dismissed a modal, dragged a widget… */
  surface: Closed({
    surfaceId: Id,
    what: Type.Union([Type.Literal('activate'), Type.Literal('dismiss'), Type.Literal('visibility'), Type.Literal('dragEnd'), Type.Literal('position')]),
    visible: Type.Optional(Type.Boolean()),
    position: Type.Optional(Closed({ x: Num, y: Num })),
  }),
  /**
   * The extensions panel: whether it shows, which of this extension's tabs it shows (null: none of its own), and the
   * tab shown by its id everywhere, whoever's it is (ui.events' drawer state, as Lumiverse names the active tab).
   */
  drawer: Closed({ open: Type.Boolean(), surfaceId: Type.Union([Id, Type.Null()]), tabId: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]) }),
  inputAction: Closed({ actionId: Id }),
  /** A tag its interceptor asked for appeared in a message (Lumiverse's SpindleMessageTagIntercept). */
  tag: Closed({
    interceptorId: Id,
    tagName: Type.String(),
    attrs: Type.Record(Type.String(), Type.String()),
    content: Type.String(),
    fullMatch: Type.String(),
    messageId: Type.Optional(Type.String()),
    chatId: Type.Optional(Type.String()),
    isUser: Type.Optional(Type.Boolean()),
    isStreaming: Type.Optional(Type.Boolean()),
  }),
  /**
   * The Workbench's message box, for an extension granted `generation` (its frame draws Lumiverse's stand-in of it):
   * whether it shows, where the room for the extension's pieces is (window coordinates), the draft and the reply state.
   */
  composer: Closed({
    shown: Type.Boolean(),
    place: Type.Union([Closed({ x: Num, y: Num, width: Num }), Type.Null()]),
    draft: Type.String({ maxLength: COMPOSER_DRAFT_CHARS }),
    generating: Type.Boolean(),
    canRegenerate: Type.Boolean(),
    canContinue: Type.Boolean(),
  }),
  /**
   * Where the open chat shows (window coordinates), or null when none does: its stand-in of Lumiverse's ChatView is
   * placed there (renderer/frame/chat-view.ts), so what its code puts in it (weather over the chat) draws over the chat.
   */
  chatView: Closed({ place: Type.Union([Closed({ x: Num, y: Num, width: Num, height: Num }), Type.Null()]) }),
  /**
   * The person pressed somewhere in the app while what its code appended to its page takes the pointer (a popover it
   * opened): its click-outside handlers hear a press outside it, as on Lumiverse's one page. Nothing says where.
   */
  outsidePress: Closed({}),
  /** A message widget posted something (window.spindleSandbox.postMessage inside it). */
  widget: Closed({ messageId: Id, widgetId: Id, payload: Json }),
  ping: Closed({ seq: Num }),
  teardown: Closed({}),
} as const;

export type FrameTopic = keyof typeof FRAME_TOPICS;
export type FrameNotice<T extends FrameTopic> = Static<(typeof FRAME_TOPICS)[T]>;

export interface FrameError {
  code: string;
  message: string;
  path?: string;
}

/** Stable codes a frame request can fail with. */
export const FRAME_ERROR_CODES = ['INVALID_INPUT', 'UNKNOWN_METHOD', 'PERMISSION_DENIED', 'UNSUPPORTED_HERE', 'FRAME_FLOOD', 'FRAME_STOPPED', 'CANCELLED', 'INPUT_TOO_LARGE', 'RATE_LIMITED'] as const;
