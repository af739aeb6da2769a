// Builds the LLM side of the host: one redactor, the secret store, the LLM client, connections in settings, the sidecar, sessions and the chat engine.
import { PresetStore } from './presets/preset-store';
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../shared/errors';
import type { Settings } from '../../shared/settings';
import type { ChatEvent } from '../../shared/types/chat-events';
import type { ConnectionProfile } from '../../shared/types/llm';
import { ConnectionService } from './connections/connection-service';
import type { DetectOptions } from './connections/detect';
import type { FetchLike } from './connections/http';
import type { Redactor } from './connections/redact';
import { keyEnvironment } from './connections/key-environment';
import { FileSecretStore, type Env, type SecretStore } from './connections/secret-store';
import { LlmClient } from './llm/client';
import { systemClock, type Clock, type Logger, type Timers } from './ports';
import type { SettingsStore } from './settings/settings-store';
import { SettingsProfileRepository } from './sidecar/settings-profile-repository';
import { SidecarService } from './sidecar/sidecar-service';
import { ChatEngine, type ChatToolRunner } from './chat/chat-engine';
import type { DeltaBatcherOptions } from './chat/delta-batcher';
import { SessionStore } from './chat/session-store';
import { MessageActions } from './chat/message-actions';
import { BookLibrary, chatBookIds } from './lore/book-library';
import { PersonaLibrary } from './personas/persona-library';
import { RegexScripts } from './regex/regex-scripts';
import { LocalModels } from './local-model/local-models';
import { ProbeCards } from './probe/probe-cards';
import type { EngineLauncher } from './local-model/engine-launcher';
import type { ModelDownload } from '../../shared/types/local-models';
import { branchRoot, sessionHeads } from './util/branch-root';

export interface LlmServicesOptions {
  dataDir: string;
  settings: SettingsStore;
  tools: ChatToolRunner;
  /** Already wrapped with createRedactingLogger(…, redactor). */
  log: Logger;
  redactor: Redactor;
  clock: Clock;
  timers?: Timers;
  emit: (event: ChatEvent) => void;
  secrets?: SecretStore;
  llm?: LlmClient;
  env?: Env;
  fetch?: FetchLike;
  detect?: DetectOptions;
  batching?: DeltaBatcherOptions;
  /** The local model engine's script (built doors pass theirs). */
  engineEntry?: string;
  engineLauncher?: EngineLauncher;
  /** Hears local model downloads (the host's models.download event). */
  onModelDownload?: (download: ModelDownload) => void;
  /** Hears the tool-calling probe's progress (the host's models.probe event). */
  onProbeProgress?: (connectionId: string, done: number, total: number) => void;
}

export interface LlmServices {
  secrets: SecretStore;
  llm: LlmClient;
  connections: ConnectionService;
  profiles: SettingsProfileRepository;
  sidecar: SidecarService;
  sessions: SessionStore;
  chat: ChatEngine;
  /** The regex scripts: the chat runs them, extensions write them. */
  regex: RegexScripts;
  /** World books of their own, attached to sessions: the chat reads them, extensions write them. */
  library: BookLibrary;
  personas: PersonaLibrary;
  /** The person's Lumiverse presets (spindle.presets; the chat's prompt when one is chosen). */
  presets: PresetStore;
  messages: MessageActions;
  localModels: LocalModels;
  probes: ProbeCards;
  dispose(): Promise<void>;
}

export function createLlmServices(options: LlmServicesOptions): LlmServices {
  const { settings, log, redactor } = options;
  const secrets = options.secrets ?? new FileSecretStore({ dataDir: options.dataDir, redactor, log });
  // Key variables leave process.env once read (key-environment.ts); existing profiles' keys are read now.
  const env = options.env ?? keyEnvironment(process.env);
  const localModels = new LocalModels({
    dataDir: options.dataDir,
    log,
    ...(options.engineEntry ? { engineEntry: options.engineEntry } : {}),
    ...(options.engineLauncher ? { launch: options.engineLauncher } : {}),
    ...(options.onModelDownload ? { onDownload: options.onModelDownload } : {}),
  });
  const llm = options.llm ?? new LlmClient({ secrets, env, redactor, log, ...(options.timers ? { timers: options.timers } : {}) });
  llm.attachLocalModels(localModels.generate);
  const profiles = new SettingsProfileRepository(settings, log);
  const connections = new ConnectionService({
    repository: profiles,
    secrets,
    env,
    redactor,
    log,
    localModels: () => localModels.ids(),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.detect ? { detect: options.detect } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  for (const saved of profiles.load()) if (saved.keyRef?.kind === 'env') void env[saved.keyRef.name];
  const profile = (id: string): ConnectionProfile => connections.get(id);
  const getSettings = (): Settings => settings.get();
  const probes = new ProbeCards({ dataDir: options.dataDir, llm, profile, onProgress: options.onProbeProgress ?? (() => undefined) });
  const sidecar = new SidecarService({ settings: getSettings, updateSettings: (patch) => settings.update(patch), profile, llm });
  const sessions = new SessionStore({ dataDir: options.dataDir, clock: options.clock, log, newId: () => randomUUID() });
  const regex = new RegexScripts(sessions.db, options.clock ?? systemClock, () => sessions.checkpoints.committed(), undefined, () => getSettings().chat?.presetId ?? null, (id) => branchRoot(id, sessionHeads(sessions)));
  const library = new BookLibrary(sessions.db, options.clock ?? systemClock, () => sessions.checkpoints.committed());
  const personas = new PersonaLibrary(sessions.db, options.clock ?? systemClock, () => sessions.checkpoints.committed());
  const presets = new PresetStore(sessions.db, options.clock ?? systemClock, () => sessions.checkpoints.committed());
  const chat = new ChatEngine({
    sessions,
    regex,
    presets,
    lore: (session) => library.sources([session.id, branchRoot(session.id, sessionHeads(sessions))], chatBookIds(session.metadata)),
    settings: getSettings,
    profile,
    llm,
    tools: options.tools,
    emit: options.emit,
    clock: options.clock,
    log,
    ...(options.batching || options.timers ? { batching: { ...options.batching, ...(options.timers ? { timers: options.timers } : {}) } } : {}),
  });
  const messages = new MessageActions({
    sessions,
    isBusy: (id) => chat.isBusy(id),
    changed: (sessionId, change) => options.emit({ type: 'chat.sessions.changed', sessionId, change }),
    tell: (sessionId, event, payload) => chat.announce(sessionId, event, payload),
    ...(options.clock ? { now: () => options.clock!.now() } : {}),
  });
  return {
    secrets,
    llm,
    connections,
    profiles,
    sidecar,
    sessions,
    chat,
    messages,
    regex,
    library,
    personas,
    presets,
    localModels,
    probes,
    async dispose() {
      await chat.dispose();
      await regex.close();
      await localModels.dispose();
      profiles.dispose();
      // After the chat: a turn being saved still writes; a checkpoint running is let finish.
      await sessions.checkpoints.settled();
      await sessions.close();
    },
  };
}

/** A new profile id from its name: readable, unique among the existing ids. */
export function newProfileId(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'connection';
  if (!taken.has(base)) return base;
  for (let i = 2; i < 10_000; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  throw new HostFailure({ code: 'CONFLICT', message: 'Could not pick a free id for the connection.' });
}
