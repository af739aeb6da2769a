// The SpindleFrontendContext an extension's setup(ctx) receives, as Lumiverse's types describe it (frontend
// extensibility v2 included, as its v2 host answers it): what has a place here is real (surfaces, dialogs, backend
// messages, events, files, permissions, messages, state, settings, the domain members); the rest is present, logged
// once and listed on the extension's card, so a frontend never meets a TypeError.
import { hostDescriptor } from '../../shared/spindle/host-descriptor';
import { base64ToBytes } from './base64';
import { createComponents } from './components';
import { createDom } from './dom';
import { createDomainMembers } from './domain-members';
import { createHostReads } from './host-reads';
import { pageJson } from './lumiverse-page';
import { createMessages } from './messages';
import type { RuntimeState } from './runtime-state';
import { tellEach } from './tell-each';
import { createUi } from './ui';

/** Backend messages that wait for ready() (Lumiverse keeps the newest 100). */
const MAX_QUEUED = 100;

export interface FrontendLifecycle {
  ctx: Record<string, unknown>;
  /** setup() asked to say "ready" itself. */
  deferred(): boolean;
  /** Marks it ready (its own ready(), setup returning, or the 10 s fallback): queued messages flow. */
  markReady(): void;
}

/**
 * A registration of something the Workbench has no place for: listed on its card by what it named, and a handle that
 * is both an unsubscribe and an object with destroy(), as Lumiverse's hosts return either.
 */
function notApplied(state: RuntimeState, member: string, field: string) {
  return (options?: Record<string, unknown>) => {
    const named = options?.[field];
    state.inert(typeof named === 'string' && named ? `${member}(${named.slice(0, 60)})` : member);
    return Object.assign(() => undefined, { destroy: () => undefined, dispose: () => undefined });
  };
}

export function createContext(state: RuntimeState, manifest: Record<string, unknown>, setupRunning: () => boolean): FrontendLifecycle {
  let ready = false;
  let deferred = false;
  const queued: unknown[] = [];
  const backendHandlers = new Set<(payload: unknown) => void>();
  const eventHandlers = new Map<string, Set<(payload: unknown) => void>>();
  const deliver = (payload: unknown) => tellEach(backendHandlers, () => payload);
  state.channel.on('backend', ({ payload }) => {
    if (ready) return deliver(payload);
    queued.push(payload);
    if (queued.length > MAX_QUEUED) queued.shift();
  });
  state.channel.on('event', ({ event, payload }) => tellEach(eventHandlers.get(event) ?? [], () => payload));
  const markReady = () => {
    if (ready) return;
    ready = true;
    for (const payload of queued.splice(0)) deliver(payload);
    state.channel.send('frame.ready', {});
  };
  const inertNamespace = (name: string, methods: string[]) => Object.fromEntries(methods.map((m) => [m, () => Promise.reject(state.unsupported(`${name}.${m}`))]));
  const reads = createHostReads(state);
  const domain = createDomainMembers(state);
  const messages = createMessages(state);

  const ctx: Record<string, unknown> = {
    manifest,
    host: Object.freeze({ ...hostDescriptor(state.extensionId), surfaces: Object.freeze(reads.surfaces) }),
    locale: { get: () => 'en', subscribe: () => () => undefined },
    theme: inertNamespace('theme', ['listAssets', 'uploadAsset', 'deleteAsset', 'listPacks', 'openEditor']),
    dom: createDom(state),
    events: {
      on(event: string, handler: (payload: unknown) => void) {
        let set = eventHandlers.get(event);
        if (!set) eventHandlers.set(event, (set = new Set()));
        set.add(handler);
        const off = () => set.delete(handler);
        state.atTeardown(off);
        return off;
      },
      emit(event: string, payload: unknown) {
        window.dispatchEvent(new CustomEvent(`spindle:${String(event)}`, { detail: payload }));
      },
    },
    ui: { ...createUi(state), registerComponentOverride: notApplied(state, 'ui.registerComponentOverride', 'host') },
    components: createComponents(state),
    containers: { registerContainer: () => state.inert('containers.registerContainer'), unregisterContainer: () => undefined },
    uploads: {
      async pickFile(options: { accept?: string[]; multiple?: boolean; maxSizeBytes?: number } = {}) {
        const files = await state.channel.request('uploads.pickFile', {
          ...(Array.isArray(options.accept) ? { accept: options.accept.map(String) } : {}),
          ...(options.multiple === true ? { multiple: true } : {}),
          ...(typeof options.maxSizeBytes === 'number' ? { maxSizeBytes: options.maxSizeBytes } : {}),
        });
        return files.map((f) => ({ name: f.name, mimeType: f.mimeType, sizeBytes: f.sizeBytes, bytes: base64ToBytes(f.base64) }));
      },
    },
    permissions: {
      getGranted: async () => [...state.granted],
      async request(permissions: string[], options: { reason?: string } = {}) {
        const wanted = (Array.isArray(permissions) ? permissions : []).map(String);
        if (wanted.every((p) => state.granted.includes(p))) return [...state.granted];
        return state.channel.request('permissions.request', { permissions: wanted, ...(typeof options.reason === 'string' ? { reason: options.reason } : {}) });
      },
    },
    // Its character as the app's state names it (a branch's is its origin's), once that state is of this chat.
    getActiveChat: () => {
      const active = state.hostState.state['chat.active'] as { chatId?: unknown; characterId?: unknown } | undefined;
      const characterId = active?.chatId === state.activeChat && typeof active?.characterId === 'string' ? active.characterId : state.activeChat;
      return { chatId: state.activeChat, characterId };
    },
    ready: markReady,
    deferReady() {
      if (!setupRunning()) return console.warn('[Council Workbench] deferReady() is only honoured while setup() runs.');
      deferred = true;
      setTimeout(() => {
        if (!ready) console.warn('[Council Workbench] ready() was not called within 10 s of deferReady(); released anyway.');
        markReady();
      }, 10_000);
    },
    sendToBackend: (payload: unknown) => state.channel.send('backend.send', { payload: payload ?? null }),
    onBackendMessage(handler: (payload: unknown) => void) {
      backendHandlers.add(handler);
      return () => backendHandlers.delete(handler);
    },
    processes: { register: () => (state.inert('processes.register'), () => undefined) },
    messages: { ...messages, ...domain.messages },
    // Through Lumiverse's API as in Lumiverse, so with the permissions its routes need here (characters, chat_mutation).
    characters: { get: (characterId: string) => pageJson(state.channel, 'GET', `/api/v1/characters/${encodeURIComponent(String(characterId))}`) },
    chats: {
      ...domain.chats,
      updateMessage: (chatId: string, messageId: string, input: { content?: string } = {}) =>
        pageJson(state.channel, 'PUT', `/api/v1/chats/${encodeURIComponent(String(chatId))}/messages/${encodeURIComponent(String(messageId))}`, typeof input?.content === 'string' ? { content: input.content } : {}),
    },
    onTeardown: (handler: () => void) => state.atTeardown(handler),
    // Frontend extensibility v2 (Lumiverse's v2 host): reads at once, the domain members, its own settings.
    state: reads.state,
    settings: domain.settings,
    worldBooks: domain.worldBooks,
    tokens: domain.tokens,
    connections: domain.connections,
    // They change Lumiverse's own components and DOM, which its frames cannot reach here: accepted, and listed on its card.
    registerComponentOverride: notApplied(state, 'registerComponentOverride', 'componentId'),
    registerDomDecorator: notApplied(state, 'registerDomDecorator', 'target'),
    registerMessageAction: notApplied(state, 'registerMessageAction', 'id'),
    // Lumiverse asks a display resolver while drawing its messages, and draws them its own way without one; the
    // Workbench draws messages itself and asks none: a resolver is accepted (LumiRealm requires the member) and listed.
    display: {
      registerResolver: () => notApplied(state, 'display.registerResolver', '')(),
      invalidate: () => undefined,
      setExpression: () => undefined,
    },
  };
  return { ctx, deferred: () => deferred, markReady };
}
