// An extension's sidecar endpoint as the sidecar's transport: what crosses to the extension (a BrokerRequest, never a
// key), and what its answers become — a streamed request answered with a whole completion reads as its events, an
// answer that is not a BrokerResponse is LLM_BAD_RESPONSE, an endpoint not offered is SIDECAR_NOT_CONFIGURED.
import { describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import type { ProviderAccess } from '../../../electron/core/extensions/provider-access';
import { SidecarEndpoints } from '../../../electron/core/sidecar/extension-endpoints';
import { completionAsEvents } from '../../../electron/core/sidecar/completion-events';

/** The extensions' side, answering with `answer` and keeping what it was asked. */
function offering(answer: (request: Record<string, unknown>) => unknown) {
  const asked: Array<Record<string, unknown>> = [];
  const access: ProviderAccess = {
    list: (kind) => (kind === 'sidecar' ? [{ extensionId: 'echo_ext', extensionName: 'Echo', kind, id: 'main', name: 'Main', description: { name: 'Main', path: 'v1/' } }] : []),
    invoke: async (_ext, _kind, _id, request) => {
      asked.push(request as Record<string, unknown>);
      return answer(request as Record<string, unknown>);
    },
  };
  const endpoints = new SidecarEndpoints();
  endpoints.attach(() => access);
  return { endpoints, asked };
}

const completion = { id: 'c1', model: 'm', choices: [{ message: { content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'look', arguments: '{"at":"sea"}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
const ok = (body: string, extra: Record<string, unknown> = {}) => ({ status: 200, headers: {}, body, bodyEncoding: 'utf8', contentType: 'application/json', ok: true, correlationId: 'x', round: 0, ...extra });

describe('sidecar endpoints', () => {
  it('lists what is offered and resolves it to a profile whose only way out is the extension', async () => {
    const { endpoints, asked } = offering(() => ok(JSON.stringify(completion)));
    expect(endpoints.list()).toEqual([{ id: 'extension:echo_ext/main', name: 'Main', extensionName: 'Echo' }]);
    expect(endpoints.resolve('openai-main')).toBeUndefined();
    const { profile, fetch } = endpoints.resolve('extension:echo_ext/main')!;
    expect(profile).toMatchObject({ provider: 'openai-compatible', baseUrl: 'https://echo-ext.extension.invalid/v1', defaultModel: 'main' });
    const response = await fetch(`${profile.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer no', 'content-type': 'application/json' }, body: '{"stream":false}' });
    expect(await response.json()).toEqual(completion);
    expect(asked[0]).toMatchObject({ kind: 'sidecar', id: 'main', method: 'POST', url: '/v1/chat/completions', body: '{"stream":false}', bodyEncoding: 'utf8', round: 0 });
    expect(asked[0]!.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('a streamed request answered with a whole completion reads as its events; events and base64 bodies pass as sent', async () => {
    const events = 'data: {"choices":[]}\n\ndata: [DONE]\n\n';
    let answer: unknown = ok(JSON.stringify(completion));
    const { endpoints } = offering(() => answer);
    const { fetch, profile } = endpoints.resolve('extension:echo_ext/main')!;
    const post = () => fetch(`${profile.baseUrl}/chat/completions`, { method: 'POST', body: '{"stream":true}' });
    const streamed = await post();
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(await streamed.text()).toBe(completionAsEvents(JSON.stringify(completion)));
    answer = ok(events, { contentType: 'text/event-stream' });
    expect(await (await post()).text()).toBe(events);
    answer = ok(Buffer.from(events).toString('base64'), { contentType: 'text/event-stream', bodyEncoding: 'base64' });
    expect(await (await post()).text()).toBe(events);
  });

  it('a whole completion as events: the call, then its finish and usage, then [DONE]', () => {
    const chunks = completionAsEvents(JSON.stringify(completion))
      .split('\n\n')
      .filter(Boolean)
      .map((line) => line.slice('data: '.length));
    expect(chunks.at(-1)).toBe('[DONE]');
    const parsed = chunks.slice(0, -1).map((c) => JSON.parse(c) as { choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown });
    expect(parsed[1]!.choices[0]!.delta).toEqual({ tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'look', arguments: '{"at":"sea"}' } }] });
    expect(parsed.at(-1)).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }], usage: completion.usage });
    expect(() => completionAsEvents('not json')).toThrow(HostFailure);
    expect(() => completionAsEvents('{"choices":[]}')).toThrow(/no choice/);
  });

  it('an answer that is not a BrokerResponse is LLM_BAD_RESPONSE; an endpoint no longer offered is SIDECAR_NOT_CONFIGURED', async () => {
    for (const bad of [null, 'text', { status: 200 }, { status: 99, body: '' }, { status: 200.5, body: '' }, { status: 200, body: 3 }]) {
      const { endpoints } = offering(() => bad);
      const { fetch, profile } = endpoints.resolve('extension:echo_ext/main')!;
      await expect(fetch(`${profile.baseUrl}/chat/completions`, { method: 'POST', body: '{}' }), JSON.stringify(bad)).rejects.toMatchObject({ error: { code: 'LLM_BAD_RESPONSE' } });
    }
    const { endpoints } = offering(() => null);
    expect(() => endpoints.resolve('extension:echo_ext/gone')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'SIDECAR_NOT_CONFIGURED' }) }));
    endpoints.attach(() => null);
    expect(endpoints.list()).toEqual([]);
  });
});
