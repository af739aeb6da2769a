// What createHost (host.ts) is given and what it gives back: the ports each environment fills (desktop, browser mode,
// the CLI, tests) and the host's services.
import type { HostEventListener } from '../../shared/contract/events';
import type { Notice } from '../../shared/notices';
import type { Dispatcher } from './contract/dispatcher';
import type { ExtensionManager } from './extensions/extension-manager';
import type { BookLibrary } from './lore/book-library';
import type { RegexScripts } from './regex/regex-scripts';
import type { Launcher } from './extensions/workers/launcher';
import type { Clock, Logger, SettingsBackendFactory, Timers } from './ports';
import type { ToolRegistry } from './registry/tool-registry';
import type { SettingsStore } from './settings/settings-store';
import type { Redactor } from './connections/redact';
import type { Env, SecretStore } from './connections/secret-store';
import type { LlmClient } from './llm/client';
import type { ChatEngine } from './chat/chat-engine';
import type { DeltaBatcherOptions } from './chat/delta-batcher';
import type { DetectOptions } from './connections/detect';
import type { ConnectionService } from './connections/connection-service';
import type { SidecarService } from './sidecar/sidecar-service';
import type { CouncilService } from './council/council-service';
import type { PackStore } from './packs/pack-store';
import type { SafetyServices } from './safety';
import type { ApprovalPolicy } from './safety/approval-policy';
import type { McpManager, McpManagerOptions } from './mcp/mcp-manager';
import type { EngineLauncher } from './local-model/engine-launcher';

export interface HostPorts {
  dataDir: string;
  /** The system clipboard (the desktop app's Electron clipboard); absent where the window writes its own (browser mode, the CLI). */
  clipboard?: { writeText(text: string): void };
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
  /** The world books of their own, attached to sessions: the chat reads them, extensions write them. */
  library: BookLibrary;
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
