// The `spindle` global an extension sees: every member of Lumiverse's API (shared/spindle/members.ts),
// assembled from one module per namespace; what the Workbench cannot do is inert, never missing.
import { hostFetch } from '../host-fetch';
import { toWorkerToolError, type CancelReason, type ToolInvocationResultMessage, type WorkerToHostMessage } from '../../../shared/protocol';
import { LUMIVERSE_COMPAT_VERSION, SPINDLE_MEMBERS } from '../../../shared/spindle/members';
import { hostDescriptor } from '../../../shared/spindle/host-descriptor';
import { TOAST_LEVELS } from '../../../shared/spindle/toast';
import type { ExtensionManifest, ToolInvocationPayloadDTO } from '../../../shared/types/spindle';
import { createHostRequests, hostErrorToError } from '../host-requests';
import type { Sent } from '../host-port';
import { EventHandlers } from './events';
import { forwardNamespace } from './forward';
import { createAssemble, createGenerate } from './generate';
import { inertMember, inertNamespace } from './inert';
import { createLog, formatLogArgs } from './log';
import { PermissionState } from './permissions';
import { CallSignals } from './call-signals';
import { PipelineRegistry } from './pipeline';
import { LOCAL_USER_ID } from '../../../shared/spindle/lumiverse-ids';
import { createPeers } from './peers';
import { createBackendProcesses } from './backend-processes';
import { createImageGen, createImages, createUploads } from './files';
import { createCommands } from './commands';
import { createEphemeral, createStorage, toBase64 } from './storage';
import { answerJson, ToolCalls } from './tools';


/** A toast's options as data (its title and duration; anything else, functions included, is dropped). */
const plainOptions = (options: unknown) => {
  const o = (options ?? {}) as { title?: unknown; duration?: unknown };
  return { ...(typeof o.title === 'string' ? { title: o.title } : {}), ...(typeof o.duration === 'number' ? { duration: o.duration } : {}) };
};

/** Namespaces the host answers method by method (their data lives in the host). */
const EPHEMERAL = SPINDLE_MEMBERS.find((member) => member.name === 'ephemeral')!.namespace!;
const CHARACTERS = SPINDLE_MEMBERS.find((member) => member.name === 'characters')!.namespace!;
const FORWARDED = new Set(['ui', 'push', 'connections', 'tokens', 'enclave', 'variables', 'council', 'dlc', 'chat', 'chats', 'characters', 'personas', 'world_books', 'macros', 'presets', 'memories', 'regex_scripts', 'users', 'modal', 'prompt', 'textEditor']);

export interface SpindleRuntime {
  api: Record<string, unknown>;
  invoke(kind: 'invocation' | 'simulation', payload: ToolInvocationPayloadDTO): Promise<ToolInvocationResultMessage>;
  cancel(requestId: string, reason: CancelReason): void;
  /** Calls the handlers of a notification event; their failures are logged, never thrown. */
  emit(event: string, payload: unknown): Promise<void>;
  /** The events it has handlers for now (the host sends only those). */
  eventNames(): string[];
  setPermissions(granted: string[]): Promise<void>;
  /** An `rpc` message from the host: an answer, or a chunk of one, to a spindle.* call. */
  onRpc(envelope: unknown): void;
  onFrontendMessage(payload: unknown): Promise<void>;
  /** The person ran one of its commands. */
  onCommand(commandId: string, context: unknown): Promise<void>;
  /** The global `fetch` the extension sees: through the host's spindle.cors when `cors_proxy` is granted. */
  fetch: typeof globalThis.fetch;
  /** Runs one registered pipeline handler for the host (see PipelineCallMessage). */
  runPipeline(requestId: string, kind: string, id: string, args: unknown[]): Promise<ToolInvocationResultMessage>;
  /** The host's news of one of its managed backend processes (spindle.backendProcesses). */
  onProcessNews(kind: 'lifecycle' | 'message', event: unknown): void;
}

/** The manifest in Lumiverse's shape, whichever form the extension's spindle.json used. */
function lumiverseManifest(manifest: ExtensionManifest): Record<string, unknown> {
  const raw = manifest as unknown as Record<string, unknown>;
  return Object.freeze({
    ...raw,
    identifier: typeof raw.identifier === 'string' ? raw.identifier : manifest.id,
    name: manifest.name,
    version: manifest.version,
    author: typeof raw.author === 'string' ? raw.author : '',
    github: typeof raw.github === 'string' ? raw.github : '',
    homepage: typeof raw.homepage === 'string' ? raw.homepage : '',
    description: manifest.description,
    permissions: Object.freeze([...manifest.permissions]),
  });
}

export function createSpindle(options: {
  manifest: ExtensionManifest;
  granted: string[];
  send: (message: WorkerToHostMessage) => void;
  /** Sends a message unless it is over `maxChars` or not JSON (the spindle calls' size rule). */
  post: (message: WorkerToHostMessage, maxChars: number) => Sent;
}): SpindleRuntime {
  const { send, manifest } = options;
  const log = createLog(send);
  const events = new EventHandlers(
    LOCAL_USER_ID,
    (event, error) => log.warn(`A ${event} handler failed:`, error),
    (names) => send({ type: 'events_wanted', events: names }),
  );
  const permissions = new PermissionState(manifest.id, options.granted, events);
  const requests = createHostRequests(options.post);
  // One home for the signals of the host's calls, whichever kind: its cancel finds the call there.
  const signals = new CallSignals();
  const tools = new ToolCalls(events, LOCAL_USER_ID, send, signals);
  const pipeline = new PipelineRegistry(requests, log, LOCAL_USER_ID, signals);
  const touched = new Set<string>();
  const commands = createCommands(requests, log);
  const processes = createBackendProcesses(requests, log);

  const real: Record<string, unknown> = {
    registerTool: (tool: never) => tools.registerTool(tool),
    unregisterTool: (name: string) => tools.unregisterTool(name),
    on: (event: string, handler: never) => events.on(event, handler),
    log: { info: log.info, warn: log.warn, error: log.error, debug: log.debug },
    generate: createGenerate(requests, {
      on: (event, handler) => events.on(event, handler),
      allowed: (permission) => permissions.has(permission),
      denied: (permission, operation) => hostErrorToError({ code: 'PERMISSION_DENIED', message: `${permission} — ${operation} needs the ${permission} permission.` }),
    }),
    assemble: createAssemble(requests),
    storage: createStorage('storage', requests),
    userStorage: createStorage('userStorage', requests),
    uploads: Object.freeze(createUploads(requests)),
    images: Object.freeze(createImages(requests)),
    commands: commands.api,
    backendProcesses: Object.freeze(processes.api),
    // characters as forwarded, with setAvatar's bytes as base64 across the pipe.
    characters: {
      ...forwardNamespace('characters', CHARACTERS, requests),
      setAvatar: (characterId: unknown, avatar: unknown) => {
        const a = (avatar ?? {}) as Record<string, unknown>;
        if (!(a.data instanceof Uint8Array)) throw new TypeError('spindle.characters.setAvatar expects { data: Uint8Array }.');
        const text = (key: string) => (typeof a[key] === 'string' ? { [key]: a[key] } : {});
        return requests.call('characters.setAvatar', { args: [characterId, { data: toBase64(a.data), ...text('filename'), ...text('mime_type') }] } as never);
      },
    },
    imageGen: Object.freeze(
      createImageGen(requests, () =>
        permissions.has('image_gen') ? null : hostErrorToError({ code: 'PERMISSION_DENIED', message: 'image_gen — spindle.imageGen.generateStream needs the image_gen permission.' }),
      ),
    ),
    ephemeral: createEphemeral(forwardNamespace('ephemeral', EPHEMERAL, requests), requests),
    permissions: permissions.api(),
    cors: (url: unknown, init?: unknown) => {
      // A signal in the init cancels the host's fetch; it never crosses the channel.
      if (typeof init !== 'object' || init === null) return requests.call('cors.fetch', { url, init: init ?? {} } as never);
      const { signal, ...rest } = init as { signal?: unknown };
      return requests.call('cors.fetch', { url, init: rest } as never, signal instanceof AbortSignal ? signal : undefined);
    },
    version: { getBackend: async () => LUMIVERSE_COMPAT_VERSION, getFrontend: async () => LUMIVERSE_COMPAT_VERSION },
    manifest: lumiverseManifest(manifest),
    host: Object.freeze(hostDescriptor(manifest.id)),
    // The context handlers' context carries chatId, generationType, dryRun and userId, and cancelGeneration stops the
    // turn (chat/pipeline/extension-stages.ts): Lumiverse's documented gate for registering one.
    contracts: Object.freeze({ preAssemblyGenerationContext: 1 }),
    registerMacro: (def: unknown) => pipeline.registerMacro(def),
    unregisterMacro: (name: unknown) => pipeline.unregisterMacro(name),
    updateMacroValue: (name: unknown, value: unknown) => pipeline.updateMacroValue(name, value),
    registerInterceptor: (handler: unknown, options?: unknown) => pipeline.register('interceptor', 'spindle.registerInterceptor', handler, options),
    registerContextHandler: (handler: unknown, priority?: unknown, options?: unknown) => {
      // Lumiverse's third argument is `{ timeoutMs }`; a bare number is read the same.
      const timeoutMs = typeof options === 'number' ? options : (options as { timeoutMs?: unknown } | null | undefined)?.timeoutMs;
      return pipeline.register('context_handler', 'spindle.registerContextHandler', handler, { ...(typeof priority === 'number' ? { priority } : {}), ...(typeof timeoutMs === 'number' ? { timeoutMs } : {}) });
    },
    registerMacroInterceptor: (handler: unknown, options?: unknown) => pipeline.register('macro_interceptor', 'spindle.registerMacroInterceptor', handler, options),
    registerWorldInfoInterceptor: (handler: unknown, options?: unknown) => pipeline.register('world_info_interceptor', 'spindle.registerWorldInfoInterceptor', handler, options),
    registerMessageContentProcessor: (handler: unknown, options?: unknown) => pipeline.register('message_content_processor', 'spindle.registerMessageContentProcessor', handler, options),
    ...createPeers(manifest.id, requests, pipeline, log),
    sendToFrontend: (payload: unknown) => pipeline.sendToFrontend(payload),
    promptRegex: Object.freeze({ setOwnedChats: (chatIds: unknown) => pipeline.setPromptRegexChats(chatIds) }),
    onFrontendMessage: (handler: unknown) => pipeline.onFrontendMessage(handler),
    // Void, as in Lumiverse: a refused toast (too many) is a warning in its log, never a rejection it must catch.
    toast: Object.fromEntries(
      TOAST_LEVELS.map((level) => [
        level,
        (message: unknown, options?: unknown) =>
          void requests.call(`toast.${level}`, { args: [message, plainOptions(options)] }).catch((err: Error & { code?: string }) => log.warn(`spindle.toast.${level}: ${err.code ?? 'ERROR'}: ${err.message}`)),
      ]),
    ),
  };

  const inertContext = {
    touched(path: string) {
      const member = path.split('.')[0]!;
      if (touched.has(member)) return;
      touched.add(member);
      log.info(`spindle.${path} is not available in the Council Workbench (logged once per member).`);
      requests.call('runtime.inert', { member }).catch(() => undefined);
    },
    hasPermission: (permission: string) => permissions.has(permission),
    denied: (permission: string, operation: string) => hostErrorToError({ code: 'PERMISSION_DENIED', message: `${permission} — ${operation} needs the ${permission} permission.` }),
  };

  let fetchRefusalSaid = false;
  const api: Record<string, unknown> = { extensionId: manifest.id };
  for (const member of SPINDLE_MEMBERS) {
    const own = real[member.name];
    // A real namespace keeps Lumiverse's methods it does not implement, inert (generate.dryRun, …).
    if (own !== undefined && member.namespace && typeof own === 'object' && !Object.isFrozen(own)) api[member.name] = { ...inertNamespace(member.name, member.namespace, inertContext), ...own };
    else if (own !== undefined) api[member.name] = own;
    else if (FORWARDED.has(member.name) && member.namespace) api[member.name] = forwardNamespace(member.name, member.namespace, requests);
    else api[member.name] = inertMember(member, inertContext);
  }

  return {
    api,
    invoke: (kind, payload) => tools.invoke(kind, payload),
    cancel: (requestId, reason) => signals.cancel(requestId, reason),
    emit: (event, payload) => events.emit(event, payload),
    eventNames: () => events.names(),
    setPermissions: (granted) => permissions.update(granted),
    onRpc: (envelope) => requests.receive(envelope),
    onFrontendMessage: (payload) => pipeline.deliverFrontendMessage(payload),
    onCommand: (commandId, context) => commands.invoke(commandId, context),
    onProcessNews: (kind, event) => processes.deliver(kind, event),
    fetch: hostFetch({
      cors: (url, init, signal) => requests.call('cors.fetch', { url, init } as never, signal),
      granted: () => permissions.has('cors_proxy'),
      // Said once: the card lists it once, and a loop of refused fetches sends nothing more.
      refused: () => {
        if (fetchRefusalSaid) return;
        fetchRefusalSaid = true;
        void requests.call('runtime.refused', { what: 'fetch' }).catch(() => undefined);
      },
    }),
    runPipeline: async (requestId, kind, id, args) => {
      try {
        const value = await pipeline.run(requestId, kind, id, args);
        // undefined crosses as null: "no change" for interceptors and handlers alike.
        return answerJson(requestId, value === undefined ? null : value);
      } catch (err) {
        return { type: 'tool_invocation_result', requestId, ok: false, error: toWorkerToolError(err) };
      }
    },
  };
}

export { formatLogArgs };
