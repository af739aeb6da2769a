// Model lists per wire format, connection tests, local-server detection, the connection service and sidecar settings.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionService, MemoryProfileRepository } from '../../../electron/core/connections/connection-service';
import { detectLocalServers } from '../../../electron/core/connections/detect';
import { listModels } from '../../../electron/core/connections/models';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import { sidecarRequest, validateSidecarConfig, withSidecarDefaults } from '../../../electron/core/llm/sidecar-config';
import { HostFailure } from '../../../shared/errors';
import { SIDECAR_DEFAULTS } from '../../../shared/types/llm';
import { LlmTestServer } from '../../fixtures/llm-server';
import { CANARY, PROVIDERS, collect, last, profileFor, testClient, weatherTool } from './helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start({ models: ['zeta-model', 'alpha-model'] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const secrets = () => {
  const store = new MemorySecretStore();
  for (const provider of PROVIDERS) store.set(`p-${provider}`, CANARY);
  return store;
};

describe('model lists', () => {
  it.each(PROVIDERS)('%s: hits its own models endpoint with its own auth and lists the ids', async (provider) => {
    const models = await listModels(profileFor(server, provider), { secrets: secrets(), env: {} });
    expect(models).toEqual(['alpha-model', 'zeta-model']);
    const [request] = server.requests;
    const expected = { openai: '/v1/models', 'openai-compatible': '/v1/models', anthropic: '/v1/models?limit=1000', gemini: '/v1beta/models?pageSize=1000', ollama: '/api/tags' }[provider];
    expect(request!.url).toBe(expected);
    if (provider === 'anthropic') expect(request!.headers).toMatchObject({ 'x-api-key': CANARY, 'anthropic-version': '2023-06-01' });
    else if (provider === 'gemini') expect(request!.headers['x-goog-api-key']).toBe(CANARY);
    else expect(request!.headers.authorization).toBe(`Bearer ${CANARY}`);
  });

  it('a 401 on the model list is LLM_AUTH_FAILED; a missing server is LLM_UNREACHABLE', async () => {
    server.enqueueModels({ kind: 'error', status: 401 });
    const failure = await listModels(profileFor(server, 'openai'), { secrets: secrets(), env: {} }).catch((e: unknown) => e);
    expect((failure as HostFailure).error.code).toBe('LLM_AUTH_FAILED');

    const gone = await LlmTestServer.start();
    const profile = profileFor(gone, 'ollama');
    await gone.close();
    const unreachable = await listModels(profile, { secrets: secrets(), env: {} }).catch((e: unknown) => e);
    expect((unreachable as HostFailure).error.code).toBe('LLM_UNREACHABLE');
  });

  it('the connection test reports success with the models, or the error as data', async () => {
    const service = new ConnectionService({ repository: new MemoryProfileRepository([profileFor(server, 'gemini')]), secrets: secrets(), env: {} });
    expect(await service.test('p-gemini')).toEqual({ ok: true, models: ['alpha-model', 'zeta-model'] });
    server.enqueueModels({ kind: 'error', status: 500 });
    expect(await service.test('p-gemini')).toMatchObject({ ok: false, models: [], error: { code: 'LLM_SERVER_ERROR' } });
    expect(await service.test('missing')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('an unsaved profile can be tested with a trial key that is not stored', async () => {
    const store = new MemorySecretStore();
    const service = new ConnectionService({ repository: new MemoryProfileRepository(), secrets: store, env: {} });
    const draft = { ...profileFor(server, 'openai'), id: 'draft' };
    expect(await service.test(draft, { key: 'sk-trial-key-000000' })).toMatchObject({ ok: true });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-trial-key-000000');
    expect(store.get('draft')).toBeUndefined();
  });
});

describe('the connection service', () => {
  it('saves with a key, lists views, clears the key, removes the profile and its key', () => {
    const store = new MemorySecretStore();
    const repository = new MemoryProfileRepository();
    const service = new ConnectionService({ repository, secrets: store, env: {} });
    const { keyRef: _k, ...draft } = profileFor(server, 'openai');
    service.save(draft, CANARY);
    expect(store.get('p-openai')).toBe(CANARY);
    expect(repository.load()[0]!.keyRef).toEqual({ kind: 'stored' });
    expect(JSON.stringify(repository.load())).not.toContain(CANARY);
    expect(service.list()).toEqual([expect.objectContaining({ id: 'p-openai', hasKey: true, keyHint: 'Z123' })]);

    expect(service.clearKey('p-openai')).toMatchObject({ hasKey: false, keyHint: null });
    expect(store.get('p-openai')).toBeUndefined();

    service.setKey('p-openai', CANARY);
    expect(service.remove('p-openai')).toEqual({ removed: true });
    expect(store.get('p-openai')).toBeUndefined();
    expect(service.list()).toEqual([]);
    expect(() => service.save({ ...draft, baseUrl: 'file:///x' })).toThrow(HostFailure);
  });
});

describe('local server detection', () => {
  it('finds an Ollama and an LM Studio server on injected ports and suggests profiles', async () => {
    const ollama = await LlmTestServer.start({ identity: 'ollama', models: ['qwen3:0.6b'] });
    const lmstudio = await LlmTestServer.start({ identity: 'lmstudio', models: ['phi-4'] });
    try {
      const found = await detectLocalServers({ ports: { ollama: ollama.port, lmstudio: lmstudio.port }, timeoutMs: 1000 });
      expect(found).toEqual([
        {
          kind: 'ollama',
          port: ollama.port,
          models: ['qwen3:0.6b'],
          suggested: { name: 'Ollama (local)', provider: 'ollama', baseUrl: ollama.origin, defaultModel: 'qwen3:0.6b', headers: {} },
        },
        {
          kind: 'lmstudio',
          port: lmstudio.port,
          models: ['phi-4'],
          suggested: { name: 'LM Studio (local)', provider: 'openai-compatible', baseUrl: `${lmstudio.origin}/v1`, defaultModel: 'phi-4', headers: {} },
        },
      ]);
    } finally {
      await ollama.close();
      await lmstudio.close();
    }
  });

  it('finds any OpenAI-compatible server by its /v1/models: on the port of a product it is not, and on the generic ports', async () => {
    const unknownOnLmStudioPort = await LlmTestServer.start({ models: ['my-model'] });
    const onGenericPort = await LlmTestServer.start({ models: ['other'] });
    try {
      const found = await detectLocalServers({ ports: { lmstudio: unknownOnLmStudioPort.port }, genericPorts: [onGenericPort.port], timeoutMs: 1000 });
      expect(found).toEqual([
        {
          kind: 'openai-compatible',
          port: unknownOnLmStudioPort.port,
          models: ['my-model'],
          suggested: { name: `Local server on port ${unknownOnLmStudioPort.port}`, provider: 'openai-compatible', baseUrl: `${unknownOnLmStudioPort.origin}/v1`, defaultModel: 'my-model', headers: {} },
        },
        expect.objectContaining({ kind: 'openai-compatible', port: onGenericPort.port, models: ['other'] }),
      ]);
    } finally {
      await unknownOnLmStudioPort.close();
      await onGenericPort.close();
    }
  });

  it('identifies by signature, not by port: a llama.cpp server on the "Ollama" port is not Ollama', async () => {
    const llama = await LlmTestServer.start({ identity: 'llamacpp' });
    try {
      const found = await detectLocalServers({ ports: { ollama: llama.port, llamacpp: llama.port }, timeoutMs: 1000 });
      expect(found.map((f) => f.kind)).toEqual(['llamacpp']);
    } finally {
      await llama.close();
    }
  });

  it('a closed port and a port that never answers are given up on; nothing is suggested', async () => {
    const gone = await LlmTestServer.start();
    const closedPort = gone.port;
    await gone.close();
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const found = await detectLocalServers({ ports: { ollama: closedPort, vllm: (silent.address() as net.AddressInfo).port }, timeoutMs: 100 });
      expect(found).toEqual([]);
    } finally {
      silent.close();
    }
  });

  it('a detected profile works with the LLM client as suggested', async () => {
    const ollama = await LlmTestServer.start({ identity: 'ollama', models: ['qwen3:0.6b'] });
    try {
      const [found] = await detectLocalServers({ ports: { ollama: ollama.port }, timeoutMs: 1000 });
      ollama.enqueue({ text: 'hi from ollama' });
      const { client } = testClient();
      const events = await collect(client.stream({ ...found!.suggested, id: 'local' }, { messages: [{ role: 'user', content: 'hi' }] }));
      expect(last(events)?.type).toBe('finish');
      expect(ollama.generations[0]!.url).toBe('/api/chat');
    } finally {
      await ollama.close();
    }
  });
});

describe('argument planning', () => {
  it('forces the tool, caps the temperature at 0.2 and returns the arguments object', async () => {
    const { client } = testClient();
    server.enqueue({ toolCalls: [{ name: 'get_weather', args: ['{"city":', '"Lagos"}'] }] });
    const args = await client.planArguments(profileFor(server, 'openai'), { system: 'Plan.', prompt: 'Weather in Lagos?', tool: weatherTool, temperature: 0.9 });
    expect(args).toEqual({ args: { city: 'Lagos' }, constrained: false, repaired: false });
    const body = server.generations[0]!.body as Record<string, unknown>;
    expect(body.temperature).toBe(0.2);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });

  it('no call, invalid JSON, or a non-object are errors with their own codes; a broken call is asked for once more first', async () => {
    const { client } = testClient();
    const plan = () => client.planArguments(profileFor(server, 'anthropic'), { system: '', prompt: 'x', tool: weatherTool }).catch((e: unknown) => (e as HostFailure).error);
    server.enqueue({ text: 'I would rather chat.' });
    expect(await plan()).toMatchObject({ code: 'LLM_NO_TOOL_CALL' });
    expect(server.generations).toHaveLength(1);
    server.enqueue({ toolCalls: [{ name: 'get_weather', args: '{"city": Lagos}' }] }, { toolCalls: [{ name: 'get_weather', args: '{"city": Lagos}' }] });
    expect(await plan()).toMatchObject({ code: 'INVALID_ARGUMENTS_JSON', message: expect.stringContaining('(asked twice)') });
    server.enqueue({ toolCalls: [{ name: 'get_weather', args: '["Lagos"]' }] }, { toolCalls: [{ name: 'get_weather', args: '["Lagos"]' }] });
    expect(await plan()).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(server.generations).toHaveLength(5);
    expect((server.generations[0]!.body as { temperature: number }).temperature).toBe(0);
  });

  it('arguments the schema refuses are asked for once more, with the error in front of the model; a second refusal is the planning failure', async () => {
    const { client } = testClient();
    const validate = (args: Record<string, unknown>) => (args.city === 'Lagos' ? null : { code: 'INVALID_ARGUMENTS', message: 'city must be one of the allowed values', path: '/city' });
    server.enqueue({ toolCalls: [{ name: 'get_weather', args: '{"city":"Atlantis"}' }] }, { toolCalls: [{ name: 'get_weather', args: '{"city":"Lagos"}' }] });
    const planned = await client.planArguments(profileFor(server, 'openai'), { system: 'Plan.', prompt: 'Weather?', tool: weatherTool, validate });
    expect(planned).toEqual({ args: { city: 'Lagos' }, constrained: false, repaired: true });
    const retry = (server.generations[1]!.body as { messages: Array<{ role: string; content: unknown; tool_calls?: unknown[] }> }).messages;
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Atlantis"}' } }] });
    expect(retry.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('city must be one of the allowed values (at /city)') });

    server.enqueue({ toolCalls: [{ name: 'get_weather', args: '{"city":"Atlantis"}' }] }, { toolCalls: [{ name: 'get_weather', args: '{"city":"Mu"}' }] });
    const failure = await client.planArguments(profileFor(server, 'openai'), { system: 'Plan.', prompt: 'Weather?', tool: weatherTool, validate }).catch((e: unknown) => (e as HostFailure).error);
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENTS', path: '/city', message: 'city must be one of the allowed values (asked twice)' });
  });
});

describe('sidecar settings', () => {
  it('defaults are temperature 0.7, topP 0.9, maxTokens 1024', () => {
    expect(SIDECAR_DEFAULTS).toEqual({ temperature: 0.7, topP: 0.9, maxTokens: 1024 });
    expect(validateSidecarConfig({ connectionProfileId: 'p1' })).toEqual({
      ok: true,
      value: { connectionProfileId: 'p1', model: '', temperature: 0.7, topP: 0.9, maxTokens: 1024 },
    });
  });

  it.each([
    [{ temperature: 2.5 }, '/temperature'],
    [{ temperature: -0.1 }, '/temperature'],
    [{ topP: 1.5 }, '/topP'],
    [{ maxTokens: 0 }, '/maxTokens'],
    [{ maxTokens: 10.5 }, '/maxTokens'],
    [{ maxTokens: Number.NaN }, '/maxTokens'],
    [{ temperature: '0.5' }, '/temperature'],
    [{ model: 42 }, '/model'],
    [{ surprise: true }, '/surprise'],
  ])('rejects %j at %s', (patch, path) => {
    expect(validateSidecarConfig({ connectionProfileId: 'p1', ...patch })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path } });
  });

  it('turns the config into request parameters, falling back to the profile model', async () => {
    const config = withSidecarDefaults({ connectionProfileId: 'p-openai', temperature: 0.4 });
    const request = sidecarRequest(config, profileFor(server, 'openai'), [{ role: 'user', content: 'hi' }]);
    expect(request).toMatchObject({ model: 'test-model', temperature: 0.4, topP: 0.9, maxTokens: 1024 });
    const { client } = testClient();
    server.enqueue({ text: 'ok' });
    await collect(client.stream(profileFor(server, 'openai'), { ...request, tools: [weatherTool] }));
    expect(server.generations[0]!.body).toMatchObject({ temperature: 0.4, top_p: 0.9, max_tokens: 1024 });
  });
});
