// Pipeline benchmark: the time a chat turn takes before its first token with 5 Lumiverse-style extensions installed
// (5 interceptors, 20 pull-model macros used by the card), beside the same turn in a host with no extensions.
import fs from 'node:fs';
import path from 'node:path';
import { createHost, type Host } from '../../electron/core/host';
import { LlmClient } from '../../electron/core/llm/client';
import { MemorySecretStore } from '../../electron/core/connections/secret-store';
import { Redactor } from '../../electron/core/connections/redact';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import type { HostEvent } from '../../shared/contract/events';
import { LlmTestServer } from '../fixtures/llm-server';
import { cleanupTempDirs, tempDir } from '../helpers/temp-dir';
import { percentile, round, table } from './stats';

const EXTENSIONS = 5;
const FACTS = ['mood', 'weather', 'hour', 'place'];
const TURNS = 30;
const WARMUP_TURNS = 5;
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'lumiverse-interceptor');
const idOf = (i: number) => `bench_interceptor_${i}`;

/** The card uses every extension macro, so each turn resolves all 20. */
const description = Array.from({ length: EXTENSIONS }, (_, i) => FACTS.map((f) => `{{${idOf(i)}_${f}}}`).join(' ')).join('\n');

async function openHost(server: LlmTestServer): Promise<Host> {
  const redactor = new Redactor();
  const secrets = new MemorySecretStore(redactor);
  const llm = new LlmClient({ secrets, redactor, env: {}, maxRetries: 0 });
  const host = await createHost({ dataDir: tempDir('cw-bench-pipeline-'), mode: 'cli', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: null, secrets, llm, env: {} });
  const saved = await host.api.call('connections.save', { profile: { id: 'bench', name: 'Bench', provider: 'openai-compatible', baseUrl: `${server.origin}/v1`, defaultModel: 'm' } }, { origin: 'cli' });
  if (!saved.ok) throw new Error(JSON.stringify(saved.error));
  return host;
}

async function installExtensions(host: Host): Promise<void> {
  for (let i = 0; i < EXTENSIONS; i++) {
    const folder = path.join(tempDir('cw-bench-pipeline-src-'), idOf(i));
    fs.cpSync(FIXTURE, folder, { recursive: true });
    const manifest = path.join(folder, 'spindle.json');
    fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), identifier: idOf(i) }));
    const result = await host.api.call('extensions.install', { folder, grant: 'requested' }, { origin: 'cli' });
    if (!result.ok) throw new Error(`install ${idOf(i)} failed: ${JSON.stringify(result.error)}`);
  }
  await host.extensions.whenSettled();
  // Registrations arrive as each entry loads: wait (bounded) for every interceptor.
  for (let tries = 0; host.extensions.pipeline().handlers('interceptor').length < EXTENSIONS; tries++) {
    if (tries > 2000) throw new Error('the interceptors did not register');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** ms from chat.send to the first chat.delta, one turn per call. */
async function firstTokenTimes(host: Host, server: LlmTestServer, expectIntercepted: boolean): Promise<number[]> {
  const created = await host.api.call('chat.sessions.create', { character: { name: 'Mara', description, personality: '', scenario: '' } }, { origin: 'cli' });
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  const sessionId = (created.value as { id: string }).id;
  const times: number[] = [];
  for (let i = 0; i < WARMUP_TURNS + TURNS; i++) {
    server.enqueue({ text: ['The ', 'storm ', 'rises.'] });
    let first = 0;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const off = host.onEvent((event: HostEvent) => {
      if (event.type === 'chat.delta' && first === 0) first = performance.now();
      else if (event.type === 'chat.finished') finish();
    });
    const start = performance.now();
    const sent = await host.api.call('chat.send', { sessionId, text: `Turn ${i}`, connectionId: 'bench', council: false }, { origin: 'cli' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    await done;
    await host.chat.settled(sessionId);
    off();
    const body = server.generations.at(-1)!.body as { messages: Array<{ content: string }> };
    const intercepted = body.messages[0]!.content.startsWith('[bench]');
    if (intercepted !== expectIntercepted || (expectIntercepted && body.messages.some((m) => m.content.includes('{{')))) throw new Error('the turn did not go through the pipeline as expected');
    if (i >= WARMUP_TURNS) times.push(first - start);
  }
  return times.sort((a, b) => a - b);
}

export async function pipelineBenchmark({ json }: { json: boolean }) {
  const server = await LlmTestServer.start();
  try {
    const bare = await openHost(server);
    let bareTimes: number[];
    try {
      bareTimes = await firstTokenTimes(bare, server, false);
    } finally {
      await bare.dispose();
    }
    const loaded = await openHost(server);
    let loadedTimes: number[];
    try {
      await installExtensions(loaded);
      loadedTimes = await firstTokenTimes(loaded, server, true);
    } finally {
      await loaded.dispose();
    }
    const p50 = (xs: number[]) => round(percentile(xs, 50), 2);
    const p99 = (xs: number[]) => round(percentile(xs, 99), 2);
    const out = {
      turns: TURNS,
      extensions: EXTENSIONS,
      interceptors: EXTENSIONS,
      macros: EXTENSIONS * FACTS.length,
      first_token_ms: { no_extensions: { p50: p50(bareTimes), p99: p99(bareTimes) }, with_extensions: { p50: p50(loadedTimes), p99: p99(loadedTimes) } },
      added_p50_ms: round(percentile(loadedTimes, 50) - percentile(bareTimes, 50), 2),
    };
    if (!json) {
      console.log(`${TURNS} turns each (after ${WARMUP_TURNS} warm-up turns): chat.send → first chat.delta, local LLM server.\n`);
      console.log(
        table([
          { figure: 'first token p50 (ms)', value: out.first_token_ms.with_extensions.p50, baseline: `${out.first_token_ms.no_extensions.p50} (no extensions)` },
          { figure: 'first token p99 (ms)', value: out.first_token_ms.with_extensions.p99, baseline: `${out.first_token_ms.no_extensions.p99} (no extensions)` },
          { figure: `added by ${out.interceptors} interceptors + ${out.macros} macros, p50 (ms)`, value: out.added_p50_ms, baseline: '0' },
        ]),
      );
    }
    return out;
  } finally {
    await server.close();
    cleanupTempDirs();
  }
}
