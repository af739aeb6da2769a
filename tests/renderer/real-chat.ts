// The Workbench chat on the real core, for renderer tests: session documents to import, a core whose chat engine
// streams from the local LLM test server (tests/fixtures/llm-server, 127.0.0.1), and the core's chat events to wait on.
import { sessionDocument } from '../helpers/session-document';
import type { ChatEvent } from '../../shared/types/chat-events';
import type { HostEvent } from '../../shared/contract/events';
import type { ConnectionProfile } from '../../shared/types/llm';
import { LlmTestServer } from '../fixtures/llm-server';
import { RealHost, type RealHostOptions } from './real-host';
import { coreReaches } from './real-tools';

/** A session as an exported file holds it (chat.sessions.import keeps its id). */
export const session = sessionDocument;

/** The models the test server lists. */
export const MODELS = ['qwen2.5-7b-instruct', 'llama-3.1-8b'];

/** The Local LM Studio connection, on the test server. */
export function localProfile(llm: LlmTestServer, partial: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return { id: 'local-lm', name: 'Local LM Studio', provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, defaultModel: 'qwen2.5-7b-instruct', headers: {}, ...partial };
}

export interface ChatCore {
  host: RealHost;
  llm: LlmTestServer;
  /** Every event the core emitted since it started, in order. */
  events: HostEvent[];
}

const servers: LlmTestServer[] = [];

/**
 * An LLM test server and a core (`RealHost.start(options, folder)`) with the Local LM Studio connection on it as the
 * chat's main connection. Close the servers with closeLlmServers (after disposeAllHosts).
 */
export async function chatCore(options: RealHostOptions = {}, folder: Parameters<typeof RealHost.start>[1] = {}): Promise<ChatCore> {
  const llm = await LlmTestServer.start({ models: MODELS });
  servers.push(llm);
  const host = await RealHost.start(options, folder);
  const events: HostEvent[] = [];
  host.core.onEvent((event) => void events.push(event));
  await host.arrange('connections.save', { profile: localProfile(llm) });
  await host.arrange('settings.update', { patch: { chat: { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: false } } });
  return { host, llm, events };
}

export async function closeLlmServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close()));
}

type Of<T extends ChatEvent['type']> = Extract<ChatEvent, { type: T }>;

export const deltas = (events: readonly HostEvent[]) => events.filter((e): e is Of<'chat.delta'> => e.type === 'chat.delta');
/** The text the core has streamed so far (every turn). */
export const streamed = (events: readonly HostEvent[]) => deltas(events).map((e) => e.text).join('');
export const finishes = (events: readonly HostEvent[]) => events.filter((e): e is Of<'chat.finished'> => e.type === 'chat.finished');
export const toolCalls = (events: readonly HostEvent[]) => events.filter((e): e is Of<'chat.toolCall'> => e.type === 'chat.toolCall');

/** Resolves once the core's events satisfy `done` (looked at now and on each event); fails after `ms`. */
export function coreSent(core: ChatCore, what: string, done: (events: readonly HostEvent[]) => boolean, ms?: number): Promise<void> {
  return coreReaches(core.host, () => done(core.events), what, ms);
}
