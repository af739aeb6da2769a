// createHost(ports): wires the core services to the contract and owns their lifetime. Its ports and what it returns
// are declared in host-types.ts.
import { WindowPresence } from './window-presence';
import { presetHandlers } from './presets/handlers';
import path from 'node:path';
import { sessionFromCharacterFields } from './imports/card-session';
import type { Handlers } from '../../shared/contract';
import { Emitter } from './util/emitter';
import type { Host, HostPorts } from './host-types';
import type { HostEvent } from '../../shared/contract/events';
import type { Notice } from '../../shared/notices';
import { DEFAULT_WORKER_MEMORY_MB } from '../../shared/settings';
import { createDispatcher } from './contract/dispatcher';
import { ExtensionManager } from './extensions/extension-manager';
import { spindleDeps } from './extensions/spindle-host/spindle-deps';
import { worldBookEvent } from './extensions/spindle-host/lumiverse-dto';
import { regexHandlers } from './chat/regex-handlers';
import { DisplayPass } from './chat/display-pass';
import { MemoryCortex } from './memory/memory-cortex';
import { characterPayload, chatReads } from './chat/chat-reads';
import { branchRoot, sessionHeads } from './util/branch-root';
import { NodeLauncher, workerRuntimeSource } from './extensions/workers/launcher';
import { settingsExtensionState } from './extensions/settings-state';
import { extensionHandlers } from './extensions/handlers';
import { toolHandlers } from './safety/tool-handlers';
import { systemClock, systemTimers } from './ports';
import { ToolRegistry } from './registry/tool-registry';
import { SettingsStore } from './settings/settings-store';
import { createRedactingLogger, Redactor } from './connections/redact';
import { createLlmServices, type LlmServices } from './llm-services';
import { createExtensionGenerator } from './generation/extension-generator';
import { chatHandlers } from './chat/handlers';
import { sessionFileHandlers } from './imports/session-file-handlers';
import { settingsForClients, settingsHandlers } from './settings/handlers';
import { connectionHandlers } from './connections/handlers';
import { sidecarHandlers } from './sidecar/handlers';
import { CouncilService } from './council/council-service';
import { chatCouncilPort } from './chat-council-port';
import { mcpSourceId } from '../../shared/types/mcp';
import { installNoteTools } from './notes/note-tools';
import { councilHandlers } from './council/handlers';
import { PackStore, resolveBundledPacksDir } from './packs/pack-store';
import { createSafety } from './safety';
import { interactiveApprovalPolicy, patternApprovalPolicy } from './safety/approval-policy';
import { safetyHandlers } from './safety/handlers';
import { McpManager } from './mcp/mcp-manager';
import { makeDataDirPrivate } from './data-privacy';
import { writesSettled } from './util/atomic-write';
import { mcpHandlers, settingsMcpStore } from './mcp/handlers';
import { backupHandlers } from './backup/handlers';
import { localModelHandlers } from './local-model/handlers';
import { probeHandlers } from './probe/handlers';
import { secretBackedMcpStore } from './mcp/secret-config-store';

export type { Host, HostPorts } from './host-types';

export async function createHost(ports: HostPorts): Promise<Host> {
  const redactor = ports.llm?.redactor ?? new Redactor();
  ports = { ...ports, log: createRedactingLogger(ports.log, redactor) };
  const clock = ports.clock ?? systemClock;
  const presence = new WindowPresence(clock);
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
      presets: llmServices.presets,
      memories: new MemoryCortex({ db: llmServices.sessions.db, clock, committed: dbCommitted, log: ports.log }),
      regexScripts: llmServices.regex.store,
      generateImage: (id, request, signal) => llmServices.connections.generateImage(id, request, { signal }),
      windowVisible: () => presence.visible(),
      chats: () =>
        chatReads({
          sessions: llmServices.sessions,
          chat: llmServices.chat,
          messages: llmServices.messages,
          regex: llmServices.regex.store,
          library: llmServices.library,
          personas: llmServices.personas,
          sessionFromCharacter: (input) => sessionFromCharacterFields(llmServices.sessions, input, clock.now()).id,
          runningCouncilChat: () => council?.runningChat() ?? null,
          changed: (sessionId, change = 'updated') => emit({ type: 'chat.sessions.changed', sessionId, change }),
        }),
    }),
  });
  llmServices.chat.setPipeline(() => extensions.pipeline());
  const display = new DisplayPass(llmServices.regex.store, () => extensions.pipeline(), ports.log);
  // Extensions granted regex_scripts hear each change (event-access.ts), and the window redraws what scripts changed.
  llmServices.regex.store.onChange((change) => {
    if (change.kind === 'changed') extensions.pipeline().broadcast('REGEX_SCRIPT_CHANGED', { id: change.script.id, script: change.script });
    else if (change.kind === 'deleted') extensions.pipeline().broadcast('REGEX_SCRIPT_DELETED', { id: change.id });
    emit({ type: 'regex.changed', revision: display.revision });
  });
  // Lumiverse's PRESET_CHANGED ({ id, preset }) for extensions, whoever wrote it; the window's preset editor reads it again.
  llmServices.presets.onChange((change) => {
    if (change.kind === 'changed') extensions.pipeline().broadcast('PRESET_CHANGED', { id: change.preset.id, preset: change.preset });
    else extensions.pipeline().broadcast('PRESET_DELETED', { id: change.id });
    emit({ type: 'presets.changed', presetId: change.kind === 'changed' ? change.preset.id : change.id, change: change.kind === 'changed' ? 'updated' : 'deleted' });
  });
  // Lumiverse's CHARACTER_CREATED ({ id, character }) for each new session, however made (the window, an import, an
  // extension's characters.create); a branch is no new character (CHAT_FORKED tells it).
  listeners.on((event) => {
    if (event.type !== 'chat.sessions.changed' || event.change !== 'created') return;
    const { sessions } = llmServices;
    if (!sessions.has(event.sessionId) || branchRoot(event.sessionId, sessionHeads(sessions)) !== event.sessionId) return;
    extensions.pipeline().broadcast('CHARACTER_CREATED', characterPayload(sessions.head(event.sessionId)));
  });
  // Lumiverse's WORLD_BOOK_* events for the books of their own, whoever wrote them (event-access.ts: bodies to world_books).
  llmServices.library.onChange((change) => extensions.pipeline().broadcast(...worldBookEvent(change)));
  llmServices.sidecar.endpoints.attach(() => extensions.providers());
  extensions.onEvent((event) => {
    // An extension's processors came or went (registered, stopped, a permission changed): the window draws again. Its
    // log lines and messages change nothing there, so they are not looked at.
    const cardChanged = event.type === 'extension.changed' || event.type === 'extension.removed' || event.type === 'extension.status';
    if (cardChanged && display.refresh()) emit({ type: 'regex.changed', revision: display.revision });
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
    'app.visibility': ({ windowId, visible }) => {
      presence.report(windowId, visible);
      return {};
    },
    'app.clipboard.write': ({ text }) => {
      if (!ports.clipboard) return { written: false };
      ports.clipboard.writeText(text);
      return { written: true };
    },
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
    ...regexHandlers(llmServices.regex, llmServices.sessions, llmServices.chat, display),
    ...sessionFileHandlers(llmServices.sessions, llmServices.regex.store, (sessionId, change) => emit({ type: 'chat.sessions.changed', sessionId, change })),
    ...presetHandlers(llmServices.presets, llmServices.regex.store),
    ...mcpHandlers(mcp),
    ...localModelHandlers(llmServices.localModels),
    ...probeHandlers(llmServices.probes),
    ...backupHandlers({ settings, presets: llmServices.presets, regex: llmServices.regex.store, sessions: llmServices.sessions, packs, runs: council.runs, extensions, now: () => clock.now(), isBusy: (id) => llmServices.chat.isBusy(id) }, (sessionId) => emit({ type: 'chat.sessions.changed', sessionId, change: 'updated' })),
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
    library: llmServices.library,
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
