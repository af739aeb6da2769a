// The host side of `spindle.*`: each request a worker makes goes to the one place that answers its namespace.
import { HostFailure, type HostError, type Result } from '../../../../shared/errors';
import type { LogLevel } from '../../../../shared/protocol';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { systemClock, systemTimers, type Clock, type Timers } from '../../ports';
import type { SecretStore } from '../../connections/secret-store';
import type { SpindleFacts } from '../extension-entry';
import type { Redactor } from '../../connections/redact';
import { GenerationGate, type ExtensionGenerator, type GenerationLimits } from './generation-gate';
import { chatDataHandlers, type ChatReads } from './chat-data';
import { connectionHandlers, type ConnectionReads } from './connections';
import { corsHandlers } from './cors';
import { councilHandlers, type CouncilReads } from './council-reads';
import { ExtensionEnclave } from './enclave';
import { ExtensionEphemeral } from './ephemeral';
import { StorageAreas } from './storage-areas';
import { fail, type HandlersOf, type SpindleHandlers } from './handlers';
import { PipelineRegistrations } from './registrations';
import { declaresError, dispatchSpindle } from './spindle-dispatch';
import type { SpindleCall } from '../workers/worker-host-types';
import type { GenerationReplyTarget } from './generation-gate';
import { spindleRequest } from '../../../../shared/spindle/requests';
import type { ExtensionToast } from '../../../../shared/spindle/toast';
import { pushHandlers, toastHandlers } from './toasts';
import { userHandlers } from './users';
import { BackendDialogs } from './backend-dialogs';
import type { DialogEvent } from './backend-dialogs';
import { tokenHandlers, type TokenModels } from './tokens';
import { ExtensionVariables, sessionVariables } from './variables';
import { ExtensionProviders } from './extension-providers';
import { SharedRpcPool } from './shared-rpc-pool';
import { ExtensionUploads } from './extension-uploads';
import { FrontendSettings } from './frontend-settings';
import { PageSettings } from './page-settings';
import { ExtensionImages } from './extension-images';
import { imageGenHandlers, type ImageConnections } from './image-gen';
import { ExtensionCommands } from './commands';
import { uiHandlers, windowMoves, type UiNavigation } from './ui-navigation';
import { presetHandlers } from './presets';
import { dryRunHandler } from './prompt-dry-run';
import { memoryHandlers } from './memories';
import { regexScriptHandlers } from './regex-scripts';
import type { PresetStore } from '../../presets/preset-store';
import type { MemoryCortex } from '../../memory/memory-cortex';
import type { RegexStore } from '../../regex/regex-store';
import type { BackendProcesses } from '../workers/backend-processes';
import { backendProcessHandlers } from './backend-process-handlers';

/** A running extension's worker, as other extensions' requests reach it (the shared RPC pool, providers). */
export interface PeerWorker {
  granted: readonly string[];
  /** Runs a handler it registered in its worker (pipeline_call), with a deadline and the caller's cancel. */
  call(kind: string, id: string, args: unknown[], label: string, timeoutMs: number, signal: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; error: HostError }>;
}

/** The worker a request came from, and what it may do right now. */
export interface RequestOrigin {
  extensionId: string;
  denyPermission(permission: ExtensionPermission, operation: string): void;
  /** Asked at the moment of each request: still this extension's running worker, with this permission. */
  allowed(permission: ExtensionPermission): boolean;
  /** The worker's managed backend processes (absent where no worker asks: the console, tests). */
  processes?: BackendProcesses;
}

/** What the host's other services lend to extensions; each may be absent (tests, the CLI before start). */
export interface SpindleHostDeps {
  connections?: () => ConnectionReads | null;
  tokens?: () => TokenModels | null;
  council?: () => CouncilReads | null;
  /** The Workbench's sessions (spindle.chat, chats, characters, personas, world_books). */
  chats?: () => ChatReads | null;
  secrets?: () => SecretStore | null;
  /** The person's generation presets (spindle.presets). */
  presets?: () => PresetStore | null;
  /** The memory cortex over the chats (spindle.memories). */
  memories?: () => MemoryCortex | null;
  /** The regex scripts (spindle.regex_scripts). */
  regexScripts?: () => RegexStore | null;
  /** The person's connections that make images (spindle.imageGen). */
  imageGen?: () => ImageConnections | null;
  /** Whether a Workbench window is in view (spindle.users.isVisible). */
  windowVisible?: () => boolean;
  /** The preset the chats use now (Lumiverse's activeLoomPresetId); null when none is chosen. */
  activePresetId?: () => string | null;
  fetch?: typeof globalThis.fetch;
}

export interface SpindleHostOptions {
  /** `<data-dir>/extension-data`: one folder per extension. */
  dataRoot: string;
  generations: GenerationGate;
  log(extensionId: string, level: LogLevel, text: string): void;
  clock?: Clock;
  /** For spindle.cors's time cap (fake time in tests). */
  timers?: Timers;
  deps?: SpindleHostDeps;
  /** Something an extension registered or used changed (its card shows it). */
  changed?(extensionId: string): void;
  /** A permission check failed: the worker gets PERMISSION_DENIED (the manager tells it). */
  denied?(extensionId: string, permission: ExtensionPermission, operation: string): void;
  /** Its backend called sendToFrontend. */
  toFrontend?(extensionId: string, payload: unknown): void;
  /** Its backend called spindle.toast.* (the window shows it). */
  toast?(extensionId: string, toast: ExtensionToast): void;
  /** Its backend asked to take the person somewhere (spindle.ui: the window moves). */
  navigate?(extensionId: string, to: UiNavigation): void;
  /** Host events of the dialogs its backend opens (spindle.modal, prompt, textEditor). */
  dialogEvent?(event: DialogEvent): void;
  /** A running extension's worker; null when it is not running. */
  peer?(extensionId: string): PeerWorker | null;
}


export class SpindleHost {
  private readonly storages: StorageAreas;
  /** One handler per method of the spindle request contract. */
  private readonly handlers: SpindleHandlers<RequestOrigin>;
  private readonly inert = new Map<string, Set<string>>();
  /** Per extension: `permission — operation` it was refused for lack of a permission (its card says so). */
  private readonly refusedFor = new Map<string, Set<string>>();
  readonly registrations: PipelineRegistrations;
  readonly variables: ExtensionVariables;
  readonly providers: ExtensionProviders;
  /** What extensions' frontends streamed in (the frames' /api/v1/spindle-uploads). */
  readonly uploads: ExtensionUploads;
  /** The images extensions keep (spindle.images), served to their frames. */
  readonly images: ExtensionImages;
  /** Their frontends' own settings (ctx.settings). */
  readonly frontendSettings: FrontendSettings;
  /** Their frontends' rows of Lumiverse's settings (REST `/api/v1/settings/<key>`). */
  readonly pageSettings: PageSettings;
  /** Their command palette entries (spindle.commands), run from their cards. */
  readonly commands: ExtensionCommands;
  /** The dialogs their backends open for the person. */
  readonly dialogs: BackendDialogs;
  private readonly pool: SharedRpcPool;
  private readonly moves: ReturnType<typeof windowMoves>;

  constructor(private readonly options: SpindleHostOptions) {
    const deps = options.deps ?? {};
    const clock = options.clock ?? systemClock;
    const changed = (id: string) => options.changed?.(id);
    this.registrations = new PipelineRegistrations(
      () => clock.now(),
      changed,
      (id, permission, operation) => {
        // A registration refused at load (an interceptor without its permission) shows on the card, as a call does.
        this.noteRefused(id, permission, operation);
        options.denied?.(id, permission, operation);
      },
      (id, payload) => options.toFrontend?.(id, payload),
    );
    const chats = deps.chats ?? (() => null);
    this.variables = new ExtensionVariables(options.dataRoot, sessionVariables(chats));
    this.providers = new ExtensionProviders(changed);
    this.uploads = new ExtensionUploads(options.dataRoot, clock);
    this.images = new ExtensionImages(options.dataRoot, clock, (sessionId) => chats()?.avatarFile(sessionId) ?? null);
    this.frontendSettings = new FrontendSettings(options.dataRoot);
    this.moves = windowMoves(clock, (id, to) => options.navigate?.(id, to));
    this.pageSettings = new PageSettings(options.dataRoot, () => clock.now());
    this.storages = new StorageAreas(options.dataRoot);
    this.commands = new ExtensionCommands(changed);
    this.dialogs = new BackendDialogs((event) => options.dialogEvent?.(event), options.timers ?? systemTimers, clock);
    const peer = (id: string) => options.peer?.(id) ?? null;
    this.pool = new SharedRpcPool((id) => {
      const worker = peer(id);
      return worker && { granted: worker.granted, call: (endpoint, context, timeoutMs, signal) => worker.call('rpc_endpoint', endpoint, [context], `shared RPC endpoint ${endpoint}`, timeoutMs, signal) };
    }, changed);
    const showToast = (id: string, toast: ExtensionToast) => {
      const kind = toast.push ? 'notification' : 'toast';
      options.log(id, toast.level === 'error' ? 'error' : toast.level === 'warning' ? 'warn' : 'info', `${kind}: ${toast.title ? `${toast.title} — ` : ''}${toast.message}`);
      options.toast?.(id, toast);
    };
    this.handlers = {
      ...this.registrations.handlers(),
      ...this.variables.handlers(),
      ...this.pool.handlers(),
      ...this.providers.handlers(),
      ...this.uploads.handlers(),
      ...this.images.handlers(),
      ...this.commands.handlers(),
      ...uiHandlers(this.moves),
      ...imageGenHandlers(deps.imageGen ?? (() => null), this.images, () => clock.now()),
      ...new ExtensionEnclave(options.dataRoot, deps.secrets ?? (() => null)).handlers(),
      ...new ExtensionEphemeral(options.dataRoot, clock).handlers(),
      ...connectionHandlers(deps.connections ?? (() => null)),
      ...tokenHandlers(deps.tokens ?? (() => null)),
      ...councilHandlers(deps.council ?? (() => null)),
      ...corsHandlers(deps.fetch, undefined, undefined, options.timers),
      ...chatDataHandlers(chats, () => clock.now()),
      ...presetHandlers(deps.presets ?? (() => null), deps.regexScripts ?? (() => null)),
      ...memoryHandlers(deps.memories ?? (() => null), chats),
      ...regexScriptHandlers(deps.regexScripts ?? (() => null)),
      ...toastHandlers(clock, showToast),
      ...pushHandlers(clock, showToast),
      ...userHandlers(deps.windowVisible ?? (() => false)),
      ...this.dialogs.handlers(),
      ...backendProcessHandlers(),
      ...this.storages.handlers('storage'),
      ...this.storages.handlers('userStorage'),
      ...this.generateHandlers(),
      ...dryRunHandler(chats),
      'runtime.inert': ({ member }, origin) => {
        this.noteInert(origin.extensionId, member);
        return null;
      },
      'runtime.refused': (_params, origin) => {
        // In the host's words, and only when it truly lacks the permission: a worker writes nothing of its own on its card.
        if (!origin.allowed('cors_proxy')) this.noteRefused(origin.extensionId, 'cors_proxy', 'fetch()');
        return null;
      },
    };
  }

  /** Numbers the generations this host hands its gate (the gate keys them by extension and id). */
  private generationSeq = 0;

  /**
   * Answers one call through the contract: checked params, permission, handler, checked answer. A code the method does
   * not declare is a host bug: logged, and answered INTERNAL.
   */
  async answer(origin: RequestOrigin, method: string, params: unknown, call: SpindleCall): Promise<Result<unknown>> {
    const refused = (permission: ExtensionPermission, operation: string) => {
      this.noteRefused(origin.extensionId, permission, operation);
      this.options.log(origin.extensionId, 'warn', `${operation} refused: the ${permission} permission is not granted.`);
      origin.denyPermission(permission, operation);
    };
    try {
      return { ok: true, value: await dispatchSpindle(this.handlers, origin, method, params, { call, refused }) };
    } catch (err) {
      const name = String(method).slice(0, 120);
      if (!(err instanceof HostFailure)) {
        this.options.log(origin.extensionId, 'error', `spindle.${name} failed: ${(err as Error)?.message ?? String(err)}`);
        return { ok: false, error: { code: 'INTERNAL', message: `spindle.${name} failed on the host.` } };
      }
      const spec = spindleRequest(method);
      if (!spec || declaresError(spec, err.error.code)) return { ok: false, error: err.error };
      this.options.log(origin.extensionId, 'error', `Host bug: spindle.${name} answered ${err.error.code}, which its contract does not declare.`);
      return { ok: false, error: { code: 'INTERNAL', message: `spindle.${name} failed on the host (it answered ${err.error.code}, which its contract does not declare).` } };
    }
  }

  /** The chat extensions see as active (a starting worker hears CHAT_SWITCHED with it). */
  activeChatId(): string | null {
    return this.chats()?.activeId() ?? null;
  }

  /**
   * Its frame's route went to a chat (`/chat/<id>`, Tapestry's "go to branch"): the window opens it, as Lumiverse's
   * router does, counted with its other moves of the window. NOT_FOUND for a chat that is no saved session.
   */
  openChat(extensionId: string, chatId: string): null {
    if (!this.chats()?.saved(chatId)) fail('NOT_FOUND', `There is no chat ${chatId.slice(0, 200)} to open.`, '/chatId');
    return this.moves(extensionId, { action: 'openChat', chatId });
  }

  /** The preset the chats use now, when one is chosen. */
  activePresetId(): string | null {
    return this.options.deps?.activePresetId?.() ?? null;
  }

  /** The Workbench's sessions as extensions read them, when this host has them. */
  chats(): ChatReads | null {
    return this.options.deps?.chats?.() ?? null;
  }

  /** Ends every request of an extension still running on the host (its worker stopped or lost a permission). */
  abortAll(extensionId: string, error: HostError): void {
    this.options.generations.abortAll(extensionId, error);
  }

  /** Its worker stopped: what it registered for the pipeline went with it. */
  workerStopped(extensionId: string): void {
    this.registrations.clear(extensionId);
    this.pool.clear(extensionId);
    this.providers.clear(extensionId);
    this.commands.clear(extensionId);
    this.dialogs.closeAll(extensionId);
  }

  /** Every extension's requests (host shutdown). */
  dispose(error: HostError): void {
    this.options.generations.dispose(error);
  }

  /** What an extension's card shows of its spindle side: inert members it used, what it registered. */
  facts(extensionId: string): SpindleFacts {
    const regs = this.registrations.of(extensionId);
    return {
      inertTouched: [...(this.inert.get(extensionId) ?? [])].sort(),
      refused: [...(this.refusedFor.get(extensionId) ?? [])].sort(),
      macros: [...regs.macros.values()].map((m) => m.name),
      pipeline: [...regs.pipeline.values()].map((r) => `${r.kind} (priority ${r.priority})`),
      providers: this.providers.describe(extensionId),
      shared: this.pool.ownedBy(extensionId),
      commands: this.commands.list(extensionId),
    };
  }

  /** The extension was removed: its storage objects go (its folder is the caller's to delete). */
  forget(extensionId: string): void {
    this.storages.forget(extensionId);
    this.inert.delete(extensionId);
    this.refusedFor.delete(extensionId);
    this.uploads.forget(extensionId);
    this.images.forget(extensionId);
    this.frontendSettings.forget(extensionId);
    this.pageSettings.forget(extensionId);
  }

  /** A call refused for a permission it lacks: kept for its card (a grant clears what it allows: permissionGranted). */
  noteRefused(extensionId: string, permission: string, operation: string): void {
    let set = this.refusedFor.get(extensionId);
    if (!set) this.refusedFor.set(extensionId, (set = new Set()));
    const line = `${permission} — ${operation}`;
    if (set.has(line) || set.size >= 50) return;
    set.add(line);
    this.options.changed?.(extensionId);
  }

  /** A permission was revoked: what it published in the pool under the default policy goes (shared-rpc-pool.ts). */
  permissionRevoked(extensionId: string): void {
    this.pool.revoked(extensionId);
  }

  /** A permission was granted: what it refused for lack of it is no longer to tell. */
  permissionGranted(extensionId: string, permission: string): void {
    const set = this.refusedFor.get(extensionId);
    if (!set) return;
    for (const line of [...set]) if (line.startsWith(`${permission} — `)) set.delete(line);
  }

  private noteInert(extensionId: string, member: unknown): void {
    if (typeof member !== 'string' || !/^[A-Za-z_]{1,40}$/.test(member)) return;
    let set = this.inert.get(extensionId);
    if (!set) this.inert.set(extensionId, (set = new Set()));
    if (set.has(member) || set.size >= 100) return;
    set.add(member);
    this.options.changed?.(extensionId);
  }

  /** spindle.generate.*: the gate checks the permission itself (again for each chunk) and answers; the worker's cancel ends it. */
  private generateHandlers(): Omit<HandlersOf<'generate', RequestOrigin>, 'generate.dryRun'> {
    const generate =
      (kind: 'quiet' | 'raw' | 'lumiverse' | 'stream') =>
      (input: unknown, origin: RequestOrigin, call: SpindleCall) =>
        new Promise<unknown>((resolve, reject) => {
          // The gate refuses it (PERMISSION_DENIED); its card says so too, as for any other permission it lacks.
          if (!origin.allowed('generation')) this.noteRefused(origin.extensionId, 'generation', `spindle.generate.${kind === 'lumiverse' ? ((input as { type?: unknown } | null)?.type ?? 'quiet') : kind}`);
          const requestId = `g${++this.generationSeq}`;
          const onAbort = () => {
            this.options.generations.cancel(origin.extensionId, target, requestId);
            reject(new HostFailure({ code: 'CANCELLED', message: `spindle.generate.${kind} was cancelled.` }));
          };
          const target: GenerationReplyTarget = {
            respond: (_id, result) => {
              call.signal.removeEventListener('abort', onAbort);
              if (result.ok) resolve(result.value);
              else reject(new HostFailure(result.error));
            },
            chunk: (_id, value) => call.emit(value),
            denyPermission: (permission, operation) => origin.denyPermission(permission, operation),
          };
          call.signal.addEventListener('abort', onAbort, { once: true });
          this.options.generations.request(origin.extensionId, target, { requestId, kind, input }, () => origin.allowed('generation'));
        });
    return { 'generate.quiet': generate('quiet'), 'generate.raw': generate('raw'), 'generate.lumiverse': generate('lumiverse'), 'generate.stream': generate('stream') };
  }
}

/** A SpindleHost with its generation gate (permission, caps, timeout, redacted answers). */
export function createSpindleHost(
  options: Omit<SpindleHostOptions, 'generations'> & { generator?: ExtensionGenerator; redactor?: Redactor; limits?: Partial<GenerationLimits>; timers?: Timers },
): SpindleHost {
  const generations = new GenerationGate({
    ...(options.generator ? { generator: options.generator } : {}),
    ...(options.redactor ? { redactor: options.redactor } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
    log: options.log,
  });
  return new SpindleHost({ ...options, generations });
}
