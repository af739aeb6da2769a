// spindle.generate.quiet / .raw end to end: a real host (createHost), a real worker running the generator fixture, the real local LLM server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_GENERATE_PROMPT_BYTES, type HostToWorkerMessage } from '../../../shared/protocol';
import { validateGenerateInput } from '../../../shared/spindle/generate-requests';
import { readWorkerMessage } from '../../../electron/core/extensions/workers/read-worker-message';
import { NodeLauncher, type Launcher } from '../../../electron/core/extensions/workers/launcher';
import path from 'node:path';
import { writeTinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, CANARY, chatRig, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';
import { GENERATOR as ID, installGenerator, invokeGenerator } from './generator-rig';

const ENV_CANARY = 'CW_TEST_GENERATION_KEY';


let rig: ChatRig;
/** Every message the host wrote to a worker. */
let toWorker: HostToWorkerMessage[];

/** The real Node launcher, with every message the host sends to a worker recorded on the way. */
function recordingLauncher(): Launcher {
  const node = new NodeLauncher();
  return {
    containment: node.containment,
    launch(options) {
      const handle = node.launch(options);
      const send = handle.send.bind(handle);
      handle.send = (message) => (toWorker.push(message), send(message));
      return handle;
    },
  };
}

beforeEach(async () => {
  // A key in the host's own environment must not reach the worker's either.
  process.env[ENV_CANARY] = CANARY;
  toWorker = [];
  rig = await chatRig({ requireKey: CANARY, launcher: recordingLauncher() });
  await addMainConnection(rig, CANARY);
});

afterEach(async () => {
  delete process.env[ENV_CANARY];
  await rig.close();
  cleanupTempDirs();
});

const install = (grant: ('tools' | 'generation')[]) => installGenerator(rig, grant);

async function useSidecar(): Promise<void> {
  await rig.host.sidecar.update({ connectionProfileId: 'local', model: '', temperature: 0.7, maxTokens: 1024 });
}

const invoke = (tool: string, args: Record<string, unknown>) => invokeGenerator(rig, tool, args);

/** What the fixture recorded of its events and generation outcomes (its `received` tool). */
async function recordedEvents(what: string): Promise<unknown[]> {
  const outcome = await rig.host.registry.invoke(`${ID}:received`, {}, { timeoutMs: 10_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return (JSON.parse(outcome.content) as Array<{ what: string; value: unknown }>).filter((r) => r.what === what).map((r) => r.value);
}

/** The host's answer to a request the fixture wrote straight to its channel. */
async function bypassAnswer(args: Record<string, unknown>): Promise<unknown> {
  const { sent } = (await invoke('bypass', args)) as unknown as { sent: number };
  const answer = await waitFor(() => toWorker.map(rpcOf).find((m) => m?.kind === 'result' && m.id === sent), 'the host to answer the bypassing request');
  return answer!.result;
}

/** The kernel envelope of an `rpc` message to the worker. */
function rpcOf(message: HostToWorkerMessage): { kind: string; id?: number; result?: { ok: boolean; value?: unknown } } | null {
  return message.type === 'rpc' ? (message.message as { kind: string; id?: number }) : null;
}

function expectNoCanary(): void {
  expect(JSON.stringify(toWorker)).not.toContain(CANARY);
  expect(rig.host.extensions.getLogLines(ID).join('\n')).not.toContain(CANARY);
}

describe('with the generation permission', () => {
  it('quiet runs on the sidecar connection and returns the text; the server got the prompt', async () => {
    await install(['tools', 'generation']);
    await useSidecar();
    rig.server.enqueue({ text: ['Quiet ', 'answer.'] });
    const answer = await invoke('quiet', { input: { prompt: 'Summarise the scene.', systemPrompt: 'Be brief.', maxTokens: 64, temperature: 0.3 } });
    expect(answer).toEqual({ ok: true, value: 'Quiet answer.' });
    expect(rig.server.generations).toHaveLength(1);
    const body = rig.server.generations[0]!.body as Record<string, unknown>;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Summarise the scene.' },
    ]);
    expect(body).toMatchObject({ model: 'test-model', max_tokens: 64, temperature: 0.3 });
    // The key went to the server, never to the worker.
    expect(rig.server.generations[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(toWorker.some((m) => rpcOf(m)?.result?.ok && rpcOf(m)?.result?.value === 'Quiet answer.')).toBe(true);
    expectNoCanary();
  });

  it('quiet runs on a local model as the sidecar (the built-in engine, the tiny GGUF): the extension gets its text', async () => {
    await install(['tools', 'generation']);
    const added = await rig.call('models.add', { path: writeTinyGguf(path.join(rig.dataDir, 'tiny-random-llama.gguf'), { contextLength: 1024 }) });
    expect(added.ok).toBe(true);
    await rig.call('connections.save', { profile: { id: 'mine', name: 'Mine', provider: 'local', baseUrl: 'local:models', defaultModel: 'tiny-random-llama' } });
    await rig.host.sidecar.update({ connectionProfileId: 'mine', model: '', temperature: 0.7, maxTokens: 12 });
    const answer = await invoke('quiet', { input: { prompt: 'Summarise the scene.', maxTokens: 12 } });
    expect(answer).toMatchObject({ ok: true, value: expect.any(String) });
    expect((answer as { value: string }).value.length).toBeGreaterThan(0);
    // Nothing went to the HTTP server: the model ran here.
    expect(rig.server.generations).toHaveLength(0);
  });

  it('quiet without a sidecar connection rejects SIDECAR_NOT_CONFIGURED', async () => {
    await install(['tools', 'generation']);
    const answer = await invoke('quiet', { input: { prompt: 'Hello?' } });
    expect(answer).toMatchObject({ ok: false, isError: true, error: { code: 'SIDECAR_NOT_CONFIGURED' } });
    expect(rig.server.generations).toHaveLength(0);
  });

  it('raw runs the messages as given on the named connection, or on the main one, and returns text, finish reason and usage', async () => {
    await install(['tools', 'generation']);
    rig.server.enqueue({ text: 'Raw answer.', usage: { input: 12, output: 3 } }, { text: 'Main answer.' });
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Name a colour.' },
      { role: 'assistant', content: 'Blue.' },
      { role: 'user', content: 'Another.' },
    ];
    const named = await invoke('raw', { input: { messages, connectionId: 'local', model: 'test-model-large', maxTokens: 32, topP: 0.5 } });
    expect(named).toEqual({ ok: true, value: { text: 'Raw answer.', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } } });
    const body = rig.server.generations[0]!.body as Record<string, unknown>;
    expect(body.messages).toEqual(messages);
    expect(body).toMatchObject({ model: 'test-model-large', max_tokens: 32, top_p: 0.5 });

    const main = await invoke('raw', { input: { messages: [{ role: 'user', content: 'Hi.' }] } });
    expect(main).toMatchObject({ ok: true, value: { text: 'Main answer.', finishReason: 'stop' } });
    expect(rig.server.generations[1]!.body).toMatchObject({ model: 'test-model', messages: [{ role: 'user', content: 'Hi.' }] });
    expectNoCanary();
  });

  it('a Lumiverse-shaped request with a top-level knob (as published scrapers write it) runs as Lumiverse’s, its knobs from parameters within the caps', async () => {
    await install(['tools', 'generation']);
    rig.server.enqueue({ text: 'Scraped.' });
    const messages = [{ role: 'user', content: 'Summarise the page.' }];
    const answer = await invoke('raw', { input: { messages, temperature: 0.2, max_tokens: 300, connection_id: 'local', user_id: 'u1', parameters: { max_tokens: 1_000_000 } } });
    expect(answer).toMatchObject({ ok: true, value: { content: 'Scraped.' } });
    expect(rig.server.generations[0]!.body).toMatchObject({ model: 'test-model', messages, max_tokens: 65_536 });
  });

  it('a JSON response_format on a local model (the built-in engine, the tiny random GGUF) comes back as JSON matching the schema, by its grammar', async () => {
    await install(['tools', 'generation']);
    const added = await rig.call('models.add', { path: writeTinyGguf(path.join(rig.dataDir, 'tiny-random-llama.gguf'), { contextLength: 1024 }) });
    expect(added.ok).toBe(true);
    await rig.call('connections.save', { profile: { id: 'mine', name: 'Mine', provider: 'local', baseUrl: 'local:models', defaultModel: 'tiny-random-llama' } });
    const schema = { type: 'object', properties: { mood: { type: 'string', enum: ['calm', 'tense'] }, alert: { type: 'boolean' } }, required: ['mood', 'alert'], additionalProperties: false };
    const parameters = { max_tokens: 256, temperature: 1, response_format: { type: 'json_schema', json_schema: { name: 'scene', schema } } };
    const answer = (await invoke('raw', { input: { type: 'quiet', messages: [{ role: 'user', content: 'Track the scene.' }], parameters, connection_id: 'mine' } })) as { ok: boolean; value: { content: string } };
    expect(answer.ok).toBe(true);
    // Random weights say nothing sensible; the grammar still makes it JSON of this shape.
    const parsed = JSON.parse(answer.value.content) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['alert', 'mood']);
    expect(['calm', 'tense']).toContain(parsed.mood);
    expect(typeof parsed.alert).toBe('boolean');
    expect(rig.server.generations).toHaveLength(0);
  });

  it("a main connection without a default model is listed and used with the chat's model (Isekai System reads it from the list)", async () => {
    await install(['tools', 'generation']);
    await rig.call('connections.save', { profile: { id: 'bare', name: 'Bare', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: '' }, key: CANARY });
    await rig.host.settings.update({ chat: { mainConnectionId: 'bare', model: 'chat-model', inlineMaxRounds: 3, dryRun: false } });
    const listed = (await invoke('connections', {})) as unknown as Array<{ id: string; model: string; is_default: boolean }>;
    expect(listed.map((c) => [c.id, c.model, c.is_default])).toEqual([['local', 'test-model', false], ['bare', 'chat-model', true]]);
    // Named or not, the chat's connection runs with the chat's model; another connection without one asks for it.
    rig.server.enqueue({ text: 'Named.' }, { text: 'Unnamed.' });
    const ask = [{ role: 'user', content: 'Where am I?' }];
    expect(await invoke('raw', { input: { type: 'raw', messages: ask, connection_id: 'bare' } })).toMatchObject({ ok: true, value: { content: 'Named.' } });
    expect(await invoke('raw', { input: { type: 'raw', messages: ask } })).toMatchObject({ ok: true, value: { content: 'Unnamed.' } });
    expect(rig.server.generations.map((g) => (g.body as { model: string }).model)).toEqual(['chat-model', 'chat-model']);
    await rig.call('connections.save', { profile: { id: 'other', name: 'Other', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: '' }, key: CANARY });
    expect(await invoke('raw', { input: { type: 'raw', messages: ask, connection_id: 'other' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/parameters/model' } });
  });

  it('a provider error comes back redacted: the key the server echoed never reaches the worker', async () => {
    await install(['tools', 'generation']);
    rig.server.enqueue({ kind: 'error', status: 400, echoAuth: true, message: 'bad request' });
    const answer = await invoke('raw', { input: { messages: [{ role: 'user', content: 'Hi.' }] } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'LLM_REQUEST_REJECTED' } });
    expect(JSON.stringify(answer)).toContain('[REDACTED]');
    expectNoCanary();
  });

  it('the worker environment holds no key', async () => {
    await install(['tools', 'generation']);
    const answer = (await rig.host.registry.invoke(`${ID}:env`, {}, { timeoutMs: 10_000 })) as { ok: true; content: string };
    expect(answer.ok).toBe(true);
    expect(JSON.parse(answer.content)).toMatchObject({ generate: 'object' });
    expect(answer.content).not.toContain(CANARY);
    expect(answer.content).not.toContain(ENV_CANARY);
  });

  it('input over the caps → INVALID_INPUT, from the runtime and from the host when the runtime is bypassed; nothing reaches the server', async () => {
    await install(['tools', 'generation']);
    await useSidecar();
    const big = MAX_GENERATE_PROMPT_BYTES + 1;
    expect(await invoke('quiet', { padPrompt: big })).toMatchObject({ ok: false, isError: true, error: { code: 'INVALID_INPUT' } });
    expect(await invoke('raw', { input: { messages: [{ role: 'user', content: 'x' }], maxTokens: 65_537 } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', path: '/maxTokens' },
    });
    expect(await invoke('raw', { input: { messages: [{ role: 'tool', content: 'x' }] } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/messages/0/role' } });
    // Extension code can write to the channel itself: the host checks again.
    expect(await bypassAnswer({ kind: 'quiet', padPrompt: big })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await bypassAnswer({ kind: 'raw', input: { messages: 'nope', apiKey: 'x' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(rig.server.generations).toHaveLength(0);
  });

});

describe('without the generation permission', () => {
  it('quiet and raw get permission_denied and reject PERMISSION_DENIED; the server receives nothing', async () => {
    await install(['tools']);
    await useSidecar();
    const quiet = await invoke('quiet', { input: { prompt: 'Hello?' } });
    expect(quiet).toMatchObject({ ok: false, isError: true, error: { code: 'PERMISSION_DENIED' } });
    const raw = await invoke('raw', { input: { messages: [{ role: 'user', content: 'Hello?' }] } });
    expect(raw).toMatchObject({ ok: false, isError: true, error: { code: 'PERMISSION_DENIED' } });
    expect(await recordedEvents('PERMISSION_DENIED')).toEqual([
      { permission: 'generation', operation: 'generate.quiet' },
      { permission: 'generation', operation: 'generate.raw' },
    ]);
    // The host decides, not the runtime: a request written straight to the channel is refused too.
    expect(await bypassAnswer({ kind: 'quiet', input: { prompt: 'Hello?' } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(rig.server.generations).toHaveLength(0);
    expect(rig.host.extensions.getLogLines(ID).join('\n')).toMatch(/generate\.quiet refused: the generation permission is not granted/);
  });

  it('revoking it during a generation aborts the generation; the next one is refused', async () => {
    await install(['tools', 'generation']);
    await useSidecar();
    rig.server.enqueue({ text: ['Never ', 'finished.'], stallAfter: 1 });
    const running = invoke('quiet', { input: { prompt: 'Take your time.' } });
    await waitFor(() => rig.server.generations.length === 1, 'the generation to reach the server');
    await rig.host.extensions.revoke(ID, ['generation']);
    expect(await running).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED', message: expect.stringMatching(/revoked/) } });
    await waitFor(() => rig.server.clientAborts === 1, 'the request to be aborted on the wire');
    expect(await invoke('quiet', { input: { prompt: 'Again?' } })).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(rig.server.generations).toHaveLength(1);
    expectNoCanary();
  });
});

describe('the rpc messages', () => {
  it('are read as an rpc message with its envelope and nothing else; the kernel reads the envelope', () => {
    const call = { kind: 'invoke', id: 1, method: 'generate.raw', input: { x: 1 } };
    expect(readWorkerMessage({ type: 'rpc', message: call })).toEqual({ ok: true, message: { type: 'rpc', message: call } });
    expect(readWorkerMessage({ type: 'rpc', message: call, extra: true }).ok).toBe(false);
    expect(readWorkerMessage({ type: 'rpc' }).ok).toBe(false);
    // The retired request messages are unknown types now.
    expect(readWorkerMessage({ type: 'request', requestId: 'r1', method: 'generate.raw' }).ok).toBe(false);
  });

  it('a method that is not one of the contract (a prefix, a prototype name, not a name) is answered UNSUPPORTED_HERE', async () => {
    await install(['tools', 'generation']);
    for (const kind of ['', 'constructor', '__proto__']) {
      expect(await bypassAnswer({ kind, input: {} })).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_HERE' } });
    }
  });
});


describe('validateGenerateInput', () => {
  it('keeps only known fields and checks ranges', () => {
    expect(validateGenerateInput('quiet', { prompt: 'p', systemPrompt: '', temperature: 1 })).toEqual({ ok: true, kind: 'quiet', input: { prompt: 'p', temperature: 1 } });
    expect(validateGenerateInput('quiet', { prompt: '' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/prompt' } });
    expect(validateGenerateInput('quiet', { prompt: 'p', temperature: 3 })).toMatchObject({ ok: false, error: { path: '/temperature' } });
    expect(validateGenerateInput('quiet', { prompt: 'p', extra: 1 })).toMatchObject({ ok: false, error: { path: '/extra' } });
    expect(validateGenerateInput('raw', { messages: [{ role: 'user', content: 'c', name: 'n' }], connectionId: '' })).toEqual({
      ok: true,
      kind: 'raw',
      input: { messages: [{ role: 'user', content: 'c' }] },
    });
    expect(validateGenerateInput('raw', { messages: [] })).toMatchObject({ ok: false, error: { path: '/messages' } });
    expect(validateGenerateInput('raw', { messages: [{ role: 'user', content: 'é'.repeat(MAX_GENERATE_PROMPT_BYTES / 2 + 1) }] })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(validateGenerateInput('raw', { messages: [{ role: 'user', content: 'é'.repeat(MAX_GENERATE_PROMPT_BYTES / 2) }] }).ok).toBe(true);
    expect(validateGenerateInput('other', {})).toMatchObject({ ok: false, error: { path: '/kind' } });
    expect(validateGenerateInput('quiet', 'text')).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
