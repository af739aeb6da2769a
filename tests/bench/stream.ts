// Streaming benchmark: 20,000 tokens from the local LLM server through the host (chat engine → chat.delta events) beside the LlmClient read directly.
import { createHost } from '../../electron/core/host';
import { LlmClient } from '../../electron/core/llm/client';
import { MemorySecretStore } from '../../electron/core/connections/secret-store';
import { Redactor } from '../../electron/core/connections/redact';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import type { HostEvent } from '../../shared/contract/events';
import type { ConnectionProfile, LlmEvent, LlmRequest } from '../../shared/types/llm';
import { LlmTestServer } from '../fixtures/llm-server';
import { cleanupTempDirs, tempDir } from '../helpers/temp-dir';
import { percentile, round, table } from './stats';

const TOKENS = 20_000;
const ROUNDS = 3;
const tokens = Array.from({ length: TOKENS }, (_, i) => `t${i % 1000} `);
const totalChars = tokens.join('').length;

interface Row {
  name: string;
  tokens_per_s: number;
  duration_ms: number;
  events: number;
  added_p50_ms: number | null;
  added_p99_ms: number | null;
}

const now = () => performance.now();

/** A client that stamps each text delta as the LLM layer hands it over (where the host's added latency starts). */
class StampingClient extends LlmClient {
  stamps: Array<{ end: number; at: number }> = [];
  private chars = 0;
  reset(): void {
    this.stamps = [];
    this.chars = 0;
  }
  override async *stream(profile: ConnectionProfile, request: LlmRequest, options = {}): AsyncGenerator<LlmEvent, void, undefined> {
    for await (const event of super.stream(profile, request, options)) {
      if (event.type === 'text-delta') {
        this.chars += event.text.length;
        this.stamps.push({ end: this.chars, at: now() });
      }
      yield event;
    }
  }
}

async function direct(server: LlmTestServer, client: LlmClient, profile: ConnectionProfile): Promise<Row> {
  server.enqueue({ text: tokens });
  const start = now();
  let chars = 0;
  let events = 0;
  for await (const event of client.stream(profile, { messages: [{ role: 'user', content: 'go' }] })) {
    if (event.type === 'text-delta') {
      chars += event.text.length;
      events++;
    }
  }
  const ms = now() - start;
  if (chars !== totalChars) throw new Error(`direct read ${chars} of ${totalChars} characters`);
  return { name: 'direct: LlmClient.stream', tokens_per_s: round(TOKENS / (ms / 1000)), duration_ms: round(ms), events, added_p50_ms: null, added_p99_ms: null };
}

async function throughHost(server: LlmTestServer, minIntervalMs: number): Promise<Row> {
  const redactor = new Redactor();
  const secrets = new MemorySecretStore(redactor);
  const llm = new StampingClient({ secrets, redactor, env: {}, maxRetries: 0 });
  const host = await createHost({
    dataDir: tempDir('cw-bench-stream-'),
    mode: 'cli',
    settingsBackend: confBackend,
    log: silentLogger,
    bundledExtensionsDir: null,
    secrets,
    llm,
    env: {},
    chatBatching: { minIntervalMs },
  });
  try {
    const saved = await host.api.call('connections.save', { profile: { id: 'bench', name: 'Bench', provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, defaultModel: 'm' } }, { origin: 'cli' });
    if (!saved.ok) throw new Error(JSON.stringify(saved.error));
    const session = await host.api.call('chat.sessions.create', {}, { origin: 'cli' });
    if (!session.ok) throw new Error(JSON.stringify(session.error));
    const sessionId = (session.value as { id: string }).id;
    server.enqueue({ text: tokens });
    llm.reset();
    const latencies: number[] = [];
    let delivered = 0;
    let stampIndex = 0;
    let events = 0;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const off = host.onEvent((event: HostEvent) => {
      if (event.type === 'chat.delta') {
        const at = now();
        events++;
        delivered += event.text.length;
        // Every token whose last character is now delivered: latency from the LLM layer to here.
        while (stampIndex < llm.stamps.length && llm.stamps[stampIndex]!.end <= delivered) latencies.push(at - llm.stamps[stampIndex++]!.at);
      } else if (event.type === 'chat.finished') finish();
    });
    const start = now();
    const sent = await host.api.call('chat.send', { sessionId, text: 'go', connectionId: 'bench' }, { origin: 'cli' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    await done;
    const ms = now() - start;
    off();
    if (delivered !== totalChars) throw new Error(`host delivered ${delivered} of ${totalChars} characters`);
    latencies.sort((a, b) => a - b);
    return {
      name: `host: chat engine → chat.delta (min interval ${minIntervalMs} ms)`,
      tokens_per_s: round(TOKENS / (ms / 1000)),
      duration_ms: round(ms),
      events,
      added_p50_ms: round(percentile(latencies, 50), 3),
      added_p99_ms: round(percentile(latencies, 99), 3),
    };
  } finally {
    await host.dispose();
  }
}

function best(rows: Row[]): Row {
  return rows.reduce((a, b) => (b.tokens_per_s > a.tokens_per_s ? b : a));
}

export async function streamBenchmark({ json }: { json: boolean }) {
  const server = await LlmTestServer.start();
  const redactor = new Redactor();
  const client = new LlmClient({ secrets: new MemorySecretStore(redactor), redactor, env: {}, maxRetries: 0 });
  const profile: ConnectionProfile = { id: 'bench', name: 'Bench', provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, defaultModel: 'm', headers: {} };
  const directRows: Row[] = [];
  const hostRows: Row[] = [];
  const framedRows: Row[] = [];
  try {
    await direct(server, client, profile); // warm-up
    await throughHost(server, 0);
    for (let i = 0; i < ROUNDS; i++) {
      directRows.push(await direct(server, client, profile));
      hostRows.push(await throughHost(server, 0));
      framedRows.push(await throughHost(server, 16));
    }
  } finally {
    await server.close();
    cleanupTempDirs();
  }
  const rows = [best(directRows), best(hostRows), best(framedRows)];
  const [d, h, f] = rows as [Row, Row, Row];
  const ratios = {
    host_vs_direct_throughput: round(h.tokens_per_s / d.tokens_per_s, 2),
    host_added_p50_ms: h.added_p50_ms,
    framed16_vs_direct_throughput: round(f.tokens_per_s / d.tokens_per_s, 2),
    framed16_added_p50_ms: f.added_p50_ms,
  };
  const targets = { host_vs_direct_throughput: '≥ 0.9', host_added_p50_ms: '≤ 1', framed16_vs_direct_throughput: '(info)', framed16_added_p50_ms: '(info)' };
  if (!json) {
    console.log(`${TOKENS} tokens per stream (OpenAI SSE from the local server), best of ${ROUNDS} rounds; events reach an in-process listener.\n`);
    console.log(table(rows.map((r) => ({ ...r, added_p50_ms: r.added_p50_ms ?? '-', added_p99_ms: r.added_p99_ms ?? '-' }))));
    console.log('');
    console.log(table(Object.entries(ratios).map(([ratio, value]) => ({ ratio, value: value ?? '-', target: targets[ratio as keyof typeof targets] }))));
  }
  return { tokens: TOKENS, rounds: ROUNDS, rows, ratios, targets };
}
