// HTTP errors, retries, broken streams, bad tool arguments, timeouts and aborts become the right events and codes.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import type { LlmEvent } from '../../../shared/types/llm';
import { LlmTestServer } from '../../fixtures/llm-server';
import { FakeClock } from '../../helpers/fake-time';
import { PROVIDERS, assertSeedOrder, collect, collectTimingOut, hello, last, profileFor, testClient, textOf, weatherTool } from './helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const errorOf = (events: LlmEvent[]) => {
  const end = last(events);
  if (end?.type !== 'error') throw new Error(`expected an error event, got ${JSON.stringify(events)}`);
  return end.error;
};

describe('HTTP errors', () => {
  it.each(PROVIDERS)('%s: 401 is LLM_AUTH_FAILED with the provider message, and is not retried', async (provider) => {
    const { client, delays } = testClient();
    server.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided.' });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(events).toHaveLength(1);
    const error = errorOf(events);
    expect(error.code).toBe('LLM_AUTH_FAILED');
    expect(error.message).toContain('Incorrect API key provided.');
    expect(error.hint).toMatch(/API key/);
    expect(server.generations).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it.each(PROVIDERS)('C3: %s: 429 is retried with backoff and then succeeds', async (provider) => {
    const { client, delays } = testClient();
    server.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 }, { text: 'finally' });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(textOf(events)).toBe('finally');
    expect(last(events)?.type).toBe('finish');
    expect(server.generations).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it('429 retried until the retries run out is LLM_RATE_LIMITED', async () => {
    const { client, delays, log } = testClient({ maxRetries: 2 });
    server.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 }, { kind: 'error', status: 429 }, { text: 'never sent' });
    const events = await collect(client.stream(profileFor(server, 'openai'), hello));
    expect(errorOf(events).code).toBe('LLM_RATE_LIMITED');
    expect(events).toHaveLength(1);
    expect(server.generations).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(log.lines.filter((l) => l.includes('retry'))).toHaveLength(2);
  });

  it('a retry-after header sets the delay; one beyond 60 s is not waited for', async () => {
    const { client, delays } = testClient();
    server.enqueue({ kind: 'error', status: 429, retryAfter: 7 }, { text: 'ok' });
    expect(textOf(await collect(client.stream(profileFor(server, 'anthropic'), hello)))).toBe('ok');
    expect(delays).toEqual([7000]);

    server.enqueue({ kind: 'error', status: 429, retryAfter: 3600 }, { text: 'not reached' });
    const events = await collect(client.stream(profileFor(server, 'anthropic'), hello));
    expect(errorOf(events).code).toBe('LLM_RATE_LIMITED');
    expect(delays).toEqual([7000]);
    expect(server.pending).toBe(1);
  });

  it.each([500, 502, 503, 529])('%i is retried, then reported as LLM_SERVER_ERROR', async (status) => {
    const { client } = testClient({ maxRetries: 1 });
    server.enqueue({ kind: 'error', status }, { kind: 'error', status });
    const events = await collect(client.stream(profileFor(server, 'anthropic'), hello));
    expect(errorOf(events).code).toBe('LLM_SERVER_ERROR');
    expect(errorOf(events).message).toContain(`HTTP ${status}`);
    expect(server.generations).toHaveLength(2);
  });

  it('404 is LLM_NOT_FOUND with a hint about the base URL and model; 400 is LLM_REQUEST_REJECTED', async () => {
    const { client } = testClient();
    server.enqueue({ kind: 'error', status: 404, message: 'The model `nope` does not exist' }, { kind: 'error', status: 400 });
    const notFound = errorOf(await collect(client.stream(profileFor(server, 'openai'), hello)));
    expect(notFound).toMatchObject({ code: 'LLM_NOT_FOUND', hint: expect.stringMatching(/base URL/) });
    expect(notFound.message).toContain('does not exist');
    expect(errorOf(await collect(client.stream(profileFor(server, 'openai'), hello))).code).toBe('LLM_REQUEST_REJECTED');
    expect(server.generations).toHaveLength(2);
  });

  it('an unreachable server is LLM_UNREACHABLE, not retried', async () => {
    const closed = await LlmTestServer.start();
    const profile = profileFor(closed, 'openai-compatible');
    await closed.close();
    const { client, delays } = testClient();
    const events = await collect(client.stream(profile, hello));
    expect(errorOf(events)).toMatchObject({ code: 'LLM_UNREACHABLE' });
    expect(delays).toEqual([]);
  });

  it('complete() throws the error as a HostFailure', async () => {
    const { client } = testClient();
    server.enqueue({ kind: 'error', status: 401 });
    const failure = await client.complete(profileFor(server, 'gemini'), hello).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(HostFailure);
    expect((failure as HostFailure).error.code).toBe('LLM_AUTH_FAILED');
  });
});

describe('broken streams', () => {
  it.each(PROVIDERS)('%s: a malformed line is an LLM_BAD_RESPONSE error event after the text before it', async (provider) => {
    const { client } = testClient();
    server.enqueue({ text: ['one ', 'two ', 'three'], malformedAfter: provider === 'anthropic' ? 3 : 2 });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(errorOf(events).code).toBe('LLM_BAD_RESPONSE');
    expect(textOf(events)).toMatch(/^one /);
    expect(textOf(events)).not.toContain('three');
    expect(events.filter((e) => e.type === 'finish')).toEqual([]);
  });

  it.each(PROVIDERS)('%s: a connection dropped mid-stream is LLM_BAD_RESPONSE (truncated)', async (provider) => {
    const { client, delays } = testClient();
    server.enqueue({ text: ['one ', 'two ', 'three'], truncateAfter: provider === 'anthropic' ? 3 : 2 });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(errorOf(events)).toMatchObject({ code: 'LLM_BAD_RESPONSE', message: expect.stringMatching(/truncated/) });
    expect(textOf(events)).toMatch(/^one /);
    expect(delays).toEqual([]);
  });

  it.each(PROVIDERS)('%s: a body that ends cleanly but without its finish is LLM_BAD_RESPONSE', async (provider) => {
    const { client } = testClient();
    server.enqueue({ text: ['one ', 'two ', 'three'], endAfter: provider === 'anthropic' ? 3 : 2 });
    const events = await collect(client.stream(profileFor(server, provider), hello));
    expect(errorOf(events).code).toBe('LLM_BAD_RESPONSE');
  });

  it('a stream cut inside a tool call closes the call as failed before the error', async () => {
    const { client } = testClient();
    server.enqueue({ toolCalls: [{ id: 'call_cut', name: 'get_weather', args: ['{"ci', 'ty":', '"Oslo"}'] }], truncateAfter: 3 });
    const events = await collect(client.stream(profileFor(server, 'openai'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(events.find((e) => e.type === 'tool-call-failed')).toMatchObject({ id: 'call_cut', argsText: '{"ci', error: { code: 'LLM_BAD_RESPONSE' } });
    expect(errorOf(events).code).toBe('LLM_BAD_RESPONSE');
  });
});

describe('tool-call arguments that are not JSON', () => {
  it.each(['openai', 'anthropic', 'openai-compatible'] as const)('%s: tool-call-failed with INVALID_ARGUMENTS_JSON and the raw text; the turn finishes', async (provider) => {
    const { client } = testClient();
    server.enqueue({
      toolCalls: [
        { id: 'call_bad', name: 'get_weather', args: ['{"city": ', '"Par'] },
        { id: 'call_ok', name: 'get_weather', args: '{"city":"Rome"}' },
      ],
    });
    const events = await collect(client.stream(profileFor(server, provider), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    const failed = events.find((e) => e.type === 'tool-call-failed');
    expect(failed).toMatchObject({ id: 'call_bad', name: 'get_weather', argsText: '{"city": "Par', error: { code: 'INVALID_ARGUMENTS_JSON' } });
    expect(events.find((e) => e.type === 'tool-call-end')).toMatchObject({ id: 'call_ok', args: { city: 'Rome' } });
    expect(last(events)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });

  it('complete() keeps a failed call with its error, so the loop can answer it', async () => {
    const { client } = testClient();
    server.enqueue({ toolCalls: [{ id: 'call_bad', name: 'get_weather', args: '{city: Paris}' }] });
    const result = await client.complete(profileFor(server, 'openai'), { ...hello, tools: [weatherTool] });
    expect(result.toolCalls).toEqual([
      { id: 'call_bad', name: 'get_weather', argsText: '{city: Paris}', ok: false, error: expect.objectContaining({ code: 'INVALID_ARGUMENTS_JSON' }) },
    ]);
  });

  it('a call to a tool that was not offered is tool-call-failed with UNKNOWN_TOOL', async () => {
    const { client } = testClient();
    server.enqueue({ toolCalls: [{ id: 'call_x', name: 'rm_rf', args: '{}' }] });
    const events = await collect(client.stream(profileFor(server, 'openai'), { ...hello, tools: [weatherTool] }));
    assertSeedOrder(events);
    expect(events.find((e) => e.type === 'tool-call-failed')).toMatchObject({ id: 'call_x', name: 'rm_rf', error: { code: 'UNKNOWN_TOOL' } });
  });
});

describe('timeouts and aborts', () => {
  // The client's timeouts run on fake time: each test moves it on once the stream is where it wants it, no sleep.
  it('a server that stops sending is LLM_TIMEOUT after the idle timeout', async () => {
    const clock = new FakeClock();
    const { client } = testClient({ timers: clock });
    server.enqueue({ text: ['a', 'b', 'c'], stallAfter: 2 });
    const stream = client.stream(profileFor(server, 'openai'), hello, { idleTimeoutMs: 300 });
    // The SDK hands a text part on when the next one arrives: 'a' has come through once 'b' reached the client.
    const events = await collectTimingOut(stream, clock, 300, (seen) => seen.some((e) => e.type === 'text-delta'));
    expect(errorOf(events)).toMatchObject({ code: 'LLM_TIMEOUT', message: 'The provider did not answer within 0.3 s.' });
    expect(textOf(events)).toBe('a');
    expect(events.filter((e) => e.type === 'finish')).toEqual([]);
    await vi.waitFor(() => expect(server.clientAborts).toBeGreaterThan(0));
  });

  it('the idle timeout starts again with every chunk: a slow but steady stream finishes', async () => {
    const clock = new FakeClock();
    const { client } = testClient({ timers: clock });
    server.enqueue({ text: ['a', 'b', 'c', 'd'] });
    const events: LlmEvent[] = [];
    for await (const event of client.stream(profileFor(server, 'openai'), hello, { idleTimeoutMs: 300 })) {
      events.push(event);
      // 299 ms between chunks, 1.2 s in all: never idle for 300 ms.
      clock.advance(299);
    }
    expect(textOf(events)).toBe('abcd');
    expect(last(events)?.type).toBe('finish');
  });

  it('the total timeout applies even while chunks keep coming', async () => {
    const clock = new FakeClock();
    const { client } = testClient({ timers: clock });
    server.enqueue({ text: Array.from({ length: 500 }, () => 'x'), delayMs: 20 });
    const stream = client.stream(profileFor(server, 'anthropic'), hello, { timeoutMs: 200 });
    const events = await collectTimingOut(stream, clock, 200, (seen) => seen.filter((e) => e.type === 'text-delta').length >= 3);
    expect(errorOf(events)).toMatchObject({ code: 'LLM_TIMEOUT', message: 'The provider did not answer within 0.2 s.' });
    expect(textOf(events).length).toBeLessThan(500);
  });

  it.each(PROVIDERS)('%s: abort mid-stream stops the events and the HTTP request', async (provider) => {
    const { client } = testClient();
    const aborts = server.clientAborts;
    server.enqueue({ text: Array.from({ length: 300 }, (_, i) => `t${i} `), delayMs: 15 });
    const controller = new AbortController();
    const events: LlmEvent[] = [];
    for await (const event of client.stream(profileFor(server, provider), hello, { signal: controller.signal })) {
      events.push(event);
      if (events.length === 3) controller.abort();
      if (events.length > 3) throw new Error(`event after abort: ${JSON.stringify(event)}`);
    }
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'text-delta']);
    await vi.waitFor(() => expect(server.clientAborts).toBe(aborts + 1));
  });

  it('abort while waiting for the first byte ends the stream with no events', async () => {
    const { client } = testClient();
    const aborts = server.clientAborts;
    server.enqueue({ text: ['never'], stallAfter: 0 });
    const controller = new AbortController();
    const iterator = client.stream(profileFor(server, 'openai'), hello, { signal: controller.signal })[Symbol.asyncIterator]();
    const next = iterator.next();
    await vi.waitFor(() => expect(server.generations).toHaveLength(1));
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    await vi.waitFor(() => expect(server.clientAborts).toBe(aborts + 1));
  });

  it('an already-aborted signal sends nothing; complete() says CANCELLED', async () => {
    const { client } = testClient();
    const controller = new AbortController();
    controller.abort();
    expect(await collect(client.stream(profileFor(server, 'openai'), hello, { signal: controller.signal }))).toEqual([]);
    const failure = await client.complete(profileFor(server, 'openai'), hello, { signal: controller.signal }).catch((e: unknown) => e);
    expect((failure as HostFailure).error.code).toBe('CANCELLED');
    expect(server.generations).toHaveLength(0);
  });

  it('abort during a retry wait ends without another request', async () => {
    const controller = new AbortController();
    const { client } = testClient({
      sleep: async () => {
        controller.abort();
        throw new Error('aborted');
      },
    });
    server.enqueue({ kind: 'error', status: 503 }, { text: 'not reached' });
    expect(await collect(client.stream(profileFor(server, 'openai'), hello, { signal: controller.signal }))).toEqual([]);
    expect(server.generations).toHaveLength(1);
    expect(server.pending).toBe(1);
  });

  it('breaking out of the loop early closes the HTTP request', async () => {
    const { client } = testClient();
    const aborts = server.clientAborts;
    server.enqueue({ text: Array.from({ length: 300 }, () => 'y'), delayMs: 15 });
    for await (const event of client.stream(profileFor(server, 'ollama'), hello)) {
      if (event.type === 'text-delta') break;
    }
    await vi.waitFor(() => expect(server.clientAborts).toBe(aborts + 1));
  });

  it('a port that accepts but never answers times out instead of hanging', async () => {
    let connected = false;
    const silent = net.createServer(() => (connected = true));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const clock = new FakeClock();
      const { client } = testClient({ timers: clock });
      const profile = { ...profileFor(server, 'openai-compatible'), baseUrl: `http://127.0.0.1:${port}/v1` };
      const events = await collectTimingOut(client.stream(profile, hello, { idleTimeoutMs: 150 }), clock, 150, () => connected);
      expect(errorOf(events).code).toBe('LLM_TIMEOUT');
    } finally {
      silent.close();
      // Sockets held open by the silent server are dropped with it.
      await new Promise((r) => setImmediate(r));
    }
  });
});

describe('size cap', () => {
  it('a response past the character cap is cut off with LLM_RESPONSE_TOO_LARGE', async () => {
    const { client } = testClient({ maxResponseChars: 1000 });
    server.enqueue({ text: ['short ', 'x'.repeat(1024 * 1024), 'never'] });
    const events = await collect(client.stream(profileFor(server, 'openai'), hello));
    expect(errorOf(events).code).toBe('LLM_RESPONSE_TOO_LARGE');
    expect(textOf(events)).toBe('short ');
  });
});

describe('request checks', () => {
  it('bad input is an INVALID_INPUT error event with a path, before any request', async () => {
    const { client } = testClient();
    const cases: Array<[Parameters<typeof client.stream>[1], string]> = [
      [{ messages: [] }, '/messages'],
      [{ ...hello, temperature: 3 }, '/temperature'],
      [{ ...hello, maxTokens: 0 }, '/maxTokens'],
      [{ ...hello, topK: 0.5 }, '/topK'],
      [{ ...hello, presencePenalty: -3 }, '/presencePenalty'],
      [{ ...hello, seed: -1 }, '/seed'],
      [{ ...hello, responseFormat: { type: 'xml' } as never }, '/responseFormat/type'],
      [{ ...hello, responseFormat: { type: 'json', schema: [] as never } }, '/responseFormat/schema'],
      [{ ...hello, responseFormat: { type: 'json', schema: { description: 'x'.repeat(70_000) } } }, '/responseFormat/schema'],
      [{ ...hello, responseFormat: { type: 'json', name: 'a name' } }, '/responseFormat/name'],
      [{ ...hello, tools: [{ ...weatherTool, name: 'bad name!' }] }, '/tools/0/name'],
      [{ ...hello, tools: [weatherTool], toolChoice: { name: 'other' } }, '/toolChoice/name'],
      [{ messages: [{ role: 'tool', content: 'x', toolCallId: 'nobody' }] }, '/messages/0/toolName'],
    ];
    for (const [request, path] of cases) {
      const events = await collect(client.stream(profileFor(server, 'openai'), request));
      expect(errorOf(events)).toMatchObject({ code: 'INVALID_INPUT', path });
    }
    expect(server.generations).toHaveLength(0);
  });

  it('a missing key is LLM_NO_KEY for providers that need one; local servers go without', async () => {
    const { client } = testClient({ env: {} });
    const noKey = { ...profileFor(server, 'anthropic'), id: 'unknown-profile' };
    expect(errorOf(await collect(client.stream(noKey, hello))).code).toBe('LLM_NO_KEY');
    const envKey = { ...profileFor(server, 'openai'), keyRef: { kind: 'env' as const, name: 'MISSING_API_KEY' } };
    expect(errorOf(await collect(client.stream(envKey, hello)))).toMatchObject({ code: 'LLM_NO_KEY', message: expect.stringContaining('MISSING_API_KEY') });
    expect(server.generations).toHaveLength(0);

    server.enqueue({ text: 'local' });
    const { keyRef: _none, ...local } = profileFor(server, 'ollama');
    const events = await collect(client.stream(local, hello));
    expect(textOf(events)).toBe('local');
    expect(server.generations[0]!.headers.authorization).toBeUndefined();
  });
});
