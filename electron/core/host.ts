// createHost(ports): wires the core services to the contract and owns their lifetime.
import path from 'node:path';
import type { Handlers } from '../../shared/contract';
import { Emitter } from './util/emitter';
import type { HostEvent, HostEventListener } from '../../shared/contract/events';
import type { Notice } from '../../shared/notices';
import { DEFAULT_WORKER_MEMORY_MB } from '../../shared/settings';
import { createDispatcher, type Dispatcher } from './contract/dispatcher';
import { ExtensionManager } from './extensions/extension-manager';
import { spindleDeps } from './extensions/spindle-host/spindle-deps';
import { regexHandlers } from './chat/regex-handlers';
import type { RegexScripts } from './regex/regex-scripts';
import { PresetStore } from './presets/preset-store';
import { MemoryCortex } from './memory/memory-cortex';
import { chatReads } from './chat/chat-reads';
import { NodeLauncher, workerRuntimeSource, type Launcher } from './extensions/workers/launcher';
import { settingsExtensionState } from './extensions/settings-state';
import { extensionHandlers } from './extensions/handlers';
import { toolHandlers } from './safety/tool-handlers';
import { systemClock, systemTimers, type Clock, type Logger, type SettingsBackendFactory, type Timers } from './ports';
import { ToolRegistry } from './registry/tool-registry';
import { SettingsStore } from './settings/settings-store';
import { createRedactingLogger, Redactor } from './connections/redact';
import type { Env, SecretStore } from './connections/secret-store';
import type { LlmClient } from './llm/client';
import { createLlmServices, type LlmServices } from './llm-services';
import { createExtensionGenerator } from './generation/extension-generator';
import { chatHandlers } from './chat/handlers';
import { sessionFileHandlers } from './imports/session-file-handlers';
import { settingsForClients, settingsHandlers } from './settings/handlers';
import { connectionHandlers } from './connections/handlers';
import { sidecarHandlers } from './sidecar/handlers';
import type { ChatEngine } from './chat/chat-engine';
import type { DeltaBatcherOptions } from './chat/delta-batcher';
import type { DetectOptions } from './connections/detect';
import type { ConnectionService } from './connections/connection-service';
import type { SidecarService } from './sidecar/sidecar-service';
import { CouncilService } from './council/council-service';
import { chatCouncilPort } from './chat-council-port';
import { mcpSourceId } from '../../shared/types/mcp';
import { installNoteTools } from './notes/note-tools';
import { councilHandlers } from './council/handlers';
import { PackStore, resolveBundledPacksDir } from './packs/pack-store';
import { createSafety, type SafetyServices } from './safety';
import { interactiveApprovalPolicy, patternApprovalPolicy, type ApprovalPolicy } from './safety/approval-policy';
import { safetyHandlers } from './safety/handlers';
import { McpManager, type McpManagerOptions } from './mcp/mcp-manager';
import { makeDataDirPrivate } from './data-privacy';
import { writesSettled } from './util/atomic-write';
import { mcpHandlers, settingsMcpStore } from './mcp/handlers';
import { backupHandlers } from './backup/handlers';
import { localModelHandlers } from './local-model/handlers';
import { probeHandlers } from './probe/handlers';
import type { EngineLauncher } from './local-model/engine-launcher';
import { secretBackedMcpStore } from './mcp/secret-config-store';

export interface HostPorts {
  dataDir: string;
  mode: 'desktop' | 'browser' | 'cli';
  settingsBackend: SettingsBackendFactory;
  log: Logger;
  clock?: Clock;
  /** Every service's timers (tests drive them with fake time). Default: the system's. */
  timers?: Timers;
  /** The council's dice: the seed of each turn's roll (an extension's test case fixes it; default random). */
  councilSeed?: () => number;
  /** Starts extension workers: utilityProcess in the desktop app, child_process.fork in Node. */
  launcher?: Launcher;
  /** The worker runtime script (built out/main/worker.js in the desktop app; the .ts source under tsx). */
  workerEntry?: string;
  /** The local model engine's script (built out/…/engine.js; default the .ts source under tsx). */
  engineEntry?: string;
  /** Starts the engine: a utilityProcess in the desktop app; a child process in Node (default). */
  engineLauncher?: EngineLauncher;
  /** Bundled extensions folder; null for none (tests). Default: the repository's resources/extensions. */
  bundledExtensionsDir?: string | null;
  /**
   * false: extensions are read but their workers not started, and MCP servers not connected (a CLI command that
   * only reads or writes the data folder). Default true.
   */
  startToolSources?: boolean;
  /**
   * true: extension workers and MCP servers start when the door calls host.startToolSources(), once its window or
   * page is served (they show as starting meanwhile). Default false: they start as the host opens.
   */
  deferToolSources?: boolean;
  /** API keys: safeStorage in the desktop app; default a 0600 file in the data folder (with a visible warning). */
  secrets?: SecretStore;
  /** The LLM client (tests inject one with instant retries); its redactor becomes the host's. */
  llm?: LlmClient;
  /** Where env key references are read; default process.env. */
  env?: Env;
  /** chat.delta coalescing (benchmarks and tests). */
  chatBatching?: DeltaBatcherOptions;
  /** Where connections.detect looks for local servers (tests point it at their own ports). Default: the usual ports. */
  detect?: DetectOptions;
  /** Bundled Lumia packs; null for none. Default: `packs` beside bundledExtensionsDir, else the repository's resources/packs. */
  bundledPacksDir?: string | null;
  /**
   * Who answers tool approvals: a person through approvals.respond (desktop and browser default), or
   * --approve glob patterns (CLI default: none, so every approval is denied).
   */
  approvalPolicy?: ApprovalPolicy;
  /** MCP client timing (tests); defaults: 10 s initialize, VS Code crash policy. */
  mcp?: Pick<McpManagerOptions, 'initializeTimeoutMs' | 'crash' | 'refreshDebounceMs'>;
  /** Tests: check every answer against its method's output schema (the wire types are derived from those schemas). */
  checkOutputs?: boolean;
}

export interface Host {
  api: Dispatcher;
  onEvent(listener: HostEventListener): () => void;
  settings: SettingsStore;
  registry: ToolRegistry;
  extensions: ExtensionManager;
  /** The one redactor: every key the host sees is scrubbed from logs and errors. */
  redactor: Redactor;
  connections: ConnectionService;
  /** The council's SidecarPort. */
  sidecar: SidecarService;
  /** The Workbench chat; the council service plugs in with chat.setCouncil(port). */
  chat: ChatEngine;
  /** The regex scripts the chat runs and extensions write. */
  regex: RegexScripts;
  llm: LlmClient;
  council: CouncilService;
  packs: PackStore;
  mcp: McpManager;
  /** Approvals, result caches, the guarded invoker every tool call goes through, the note tools. */
  safety: SafetyServices;
  /** Starts the extension workers and MCP servers of a host opened with deferToolSources; once, and never for a data-only host. */
  startToolSources(): void;
  /** What the host has to tell a person now (settings recovered, an extension held in safe mode…), as host.status has it. */
  notices(): Notice[];
  dispose(): Promise<void>;
}

export async function createHost(ports: HostPorts): Promise<Host> {
  const redactor = ports.llm?.redactor ?? new Redactor();
  ports = { ...ports, log: createRedactingLogger(ports.log, redactor) };
  const clock = ports.clock ?? systemClock;
  const timers = ports.timers ?? systemTimers;
  const listeners = new Emitter<HostEvent>((err) => ports.log.error('event listener failed', err));
  const emit = (event: HostEvent) => listeners.emit(event);

  const notices: Notice[] = [];
  let noticeSeq = 0;
  const addNotice = (notice: Omit<Notice, 'id' | 'at'>) => {
    const full: Notice = { ...notice, id: `n${++noticeSeq}`, at: clock.now() };
    notices.push(full);
    emit({ type: 'notice.added', notice: full });
  };

  const { tightened } = makeDataDirPrivate(ports.dataDir);
  if (tightened > 0) ports.log.info(`Data folder made private to you: ${tightened} files and folders no longer readable by others.`);
  const settings = await SettingsStore.open({ dataDir: ports.dataDir, backend: ports.settingsBackend, clock, log: ports.log });
  for (const problem of settings.problems) {
    addNotice({
      level: 'warning',
      code: 'SETTINGS_RECOVERED',
      message: problem.partial
        ? `Your settings file was ${problem.reason}; everything else was loaded. The original is kept as ${problem.movedTo}.`
        : `Your settings file was ${problem.reason}. It was kept aside as ${problem.movedTo}; ${settings.recoveredFromBackup ? 'the last good copy' : 'the defaults'} were loaded.`,
    });
  }
  settings.onChange((next) => emit({ type: 'settings.changed', settings: settingsForClients(next) }));

  const registry = new ToolRegistry({ clock, timers, log: ports.log });
  // Many registrations arrive in one burst at start-up: send the list once per burst.
  let toolsChangedQueued = false;
  registry.onEvent(() => {
    if (toolsChangedQueued) return;
    toolsChangedQueued = true;
    queueMicrotask(() => {
      toolsChangedQueued = false;
      emit({ type: 'tools.changed', tools: registry.list() });
    });
  });

  // The guard asks the extensions (created below) whether a source is trusted.
  let trustedExtension: (id: string) => boolean = () => false;
  const safety = createSafety({
    dataDir: ports.dataDir,
    registry,
    settings,
    policy: ports.approvalPolicy ?? (ports.mode === 'cli' ? patternApprovalPolicy([]) : interactiveApprovalPolicy),
    clock,
    timers,
    log: ports.log,
    emit,
    trustedSource: (id) => trustedExtension(id),
  });
  const notes = installNoteTools(registry, safety.guard, safety.notesRoot);

  const llmServices: LlmServices = createLlmServices({
    dataDir: ports.dataDir,
    settings,
    tools: safety.guard,
    log: ports.log,
    redactor,
    clock,
    timers,
    emit,
    ...(ports.secrets ? { secrets: ports.secrets } : {}),
    ...(ports.llm ? { llm: ports.llm } : {}),
    ...(ports.env ? { env: ports.env } : {}),
    ...(ports.chatBatching ? { batching: ports.chatBatching } : {}),
    ...(ports.detect ? { detect: ports.detect } : {}),
    ...(ports.engineEntry ? { engineEntry: ports.engineEntry } : {}),
    ...(ports.engineLauncher ? { engineLauncher: ports.engineLauncher } : {}),
    onModelDownload: (download) => emit({ type: 'models.download', download }),
    onProbeProgress: (connectionId, done, total) => emit({ type: 'models.probe', connectionId, done, total }),
  });
  const secretsInfo = llmServices.secrets.describe();
  /** After a commit to the chats' database by a store beside the sessions (checkpoints follow what is written). */
  const dbCommitted = () => llmServices.sessions.checkpoints.committed();
  if (secretsInfo.warning && ports.mode === 'desktop') addNotice({ level: 'warning', code: 'SECRETS_UNENCRYPTED', message: secretsInfo.warning });

  // Extensions read the council through spindle.council; it is created once their tools are registered.
  // eslint-disable-next-line prefer-const -- the closure above reads it before the council exists
  let council: CouncilService | undefined;
  const extensions = new ExtensionManager({
    dataDir: ports.dataDir,
    bundledDir: ports.bundledExtensionsDir,
    launcher: ports.launcher ?? new NodeLauncher({ runtimeDir: path.join(ports.dataDir, 'runtime') }),
    workerEntry: ports.workerEntry ?? workerRuntimeSource(),
    sink: registry,
    state: settingsExtensionState(settings),
    clock,
    timers,
    log: ports.log,
    worker: () => ({ memoryCapBytes: (settings.get().extensionWorkers?.memoryMb ?? DEFAULT_WORKER_MEMORY_MB) * 1024 * 1024 }),
    // spindle.generate: text only comes back; errors are scrubbed with the host's redactor.
    generator: createExtensionGenerator({
      llm: llmServices.llm,
      sidecarConfig: () => llmServices.sidecar.config(),
      profile: (id) => llmServices.connections.get(id),
      chatSettings: () => settings.get().chat,
      sidecarEndpoint: (id) => llmServices.sidecar.endpoints.resolve(id),
    }),
    redactor,
    spindle: spindleDeps({
      settings: () => settings.get(),
      connections: () => llmServices.connections.list(),
      sidecar: () => llmServices.sidecar.config(),
      secrets: llmServices.secrets,
      council: () => (council ? { service: council, packs } : null),
      presets: new PresetStore(llmServices.sessions.db, clock, dbCommitted),
      memories: new MemoryCortex({ db: llmServices.sessions.db, clock, committed: dbCommitted, log: ports.log }),
      regexScripts: llmServices.regex.store,
      chats: () =>
        chatReads({
          sessions: llmServices.sessions,
          chat: llmServices.chat,
          messages: llmServices.messages,
          runningCouncilChat: () => council?.runningChat() ?? null,
          changed: (sessionId) => emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' }),
        }),
    }),
  });
  llmServices.chat.setPipeline(() => extensions.pipeline());
  // Extensions granted regex_scripts hear each change (event-access.ts), and the window redraws what scripts changed.
  llmServices.regex.store.onChange((change) => {
    if (change.kind === 'changed') extensions.pipeline().broadcast('REGEX_SCRIPT_CHANGED', { id: change.script.id, script: change.script });
    else if (change.kind === 'deleted') extensions.pipeline().broadcast('REGEX_SCRIPT_DELETED', { id: change.id });
    emit({ type: 'regex.changed', revision: llmServices.regex.store.revision });
  });
  llmServices.sidecar.endpoints.attach(() => extensions.providers());
  extensions.onEvent((event) => {
    if (event.type === 'extension.safe-mode') {
      addNotice({
        level: 'warning',
        code: 'EXTENSION_SAFE_MODE',
        message: `Extension "${event.id}" failed to start ${event.failures} times in a row, so it was started disabled (safe mode). Enable it from Extensions once it is fixed; its log says why it failed.`,
      });
    } else if (event.type === 'extension.status' && event.status === 'failed') {
      addNotice({
        level: 'error',
        code: event.error?.code ?? 'EXTENSION_FAILED',
        message: `Extension "${event.id}" stopped after repeated crashes${event.error ? `: ${event.error.message}` : ''}. Restart it from Extensions.`,
      });
    } else if (event.type !== 'extension.status') emit(event);
  });
  trustedExtension = (id) => extensions.isTrusted(id);
  const startSources = ports.startToolSources !== false;
  let sourcesStarted = startSources && ports.deferToolSources !== true;
  await extensions.init({ start: sourcesStarted });

  const packs = new PackStore({ dataDir: ports.dataDir, bundledDir: resolveBundledPacksDir(ports), log: ports.log });
  // A data-only CLI command starts no extension or MCP server: their tools are not checked, not missing.
  const unstartedSource = startSources
    ? undefined
    : (sourceId: string) => extensions.list().some((e) => e.id === sourceId && e.enabled) || (settings.peek().mcpServers ?? []).some((m) => m.enabled && mcpSourceId(m.id) === sourceId);
  council = new CouncilService({ dataDir: ports.dataDir, db: llmServices.sessions.db, dbCommitted, settings, registry, tools: safety.guard, packs, clock, timers, log: ports.log, emit, sidecar: llmServices.sidecar, ...(unstartedSource ? { unstartedSource } : {}), ...(ports.councilSeed ? { seedSource: ports.councilSeed } : {}) });
  llmServices.chat.setCouncil(chatCouncilPort(council));

  const mcpStore = secretBackedMcpStore(settingsMcpStore(settings), llmServices.secrets, ports.log, (serverId, name, reason) =>
    addNotice({ level: 'warning', code: 'MCP_SECRET_IN_SETTINGS', message: `MCP server "${serverId}": ${name} is kept unencrypted in settings.json. ${reason}` }),
  );
  // Configs from before the secret store kept header values in settings.json; a failure leaves them there.
  await mcpStore.migrate().catch((error: unknown) => ports.log.warn('mcp: could not move stored credentials to the secret store', (error as Error).message));
  const mcp = new McpManager({
    store: mcpStore,
    registry,
    clock,
    timers,
    log: ports.log,
    redact: (text) => redactor.redact(text),
    addSecret: (secret) => redactor.add(secret),
    ...ports.mcp,
  });
  mcp.onEvent((event) => emit(event));

  const handlers: Handlers = {
    'host.status': () => {
      const current = settings.get();
      return {
        dataDir: ports.dataDir,
        settingsVersion: current.version,
        mode: ports.mode,
        counts: { extensions: extensions.list().length, tools: registry.list().length, members: current.council.members.length },
        ...(startSources ? {} : { toolSourcesStarted: false }),
        notices: [...notices],
      };
    },
    'host.ping': () => ({ now: clock.now() }),
    'notices.dismiss': ({ id }) => {
      const index = notices.findIndex((n) => n.id === id);
      if (index < 0) return { dismissed: false };
      notices.splice(index, 1);
      emit({ type: 'notice.dismissed', id });
      return { dismissed: true };
    },
    ...settingsHandlers(settings),
    ...toolHandlers(registry, safety.guard),
    ...safetyHandlers(safety.approvals, safety.cache, registry),
    ...extensionHandlers(extensions),
    ...councilHandlers(council, packs, () => clock.now()),
    ...connectionHandlers(llmServices),
    ...sidecarHandlers(llmServices.sidecar),
    ...chatHandlers(llmServices, (sessionId, change) => emit({ type: 'chat.sessions.changed', sessionId, change })),
    ...regexHandlers(llmServices.regex, llmServices.sessions, llmServices.chat),
    ...sessionFileHandlers(llmServices.sessions, (sessionId, change) => emit({ type: 'chat.sessions.changed', sessionId, change })),
    ...mcpHandlers(mcp),
    ...localModelHandlers(llmServices.localModels),
    ...probeHandlers(llmServices.probes),
    ...backupHandlers({ settings, sessions: llmServices.sessions, packs, runs: council.runs, extensions, now: () => clock.now(), isBusy: (id) => llmServices.chat.isBusy(id) }, (sessionId) => emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' })),
  };
  // Servers connect in the background: a slow or dead one never delays the host.
  if (sourcesStarted) mcp.startEnabled();

  let disposed = false;
  return {
    api: createDispatcher(handlers, ports.log, { checkOutputs: ports.checkOutputs === true }),
    onEvent(listener) {
      return listeners.on(listener);
    },
    settings,
    registry,
    extensions,
    redactor,
    connections: llmServices.connections,
    sidecar: llmServices.sidecar,
    chat: llmServices.chat,
    regex: llmServices.regex,
    llm: llmServices.llm,
    council,
    packs,
    mcp,
    safety,
    startToolSources() {
      if (!startSources || sourcesStarted || disposed) return;
      sourcesStarted = true;
      extensions.startEnabled({ spread: true }).catch((err: unknown) => ports.log.error('extensions: starting them failed', err));
      mcp.startEnabled();
    },
    notices: () => [...notices],
    async dispose() {
      if (disposed) return;
      disposed = true;
      // Calls waiting for a person end first (HOST_SHUTDOWN), so nothing below waits on them.
      notes.uninstall();
      safety.dispose();
      await council.dispose();
      await llmServices.dispose();
      await extensions.dispose();
      await mcp.dispose();
      registry.dispose();
      // A built-in tool still writing (a note) ends, then writes already asked for land before the host is gone:
      // quitting loses nothing, and a folder can be removed.
      await registry.executorsSettled();
      await settings.settled();
      await writesSettled();
      listeners.clear();
    },
  };
}
