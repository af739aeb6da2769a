// The host side of `spindle.*`: each request a worker makes goes to the one place that answers its namespace.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure, type HostError } from '../../../../shared/errors';
import type { HostRequestMessage, LogLevel } from '../../../../shared/protocol';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { systemClock, type Clock, type Timers } from '../../ports';
import type { SecretStore } from '../../connections/secret-store';
import type { SpindleFacts } from '../extension-entry';
import type { Redactor } from '../../connections/redact';
import { GenerationGate, type ExtensionGenerator, type GenerationLimits } from './generation-gate';
import { CHAT_DATA_NAMESPACES, chatDataNamespace, macrosNamespace, type ChatReads } from './chat-data';
import { connectionsNamespace, type ConnectionReads } from './connections';
import { corsNamespace } from './cors';
import { councilNamespace, type CouncilReads } from './council-reads';
import { ExtensionEnclave } from './enclave';
import { ExtensionEphemeral } from './ephemeral';
import { ExtensionStorage } from './extension-storage';
import { argsOf, type NamespaceHandler } from './namespace';
import { PipelineRegistrations } from './registrations';
import type { ExtensionToast } from '../../../../shared/spindle/toast';
import { toastsNamespace } from './toasts';
import { tokensNamespace, type TokenModels } from './tokens';
import { ExtensionVariables } from './variables';

/** The worker a request came from, and what it may do right now. */
export interface RequestOrigin {
  extensionId: string;
  respond(requestId: string, result: { ok: true; value: unknown } | { ok: false; error: HostError }): void;
  chunk?(requestId: string, value: unknown): void;
  denyPermission(permission: ExtensionPermission, operation: string): void;
  /** Asked at the moment of each request: still this extension's running worker, with this permission. */
  allowed(permission: ExtensionPermission): boolean;
}

/** What the host's other services lend to extensions; each may be absent (tests, the CLI before start). */
export interface SpindleHostDeps {
  connections?: () => ConnectionReads | null;
  tokens?: () => TokenModels | null;
  council?: () => CouncilReads | null;
  /** The Workbench's sessions (spindle.chat, chats, characters, personas, world_books). */
  chats?: () => ChatReads | null;
  secrets?: () => SecretStore | null;
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
}

/** Folders of an extension's data folder that belong to the host's areas; anything else predates them. */
const AREAS = { storage: 'storage', userStorage: 'user-local' } as const;
const RESERVED = new Set<string>([...Object.values(AREAS), 'ephemeral', 'ephemeral.json', 'variables.json', 'enclave-keys.json']);

export class SpindleHost {
  private readonly storages = new Map<string, ExtensionStorage>();
  private readonly namespaces = new Map<string, NamespaceHandler>();
  private readonly inert = new Map<string, Set<string>>();
  readonly registrations: PipelineRegistrations;
  readonly variables: ExtensionVariables;

  constructor(private readonly options: SpindleHostOptions) {
    const deps = options.deps ?? {};
    const clock = options.clock ?? systemClock;
    const changed = (id: string) => options.changed?.(id);
    this.registrations = new PipelineRegistrations(
      () => clock.now(),
      changed,
      (id, permission, operation) => options.denied?.(id, permission, operation),
      (id, payload) => options.toFrontend?.(id, payload),
    );
    this.variables = new ExtensionVariables(options.dataRoot);
    this.namespaces.set('pipeline', this.registrations);
    this.namespaces.set('variables', this.variables);
    this.namespaces.set('enclave', new ExtensionEnclave(options.dataRoot, deps.secrets ?? (() => null)));
    this.namespaces.set('ephemeral', new ExtensionEphemeral(options.dataRoot, clock));
    this.namespaces.set('connections', connectionsNamespace(deps.connections ?? (() => null)));
    this.namespaces.set('tokens', tokensNamespace(deps.tokens ?? (() => null)));
    this.namespaces.set('council', councilNamespace(deps.council ?? (() => null)));
    this.namespaces.set('cors', corsNamespace(deps.fetch, undefined, undefined, options.timers));
    for (const name of CHAT_DATA_NAMESPACES) this.namespaces.set(name, chatDataNamespace(name, deps.chats ?? (() => null)));
    this.namespaces.set('macros', macrosNamespace(deps.chats ?? (() => null)));
    this.namespaces.set(
      'toast',
      toastsNamespace(clock, (id, toast) => {
        options.log(id, toast.level === 'error' ? 'error' : toast.level === 'warning' ? 'warn' : 'info', `toast: ${toast.title ? `${toast.title} — ` : ''}${toast.message}`);
        options.toast?.(id, toast);
      }),
    );
  }

  request(origin: RequestOrigin, message: HostRequestMessage): void {
    const { requestId, method, params } = message;
    const dot = method.indexOf('.');
    const namespace = method.slice(0, dot);
    const name = method.slice(dot + 1);
    if (namespace === 'generate') {
      const kind = name === 'quiet' || name === 'raw' || name === 'lumiverse' || name === 'stream' ? name : null;
      if (!kind) return origin.respond(requestId, { ok: false, error: { code: 'UNSUPPORTED_HERE', message: `spindle.generate.${name} is not available in the Council Workbench.` } });
      this.options.generations.request(origin.extensionId, origin, { requestId, kind, input: params }, () => origin.allowed('generation'));
      return;
    }
    if (namespace === 'runtime' && name === 'inert') {
      this.noteInert(origin.extensionId, (params as { member?: unknown } | null)?.member);
      return origin.respond(requestId, { ok: true, value: null });
    }
    if (namespace === 'storage' || namespace === 'userStorage') {
      return this.answer(origin, requestId, method, () => this.storage(origin.extensionId, namespace).handle(name, params));
    }
    const handler = this.namespaces.get(namespace);
    if (!handler) {
      return origin.respond(requestId, { ok: false, error: { code: 'UNSUPPORTED_HERE', message: `spindle.${method} is not available in the Council Workbench.` } });
    }
    const permission = handler.permission?.(name);
    if (permission && !origin.allowed(permission)) {
      this.options.log(origin.extensionId, 'warn', `spindle.${method} refused: the ${permission} permission is not granted.`);
      origin.denyPermission(permission, `spindle.${method}`);
      return origin.respond(requestId, { ok: false, error: { code: 'PERMISSION_DENIED', message: `PERMISSION_DENIED: ${permission} — spindle.${method} needs the ${permission} permission.`, hint: 'Grant it under Extensions.' } });
    }
    // pipeline.* and cors take one params object; the data namespaces take the extension's arguments.
    const args = namespace === 'pipeline' || namespace === 'cors' ? [params] : argsOf(params);
    this.answer(origin, requestId, method, () => handler.handle(origin, name, args));
  }

  /** The chat extensions see as active (a starting worker hears CHAT_SWITCHED with it). */
  activeChatId(): string | null {
    return this.options.deps?.chats?.()?.activeId() ?? null;
  }

  cancel(origin: RequestOrigin, requestId: string): void {
    this.options.generations.cancel(origin.extensionId, origin, requestId);
  }

  /** Ends every request of an extension still running on the host (its worker stopped or lost a permission). */
  abortAll(extensionId: string, error: HostError): void {
    this.options.generations.abortAll(extensionId, error);
  }

  /** Its worker stopped: what it registered for the pipeline went with it. */
  workerStopped(extensionId: string): void {
    this.registrations.clear(extensionId);
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
      macros: [...regs.macros.values()].map((m) => m.name),
      pipeline: [...regs.pipeline.values()].map((r) => `${r.kind} (priority ${r.priority})`),
    };
  }

  /** The extension was removed: its storage objects go (its folder is the caller's to delete). */
  forget(extensionId: string): void {
    for (const key of [...this.storages.keys()]) if (key.startsWith(`${extensionId}\0`)) this.storages.delete(key);
    this.inert.delete(extensionId);
  }

  private noteInert(extensionId: string, member: unknown): void {
    if (typeof member !== 'string' || !/^[A-Za-z_]{1,40}$/.test(member)) return;
    let set = this.inert.get(extensionId);
    if (!set) this.inert.set(extensionId, (set = new Set()));
    if (set.has(member) || set.size >= 100) return;
    set.add(member);
    this.options.changed?.(extensionId);
  }

  private answer(origin: RequestOrigin, requestId: string, method: string, work: () => unknown): void {
    void Promise.resolve()
      .then(work)
      .then(
        (value) => origin.respond(requestId, { ok: true, value: value ?? null }),
        (err: unknown) => {
          if (err instanceof HostFailure) return origin.respond(requestId, { ok: false, error: err.error });
          this.options.log(origin.extensionId, 'error', `spindle.${method} failed: ${(err as Error)?.message ?? String(err)}`);
          origin.respond(requestId, { ok: false, error: { code: 'INTERNAL', message: `spindle.${method} failed on the host.` } });
        },
      );
  }

  private storage(extensionId: string, area: keyof typeof AREAS): ExtensionStorage {
    const key = `${extensionId}\0${area}`;
    let storage = this.storages.get(key);
    if (!storage) {
      const folder = path.join(this.options.dataRoot, extensionId);
      const root = path.join(folder, AREAS[area]);
      if (area === 'storage') adoptEarlierFiles(folder, root);
      fs.mkdirSync(root, { recursive: true });
      storage = new ExtensionStorage(root);
      this.storages.set(key, storage);
    }
    return storage;
  }
}

/** Files an extension wrote straight into its data folder (before workers were contained) move into its storage. */
function adoptEarlierFiles(folder: string, root: string): void {
  if (fs.existsSync(root) || !fs.existsSync(folder)) return;
  const earlier = fs.readdirSync(folder).filter((name) => !RESERVED.has(name));
  fs.mkdirSync(root, { recursive: true });
  for (const name of earlier) fs.renameSync(path.join(folder, name), path.join(root, name));
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
