// Each provider's real wire format, over HTTP to the local fake server, comes out as our events in seed-004 order.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LlmEvent } from '../../../shared/types/llm';
import { LlmTestServer } from '../../fixtures/llm-server';
import { AUTH_HEADER, CANARY, PROVIDERS, assertSeedOrder, collect, hello, last, profileFor, testClient, textOf, weatherTool } from './helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// Request bodies are read loosely: each provider shapes them differently.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;
type Ev<T extends LlmEvent['type']> = Extract<LlmEvent, { type: T }>;
const ofType = <T extends LlmEvent['type']>(events: LlmEvent[], type: T) => events.filter((e): e is Ev<T> => e.type === type);

describe('text streaming, every wire format', () => {
  it.each(PROVIDERS)('%s streams text deltas in order and finishes with usage', async (provider) => {
    const { client } = testClient();
    server.enqueue({ text: ['Hel', 'lo, ', 'world'], usage: { input: 7, output: 3 } });
    const events = await collect(client.stream(profileFor(server, provider), hello));

    expect(ofType(events, 'text-delta').map((e) => e.text)).toEqual(['Hel', 'lo, ', 'world']);
    expect(last(events)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } });
    expect(server.pending).toBe(0);

    const [request] = server.generations;
    expect(request).toBeDefined();
    expect(request!.headers[AUTH_HEADER[provider]]).toContain(CANARY);
    expect(request!.rawBody).toContain('Hello there');
    if (provider !== 'gemini') expect((request!.body as { model: string }).model).toBe('test-model');
    else expect(request!.url).toContain('/models/test-model:streamGenerateContent');
  });

  it('sends the sampling settings and the model override in each format', async () => {
    const { client } = testClient();
    for (const _ of PROVIDERS) server.enqueue({ text: 'ok' });
    for (const provider of PROVIDERS) {
      const events = await collect(client.stream(profileFor(server, provider), { ...hello, model: 'other-model', temperature: 0.3, topP: 0.5, maxTokens: 77 }));
      expect(last(events)?.type).toBe('finish');
    }
    const bodies = server.generations.map((r) => r.body as Body);
    expect(bodies[0]).toMatchObject({ model: 'other-model', temperature: 0.3, top_p: 0.5, max_tokens: 77, stream: true });
    expect(bodies[1]).toMatchObject({ model: 'other-model', temperature: 0.3, max_tokens: 77, stream: true });
    expect(bodies[2]!.generationConfig).toMatchObject({ temperature: 0.3, topP: 0.5, maxOutputTokens: 77 });
    expect(server.generations[2]!.url).toContain('/models/other-model:');
    expect(bodies[3]).toMatchObject({ model: 'other-model', temperature: 0.3, top_p: 0.5, max_tokens: 77, stream: true });
    expect(bodies[4]).toMatchObject({ model: 'other-model', stream: true, options: { temperature: 0.3, top_p: 0.5, num_predict: 77 } });
  });

  it('skips SSE keep-alive comment lines (OpenRouter, vLLM)', async () => {
    const { client } = testClient();
    server.enqueue({ text: ['a', 'b'], comments: true });
    const events = await collect(client.stream(profileFor(server, 'openai-compatible'), hello));
    expect(textOf(events)).toBe('ab');
    expect(last(events)?.type).toBe('finish');
  });

  it.each(['openai', 'anthropic', 'ollama'] as const)('%s carries a single 1 MB chunk intact', async (provider) => {
    const { client } = testClient();
    const big = 'x'.repeat(1024 * 1024 - 3) + 'end';
    server.enqueue({ text: [big] });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(textOf(events)).toBe(big);
    expect(last(events)?.type).toBe('finish');
  });
});

describe('warming', () => {
  it('warm() starts loading the SDK before any call; the call then takes the SDK from the same loader', async () => {
    const loadSdk = vi.fn(() => import('../../../electron/core/llm/sdk'));
    const { client } = testClient({ loadSdk });
    client.warm();
    expect(loadSdk).toHaveBeenCalledTimes(1);
    server.enqueue({ text: ['Warm'] });
    const events = await collect(client.stream(profileFor(server, 'openai-compatible'), hello));
    expect(ofType(events, 'text-delta').map((e) => e.text)).toEqual(['Warm']);
    expect(loadSdk).toHaveBeenCalledTimes(2);
  });

  it('a load that fails while warming is not thrown there: the call reports it as its error', async () => {
    const { client } = testClient({ loadSdk: () => Promise.reject(new Error('the SDK is missing')) });
    expect(() => client.warm()).not.toThrow();
    const events = await collect(client.stream(profileFor(server, 'openai-compatible'), hello));
    expect(last(events)).toMatchObject({ type: 'error' });
    expect(server.generations).toHaveLength(0);
  });
});

describe('tool calls', () => {
  it('OpenAI: arguments split across chunks and two parallel calls by index reassemble in seed-004 order', async () => {
    const { client } = testClient();
    server.enqueue({
      text: 'Let me check.',
      toolCalls: [
        { id: 'call_paris', name: 'get_weather', args: ['{"ci', 'ty":', '"Par', 'is"}'] },
        { id: 'call_rome', name: 'get_weather', args: ['{"city":', '"Rome"}'] },
      ],
    });
    const events = await collect(client.stream(profileFor(server, 'openai'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(events.map((e) => e.type)).toEqual([
      'text-delta',
      'tool-call-start',
      'tool-call-name',
      'tool-call-args-delta',
      'tool-call-args-delta',
      'tool-call-args-delta',
      'tool-call-args-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-name',
      'tool-call-args-delta',
      'tool-call-args-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(ofType(events, 'tool-call-start').map((e) => [e.id, e.index])).toEqual([
      ['call_paris', 0],
      ['call_rome', 1],
    ]);
    expect(ofType(events, 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'call_paris', name: 'get_weather', argsText: '{"city":"Paris"}', args: { city: 'Paris' } },
      { type: 'tool-call-end', id: 'call_rome', name: 'get_weather', argsText: '{"city":"Rome"}', args: { city: 'Rome' } },
    ]);
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    const body = server.generations[0]!.body as { tools: Array<{ function: { name: string } }>; tool_choice: unknown };
    expect(body.tools.map((t) => t.function.name)).toEqual(['get_weather']);
  });

  it('OpenAI: interleaved fragments of parallel calls are not interleaved in our events', async () => {
    const { client } = testClient();
    server.enqueue({
      interleave: true,
      toolCalls: [
        { id: 'call_a', name: 'get_weather', args: ['{"city":', '"Oslo"}'] },
        { id: 'call_b', name: 'get_weather', args: ['{"city":', '"Lima"}'] },
      ],
    });
    const events = await collect(client.stream(profileFor(server, 'openai'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    const fragmentsOf = (id: string) => ofType(events, 'tool-call-args-delta').filter((e) => e.id === id).map((e) => e.delta).join('');
    expect(fragmentsOf('call_a')).toBe('{"city":"Oslo"}');
    expect(fragmentsOf('call_b')).toBe('{"city":"Lima"}');
    expect(ofType(events, 'tool-call-end').map((e) => e.args)).toEqual([{ city: 'Oslo' }, { city: 'Lima' }]);
  });

  it('OpenAI-compatible: parallel calls all at index 0 (Ollama /v1 quirk) stay two calls', async () => {
    const { client } = testClient();
    server.enqueue({
      sameIndex: true,
      toolCalls: [
        { id: 'call_1', name: 'get_weather', args: ['{"city":', '"Paris"}'] },
        { id: 'call_2', name: 'get_weather', args: ['{"city":', '"London"}'] },
      ],
    });
    const events = await collect(client.stream(profileFor(server, 'openai-compatible'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(ofType(events, 'tool-call-end').map((e) => [e.id, e.argsText])).toEqual([
      ['call_1', '{"city":"Paris"}'],
      ['call_2', '{"city":"London"}'],
    ]);
  });

  it('OpenAI-compatible: finish_reason "stop" with a call still reports tool-calls', async () => {
    const { client } = testClient();
    server.enqueue({ finishReason: 'stop', toolCalls: [{ name: 'get_weather', args: '{"city":"Bern"}' }] });
    const events = await collect(client.stream(profileFor(server, 'openai-compatible'), { ...hello, tools: [weatherTool] }));
    expect(ofType(events, 'tool-call-end')).toHaveLength(1);
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('Anthropic: input_json_delta fragments reassemble (the empty first fragment included)', async () => {
    const { client } = testClient();
    server.enqueue({
      text: ['Let me ', 'check.'],
      toolCalls: [
        { id: 'toolu_01', name: 'get_weather', args: ['{"ci', 'ty": "Pa', 'ris"}'] },
        { id: 'toolu_02', name: 'get_weather', args: ['{"city": "Kyiv"}'] },
      ],
    });
    const events = await collect(client.stream(profileFor(server, 'anthropic'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(textOf(events)).toBe('Let me check.');
    expect(ofType(events, 'tool-call-args-delta').filter((e) => e.id === 'toolu_01').map((e) => e.delta)).toEqual(['{"ci', 'ty": "Pa', 'ris"}']);
    expect(ofType(events, 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'toolu_01', name: 'get_weather', argsText: '{"city": "Paris"}', args: { city: 'Paris' } },
      { type: 'tool-call-end', id: 'toolu_02', name: 'get_weather', argsText: '{"city": "Kyiv"}', args: { city: 'Kyiv' } },
    ]);
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('Ollama: NDJSON with complete calls and done_reason "stop" is a tool-calls finish', async () => {
    const { client } = testClient();
    server.enqueue({ text: ['Checking', '...'], toolCalls: [{ id: 'call_7', name: 'get_weather', args: { city: 'Quito' } }] });
    const events = await collect(client.stream(profileFor(server, 'ollama'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(textOf(events)).toBe('Checking...');
    expect(ofType(events, 'tool-call-end')).toEqual([{ type: 'tool-call-end', id: 'call_7', name: 'get_weather', argsText: '{"city":"Quito"}', args: { city: 'Quito' } }]);
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    expect(server.generations[0]!.url).toBe('/api/chat');
  });

  it('Gemini: a functionCall part with finishReason STOP is a tool-calls finish', async () => {
    const { client } = testClient();
    server.enqueue({ toolCalls: [{ name: 'get_weather', args: { city: 'Accra' } }] });
    const events = await collect(client.stream(profileFor(server, 'gemini'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(ofType(events, 'tool-call-end').map((e) => [e.name, e.args])).toEqual([['get_weather', { city: 'Accra' }]]);
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('sends the previous tool round back in each format (assistant calls, then results)', async () => {
    const { client } = testClient();
    const request = {
      tools: [weatherTool],
      messages: [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'Weather?' },
        { role: 'assistant' as const, content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', argsText: '{"city":"Paris"}' }] },
        { role: 'tool' as const, toolCallId: 'call_1', content: '22°C' },
      ],
    };
    for (const _ of ['openai', 'anthropic', 'ollama']) server.enqueue({ text: 'It is 22°C.' });
    for (const provider of ['openai', 'anthropic', 'ollama'] as const) {
      expect(last(await collect(client.stream(profileFor(server, provider), request)))?.type).toBe('finish');
    }
    const [openai, anthropic, ollama] = server.generations.map((r) => r.body as Body);
    expect(openai!.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '22°C' },
    ]);
    expect(anthropic!.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(anthropic!.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '22°C' }] });
    expect(ollama!.messages.at(-1)).toMatchObject({ role: 'tool', content: '22°C' });
  });

  it('a forced call sends each format its forced tool_choice', async () => {
    const { client } = testClient();
    for (const _ of PROVIDERS) server.enqueue({ toolCalls: [{ name: 'get_weather', args: { city: 'Rome' } }] });
    for (const provider of ['openai', 'anthropic', 'gemini', 'openai-compatible'] as const) {
      await collect(client.stream(profileFor(server, provider), { ...hello, tools: [weatherTool], toolChoice: { name: 'get_weather' } }));
    }
    const [openai, anthropic, gemini, compat] = server.generations.map((r) => r.body as Body);
    expect(openai!.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(anthropic!.tool_choice).toMatchObject({ type: 'tool', name: 'get_weather' });
    expect(gemini!.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(compat!.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });
});
