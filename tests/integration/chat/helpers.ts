// Shared setup for the chat and connection-wiring tests: a real host on a temp folder, the fake LLM server, event and log capture.
import { createHost, type Host } from '../../../electron/core/host';
import { LlmClient } from '../../../electron/core/llm/client';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { Redactor } from '../../../electron/core/connections/redact';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import type { Launcher } from '../../../electron/core/extensions/workers/launcher';
import type { DeltaBatcherOptions } from '../../../electron/core/chat/delta-batcher';
import type { HostEvent } from '../../../shared/contract/events';
import type { ChatEvent } from '../../../shared/types/chat-events';
import type { ToolExecutor } from '../../../electron/core/registry-port';
import { LlmTestServer } from '../../fixtures/llm-server';
import { captureLogger, type CapturedLog } from '../../unit/llm/helpers';
import { eventually } from '../../helpers/events';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { afterEach, beforeEach } from 'vitest';
import { COUNCIL_TOOLS_DEFAULTS } from '../../../shared/types/council';
import type { Settings } from '../../../shared/settings';

/** settings with council.toolsSettings patched (complete: the council schema requires every field). */
export function withToolsSettings(current: Settings, patch: Record<string, unknown>): Settings {
  const council = current.council as Record<string, unknown>;
  const toolsSettings = { ...COUNCIL_TOOLS_DEFAULTS, ...((council.toolsSettings as Record<string, unknown> | undefined) ?? {}), ...patch };
  return { ...current, council: { ...council, toolsSettings } } as Settings;
}

export const CANARY = 'sk-canary-7Q2v';

export interface ChatRig {
  host: Host;
  /** The model client the host calls. */
  llm: LlmClient;
  server: LlmTestServer;
  events: HostEvent[];
  log: CapturedLog;
  dataDir: string;
  /** Every contract result, serialised, for the canary scan. */
  results: string[];
  call(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; path?: string } }>;
  close(): Promise<void>;
}

export async function chatRig(
  options: { requireKey?: string; launcher?: Launcher; bundledExtensionsDir?: string | null; env?: Record<string, string>; dataDir?: string; batching?: DeltaBatcherOptions } = {},
): Promise<ChatRig> {
  const server = await LlmTestServer.start(options.requireKey ? { requireKey: options.requireKey } : {});
  const log = captureLogger();
  const redactor = new Redactor();
  const secrets = new MemorySecretStore(redactor);
  const llm = new LlmClient({ secrets, redactor, env: options.env ?? {}, log: log.logger, maxRetries: 0, sleep: async () => {} });
  const dataDir = options.dataDir ?? tempDir('cw-chat-');
  const host = await createHost({
    checkOutputs: true,
    dataDir,
    mode: 'cli',
    settingsBackend: confBackend,
    log: log.logger,
    bundledExtensionsDir: options.bundledExtensionsDir ?? null,
    secrets,
    llm,
    env: options.env ?? {},
    ...(options.launcher ? { launcher: options.launcher } : {}),
    ...(options.batching ? { chatBatching: options.batching } : {}),
  });
  const events: HostEvent[] = [];
  host.onEvent((e) => events.push(e));
  const results: string[] = [];
  return {
    host,
    llm,
    server,
    events,
    log,
    dataDir,
    results,
    async call(method, input) {
      const result = await host.api.call(method, input, { origin: 'test' });
      results.push(JSON.stringify(result));
      return result as never;
    },
    async close() {
      await host.dispose();
      await server.close();
    },
  };
}

/** Saves an openai-compatible profile on the fake server and makes it the chat's main connection. */
/** A fresh chat rig for each test of the file (with the main connection when asked), closed and its folders removed after it. */
export function chatRigEach(options: { mainConnection?: boolean } = {}): { readonly rig: ChatRig } {
  let current: ChatRig | null = null;
  beforeEach(async () => {
    current = await chatRig();
    if (options.mainConnection) await addMainConnection(current);
  });
  afterEach(async () => {
    await current?.close();
    current = null;
    cleanupTempDirs();
  });
  return {
    get rig(): ChatRig {
      if (!current) throw new Error('The chat rig exists only while a test runs.');
      return current;
    },
  };
}

export async function addMainConnection(rig: ChatRig, key?: string): Promise<string> {
  const saved = await rig.call('connections.save', {
    profile: { id: 'local', name: 'Local', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: 'test-model' },
    ...(key ? { key } : {}),
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.error));
  await rig.host.settings.update({ chat: { mainConnectionId: 'local', model: '', inlineMaxRounds: 3, dryRun: false } });
  return 'local';
}

export async function newSession(rig: ChatRig, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await rig.call('chat.sessions.create', { title: 'Test', ...extra });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  return (created.value as { id: string }).id;
}

export function chatEvents(rig: ChatRig, turnId?: string): ChatEvent[] {
  return rig.events.filter(
    (e): e is ChatEvent => e.type.startsWith('chat.') && e.type !== 'chat.sessions.changed' && (turnId === undefined || (e as { turnId?: string }).turnId === turnId),
  );
}

/** Waits (no polling) until the turn's chat.finished event has arrived and the session has settled. */
export async function finished(rig: ChatRig, turnId: string): Promise<Extract<ChatEvent, { type: 'chat.finished' }>> {
  const done = await eventually(rig.host, rig.events, () => chatEvents(rig, turnId).find((e): e is Extract<ChatEvent, { type: 'chat.finished' }> => e.type === 'chat.finished'));
  await rig.host.chat.settled(done.sessionId);
  return done;
}

export async function send(rig: ChatRig, sessionId: string, text: string, extra: Record<string, unknown> = {}) {
  const started = await rig.call('chat.send', { sessionId, text, ...extra });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  const turn = started.value as { turnId: string; assistantMessageId: string };
  const done = await finished(rig, turn.turnId);
  const events = chatEvents(rig, turn.turnId);
  const text_ = events
    .filter((e): e is Extract<ChatEvent, { type: 'chat.delta' }> => e.type === 'chat.delta')
    .map((e) => e.text)
    .join('');
  return { turn, done, events, text: text_ };
}

/** A builtin tool that echoes its arguments, recording each call. */
export function echoExecutor(calls: Array<Record<string, unknown>>): ToolExecutor {
  return {
    async execute(request) {
      calls.push(request.args);
      return { ok: true, value: `echo:${JSON.stringify({ q: request.args.q })}` };
    },
  };
}

/** Council settings for inline mode with one member holding the given tools (keeps whatever else the council schema needs). */
export async function inlineCouncil(rig: ChatRig, tools: string[], members = [{ id: 'member-one-xyz', role: 'Scout' }]): Promise<void> {
  await rig.host.settings.update((current) => {
    const next = withToolsSettings(current, { mode: 'inline' });
    return { ...next, council: { ...next.council, members: members.map((m) => ({ id: m.id, packId: '', itemId: m.id, role: m.role, chance: 100, tools })) } } as Settings;
  });
}
