// Every top-level member of Lumiverse's `spindle` global, and what the Workbench makes of it.
//
// Our own list, written from the public spindle types (lumiverse-spindle-types 0.6.20): names,
// whether each is a function or a namespace, its methods and how each answers. It drives the
// worker's inert members and the conformance test, so an extension written for Lumiverse never meets
// a TypeError at load, and adding a member is one line here plus one handler where it is real.
//
//   real      answered by the Workbench (tools, events, storage, generate, connections…)
//   pipeline  registered now; run by the Workbench chat pipeline (macros, interceptors, chat reads)
//   inert     present and harmless: logged once, a neutral value or UNSUPPORTED_HERE (OAuth, media…)

import type { EmptyAnswer } from './empty-answers';

export type MemberTier = 'real' | 'pipeline' | 'inert';

/**
 * How a method answers when it is inert:
 * page `{ data: [], total: 0 }` · list `[]` · record `{}` · null · false · done (nothing) · an empty
 * answer of a declared shape (empty-answers.ts) · reject (UNSUPPORTED_HERE) — all asynchronous — and
 * the synchronous void (nothing) · off (a no-op unsubscribe) · string ('') · stream (an async
 * generator that rejects UNSUPPORTED_HERE).
 */
export type MethodStyle = 'page' | 'list' | 'record' | 'null' | 'false' | 'done' | EmptyAnswer | 'reject' | 'void' | 'off' | 'string' | 'stream';

export interface NamespaceSpec {
  /** method name → style; a nested namespace → its own spec. */
  methods: Record<string, MethodStyle | NamespaceSpec>;
  /** Calls need this permission (a missing one rejects PERMISSION_DENIED, as in Lumiverse). */
  permission?: string;
}

export interface SpindleMember {
  name: string;
  tier: MemberTier;
  kind: 'function' | 'namespace' | 'value';
  /** Inert functions: how they answer. */
  style?: MethodStyle;
  namespace?: NamespaceSpec;
  /** Optional in Lumiverse's types (present only where the host supports it). */
  optional?: boolean;
}

/** Parses `"read:null write list:list"`: a bare name is `reject`. */
function ns(spec: string, extra: { permission?: string; sub?: Record<string, NamespaceSpec> } = {}): NamespaceSpec {
  const methods: Record<string, MethodStyle | NamespaceSpec> = {};
  for (const item of spec.split(/\s+/).filter(Boolean)) {
    const [name, style] = item.split(':') as [string, MethodStyle | undefined];
    methods[name] = style ?? 'reject';
  }
  for (const [name, sub] of Object.entries(extra.sub ?? {})) methods[name] = sub;
  return extra.permission ? { methods, permission: extra.permission } : { methods };
}

const fn = (name: string, tier: MemberTier, style?: MethodStyle, optional?: boolean): SpindleMember => ({
  name,
  tier,
  kind: 'function',
  ...(style ? { style } : {}),
  ...(optional ? { optional } : {}),
});
const space = (name: string, tier: MemberTier, namespace: NamespaceSpec, optional?: boolean): SpindleMember => ({
  name,
  tier,
  kind: 'namespace',
  namespace,
  ...(optional ? { optional } : {}),
});

const STORAGE = 'read write readBinary writeBinary delete list exists mkdir move stat getJson setJson';
const VARIABLE_SCOPE = ns('get set delete list has');
const CRUD = 'list:page get:null create update delete';
const PROCESSES = 'spawn list:list get:null send:void stop onLifecycle:off onMessage:off';

export const SPINDLE_MEMBERS: readonly SpindleMember[] = [
  // Tools and events
  fn('registerTool', 'real'),
  fn('unregisterTool', 'real'),
  fn('on', 'real'),
  // Prompt pipeline
  fn('registerMacro', 'pipeline'),
  fn('unregisterMacro', 'pipeline'),
  fn('updateMacroValue', 'pipeline'),
  space('macros', 'pipeline', ns('resolve')),
  fn('registerInterceptor', 'pipeline'),
  fn('registerContextHandler', 'pipeline'),
  fn('registerMacroInterceptor', 'pipeline'),
  fn('registerWorldInfoInterceptor', 'pipeline'),
  fn('registerMessageContentProcessor', 'pipeline'),
  fn('assemble', 'real'),
  space('promptRegex', 'pipeline', ns('setOwnedChats:void')),
  // Generation
  space('generate', 'real', ns('raw quiet batch rawStream:stream quietStream:stream dryRun observe assemble:reject quietTracked:reject')),
  space('connections', 'real', ns('list get resolveDispatch:null')),
  space('tokens', 'real', ns('countText countMessages countChat')),
  // Storage
  space('storage', 'real', ns(STORAGE)),
  space('userStorage', 'real', ns(STORAGE)),
  space('enclave', 'real', ns('put get delete has list')),
  space('ephemeral', 'real', ns('read write readBinary writeBinary delete list stat clearExpired getPoolStatus requestBlock releaseBlock'), false),
  space('variables', 'real', ns('', { sub: { local: VARIABLE_SCOPE, global: VARIABLE_SCOPE, chat: VARIABLE_SCOPE } })),
  // Data the Workbench chat provides (sessions are chats)
  space('chat', 'pipeline', ns('getMessages appendMessage updateMessage deleteMessage setMessageHidden setMessagesHidden isMessageHidden setStyleMode')),
  space('chats', 'pipeline', ns('list get getActive update delete getMemories')),
  space('characters', 'pipeline', ns('list get create setAvatar update delete')),
  space('personas', 'pipeline', ns('list get getDefault getActive create update delete switchActive getWorldBook')),
  space('world_books', 'pipeline', ns('list get create update delete getActivated getGlobal setGlobal activateGlobal deactivateGlobal', { sub: { entries: ns(CRUD) } })),
  space('council', 'real', ns('getSettings getMembers getAvailableLumiaItems')),
  // Data the Workbench does not have: empty, permission honoured
  space('presets', 'real', ns('list get create update delete', { permission: 'presets', sub: { blocks: ns('list get create update delete'), categories: ns('list') } })),
  space('regex_scripts', 'real', ns(`${CRUD} getActive`, { permission: 'regex_scripts' })),
  space('databanks', 'inert', ns(CRUD, { permission: 'databanks', sub: { documents: ns(`${CRUD} getContent:null reprocess`) } })),
  // Answered by the host method by method (memory-requests.ts): names only, no inert answers.
  space(
    'memories',
    'real',
    ns('', {
      permission: 'memories',
      sub: {
        cortex: ns('getConfig putConfig query getCached queryLinked getCachedLinked invalidateCache invalidateLinkedCache'),
        entities: ns('list get findByName upsert updateStatus addFacts getFacts updateEmotionalValence'),
        relations: ns('list listAll forEntity forEntities upsert'),
        consolidations: ns('list latestArc run'),
        salience: ns('list'),
        vaults: ns('list get getChunks create rename delete reindex'),
        links: ns('list attach remove toggle'),
        chatMemory: ns('listChunks get warm invalidate'),
        stats: ns('usage ingestionStatus ingestionTelemetry'),
      },
    }),
  ),
  space('global_addons', 'inert', ns('list:page get:null update')),
  space('dlc', 'real', ns('getCatalog')),
  space('events', 'inert', ns('track:done query:list replay:list getLatestState:record', { permission: 'event_tracking' })),
  // Permissions
  space('permissions', 'real', ns('getGranted has onDenied onChanged')),
  // Frontend and UI: its frames' messages, toasts, commands and moves of the window; dialogs from the backend are inert
  fn('sendToFrontend', 'pipeline'),
  fn('onFrontendMessage', 'pipeline'),
  space('ui', 'real', ns('getDrawerTabs getSettingsTabs openDrawerTab closeDrawer openSettings closeSettings openCommandPalette closeCommandPalette')),
  space('toast', 'real', ns('success:void warning:void error:void info:void')),
  space('modal', 'real', ns('open close confirm')),
  space('prompt', 'real', ns('input')),
  space('commands', 'real', ns('register:void unregister:void onInvoked:off')),
  space('textEditor', 'real', ns('open close')),
  // The Workbench keeps its own theme: a change an extension asks for is done as nothing (logged once), not refused every time it retries.
  space('theme', 'inert', ns('apply:done applyPalette:done clear:done getCurrent:theme extractColors generateVariables')),
  space('frontendProcesses', 'inert', ns(PROCESSES)),
  // Integrations
  fn('cors', 'real'),
  space('oauth', 'inert', ns('onCallback:off getCallbackUrl:string createState')),
  space('webSearch', 'inert', ns('query getSettings:webSearchSettings', { permission: 'web_search' })),
  space('push', 'real', ns('send getStatus:pushStatus', { permission: 'push_notification' })),
  space('imageGen', 'real', ns('generate generateStream:stream getProviders listConnections getConnection getModels', { permission: 'image_gen' })),
  space('images', 'real', ns('list get upload uploadMany uploadFromDataUrl delete deleteMany', { permission: 'images' })),
  space('media', 'inert', ns('convertAudio convertVideo transcodeVideo removeAudioFromVideo addAudioToVideo createVideoFromImageAndAudio', { permission: 'media' })),
  space('uploads', 'real', ns('get delete')),
  space('backendProcesses', 'real', ns(PROCESSES)),
  space('rpcPool', 'real', ns('sync handle read unregister')),
  space('users', 'real', ns('isVisible getRole')),
  space('providers', 'real', ns('register unregister handle onChanged'), true),
  fn('registerEmbeddingDriver', 'real', undefined, true),
  fn('registerTtsEngine', 'real', undefined, true),
  fn('registerSttEngine', 'real', undefined, true),
  fn('registerSidecarEndpoint', 'real', undefined, true),
  // Metadata
  space('log', 'real', ns('info warn error')),
  space('version', 'real', ns('getBackend getFrontend')),
  { name: 'manifest', tier: 'real', kind: 'value' },
  { name: 'host', tier: 'real', kind: 'value' },
  { name: 'contracts', tier: 'real', kind: 'value', optional: true },
];

export { LUMIVERSE_COMPAT_VERSION } from './compat';
