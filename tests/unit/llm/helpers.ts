// Shared setup for the LLM tests: the fake server, one profile per provider, a capturing logger, event collection.
import { LlmClient, type LlmClientOptions } from '../../../electron/core/llm/client';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { Redactor } from '../../../electron/core/connections/redact';
import type { Logger } from '../../../electron/core/ports';
import type { ConnectionProfile, LlmEvent, LlmProvider, LlmRequest } from '../../../shared/types/llm';
import type { LlmTestServer } from '../../fixtures/llm-server';
import type { FakeClock } from '../../helpers/fake-time';

export const CANARY = 'sk-canary-XYZ123';
/** The providers reached over HTTP (the built-in local engine has its own tests: tests/integration/local-model). */
export type HttpProvider = Exclude<LlmProvider, 'local'>;
export const PROVIDERS: HttpProvider[] = ['openai', 'anthropic', 'gemini', 'openai-compatible', 'ollama'];

const BASE_PATH: Record<HttpProvider, string> = { openai: '/v1', anthropic: '/v1', gemini: '/v1beta', 'openai-compatible': '/v1', ollama: '' };

export function profileFor(server: LlmTestServer, provider: HttpProvider, extra: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return {
    id: `p-${provider}`,
    name: `Test ${provider}`,
    provider,
    baseUrl: server.origin + BASE_PATH[provider],
    defaultModel: 'test-model',
    headers: {},
    keyRef: { kind: 'stored' },
    ...extra,
  };
}

/** The header a provider carries its key in, lower case as Node records it. */
export const AUTH_HEADER: Record<HttpProvider, string> = {
  openai: 'authorization',
  anthropic: 'x-api-key',
  gemini: 'x-goog-api-key',
  'openai-compatible': 'authorization',
  ollama: 'authorization',
};

export interface CapturedLog {
  logger: Logger;
  /** Every message and detail, serialised, in order. */
  lines: string[];
}

export function captureLogger(): CapturedLog {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string, ...details: unknown[]) => {
      lines.push(`${level} ${message} ${details.map((d) => JSON.stringify(d)).join(' ')}`);
    };
  return { logger: { info: record('info'), warn: record('warn'), error: record('error') }, lines };
}

export interface TestClient {
  client: LlmClient;
  secrets: MemorySecretStore;
  redactor: Redactor;
  log: CapturedLog;
  /** Delays the client asked to sleep before retries. */
  delays: number[];
}

/** A client whose retries do not wait, with the canary key stored for every provider's profile. */
export function testClient(options: Partial<LlmClientOptions> = {}): TestClient {
  const redactor = new Redactor();
  const secrets = new MemorySecretStore(redactor);
  for (const provider of PROVIDERS) secrets.set(`p-${provider}`, CANARY);
  const log = captureLogger();
  const delays: number[] = [];
  const client = new LlmClient({
    secrets,
    redactor,
    env: {},
    log: log.logger,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  });
  return { client, secrets, redactor, log, delays };
}

export const hello: LlmRequest = { messages: [{ role: 'user', content: 'Hello there' }] };

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/**
 * Collects a stream whose client runs its timeouts on `clock`: once `ready(events)` holds (checked between
 * events and I/O turns, never after a wall-clock wait), fake time moves on by `ms`, once, so the timeout falls due.
 */
export async function collectTimingOut(stream: AsyncIterable<LlmEvent>, clock: FakeClock, ms: number, ready: (events: LlmEvent[]) => boolean): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  const iterator = stream[Symbol.asyncIterator]();
  let next = iterator.next();
  let advanced = false;
  for (;;) {
    const turn = await Promise.race([next, new Promise<'turn'>((resolve) => setImmediate(() => resolve('turn')))]);
    if (turn === 'turn') {
      if (!advanced && ready(events)) {
        advanced = true;
        clock.advance(ms);
      }
      continue;
    }
    if (turn.done) return events;
    events.push(turn.value);
    next = iterator.next();
  }
}

export async function collect(events: AsyncIterable<LlmEvent>, limit = 10_000): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const event of events) {
    out.push(event);
    if (out.length >= limit) throw new Error(`more than ${limit} events`);
  }
  return out;
}

export const textOf = (events: LlmEvent[]) =>
  events
    .filter((e): e is Extract<LlmEvent, { type: 'text-delta' }> => e.type === 'text-delta')
    .map((e) => e.text)
    .join('');

export const last = (events: LlmEvent[]) => events[events.length - 1];

/**
 * Checks seed 004's order: for each call start → name → args* → end|failed, calls one after
 * another (no interleaving), every started call closed, and the stream ends with one finish or error.
 */
export function assertSeedOrder(events: LlmEvent[]): void {
  let open: string | null = null;
  let stage: 'started' | 'named' | null = null;
  const seen = new Set<string>();
  events.forEach((event, i) => {
    const where = `event ${i} (${event.type})`;
    switch (event.type) {
      case 'tool-call-start':
        if (open !== null) throw new Error(`${where}: call ${event.id} started while ${open} is open`);
        if (seen.has(event.id)) throw new Error(`${where}: call ${event.id} started twice`);
        seen.add(event.id);
        open = event.id;
        stage = 'started';
        break;
      case 'tool-call-name':
        if (open !== event.id || stage !== 'started') throw new Error(`${where}: name out of order`);
        stage = 'named';
        break;
      case 'tool-call-args-delta':
        if (open !== event.id || stage !== 'named') throw new Error(`${where}: argument fragment out of order`);
        break;
      case 'tool-call-end':
      case 'tool-call-failed':
        if (open !== event.id || stage !== 'named') throw new Error(`${where}: end out of order`);
        open = null;
        stage = null;
        break;
      case 'finish':
      case 'error':
        if (i !== events.length - 1) throw new Error(`${where}: not the last event`);
        if (open !== null) throw new Error(`${where}: call ${open} never ended`);
        break;
      case 'text-delta':
        if (open !== null) throw new Error(`${where}: text inside call ${open}`);
        break;
    }
  });
}
