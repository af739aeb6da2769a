import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CouncilRun } from '../../../shared/types/council';
import { LlmTestServer } from '../../fixtures/llm-server';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { CANARY, profileFor, testClient } from '../../unit/llm/helpers';
import { addMember, call, councilHost, llmSidecar, sampleChat } from '../council/helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  cleanupTempDirs();
});

type OpenAiBody = { messages: Array<{ role: string; content: string }>; tool_choice?: unknown; tools?: Array<{ function: { name: string } }>; max_tokens?: number; max_completion_tokens?: number };

describe('the sidecar through the real LLM client and the local LLM server', () => {
  it('a prompt tool answers in the member voice and is capped at maxWordsPerTool', async () => {
    const host = await councilHost();
    host.council.setSidecar(llmSidecar(testClient().client, profileFor(server, 'openai')));
    await call(host, 'council.update', { patch: { toolsSettings: { maxWordsPerTool: 12 } } });
    await addMember(host, { itemId: 'pacing-critic', role: 'Pacing Critic', tools: ['council:pacing_review'] });
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    server.enqueue({ text: [long.slice(0, 100), long.slice(100)] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    const r = run.results[0]!;
    expect(r).toMatchObject({ status: 'ok', success: true });
    expect(r.content.split(/\s+/).filter((w) => w !== '…')).toHaveLength(12);
    expect(r.content).toBe(`${long.split(' ').slice(0, 12).join(' ')} …`);
    const body = server.generations[0]!.body as OpenAiBody;
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toContain('You are Tempo');
    expect(body.messages[0]!.content).toContain('serving as Pacing Critic');
    expect(body.messages[0]!.content).toContain('## Tool: Pacing Review');
    expect(body.messages[0]!.content).toContain('at most 12 words');
    expect(body.messages[1]!.content).toContain('I need shelter from the storm.');
    expect(body.max_tokens ?? body.max_completion_tokens).toBeGreaterThan(12);
    expect(run.deliberationBlock).toContain('word11 …');
    await host.dispose();
  });

  it('an extension tool with required arguments: the sidecar plans them with a forced function call, the registry validates, the tool runs', async () => {
    const host = await councilHost();
    host.council.setSidecar(llmSidecar(testClient().client, profileFor(server, 'openai')));
    await addMember(host, { role: 'Researcher', tools: ['council-probe:needs_query'] });
    const alias = host.registry.get('council-probe:needs_query')!.alias;
    server.enqueue({ toolCalls: [{ name: alias, args: ['{"que', 'ry": "lighthouse keeper"', ', "limit": 3}'] }] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results[0]).toMatchObject({ status: 'ok', content: 'query=lighthouse keeper', plannedArgs: { query: 'lighthouse keeper', limit: 3 } });
    const body = server.generations[0]!.body as OpenAiBody;
    expect(body.tools!.map((t) => t.function.name)).toEqual([alias]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: alias } });
    expect(body.messages[0]!.content).toContain('Marshal Vane');
    await host.dispose();
  });

  it('planned arguments that break the schema never reach the tool: asked for once more with the error, then a planning failure with its reason', async () => {
    const host = await councilHost();
    host.council.setSidecar(llmSidecar(testClient().client, profileFor(server, 'openai')));
    await addMember(host, { tools: ['council-probe:needs_query'] });
    const alias = host.registry.get('council-probe:needs_query')!.alias;
    // Wrong, then right: the second plan is used, marked repaired; the retry showed the model what was wrong.
    server.enqueue({ toolCalls: [{ name: alias, args: { query: 'x', limit: 99 } }] }, { toolCalls: [{ name: alias, args: { query: 'x', limit: 5 } }] });
    const repaired = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(repaired.results[0]).toMatchObject({ status: 'ok', content: 'query=x', plannedArgs: { query: 'x', limit: 5 }, planning: { constrained: false, repaired: true } });
    const retry = server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(retry.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('/limit') });
    // Wrong twice: no plan; the tool is called as Lumiverse calls it, and the reason is on the result.
    server.enqueue({ toolCalls: [{ name: alias, args: { query: 'x', limit: 99 } }] }, { toolCalls: [{ name: alias, args: { query: '', limit: 1 } }] });
    const failed = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(failed.results[0]).toMatchObject({ status: 'ok', content: 'unplanned: __deadlineMs,context', unplanned: expect.stringMatching(/^planning failed \(INVALID_ARGUMENTS\): .*\(asked twice\)$/) });
    expect(failed.results[0]!.plannedArgs).toBeUndefined();
    // a model that answers with text instead of calling: planning failed, so the tool is called as Lumiverse calls it
    server.enqueue({ text: 'I would rather not call tools.' });
    const again = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(again.results[0]).toMatchObject({ status: 'ok', content: 'unplanned: __deadlineMs,context', unplanned: expect.stringMatching(/^planning failed \(LLM_NO_TOOL_CALL\): /) });
    await host.dispose();
  });

  it('C3: a 429 and a 503 from the sidecar mid-council are retried with backoff and the member still answers; the key is in no log line or run', async () => {
    const { client, delays, log } = testClient();
    const host = await councilHost();
    host.council.setSidecar(llmSidecar(client, profileFor(server, 'openai')));
    await addMember(host, { itemId: 'pacing-critic', role: 'Pacing Critic', tools: ['council:pacing_review'] });
    server.enqueue({ kind: 'error', status: 429, retryAfter: 1 }, { kind: 'error', status: 503 }, { text: 'Cut to the bridge.' });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results[0]).toMatchObject({ status: 'ok', content: 'Cut to the bridge.' });
    expect(server.generations).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
    expect(JSON.stringify(log.lines)).not.toContain(CANARY);
    expect(JSON.stringify(run)).not.toContain(CANARY);
    await host.dispose();
  });

  it('C3: a stream that drops after it began delivering is not retried (the call is not idempotent any more): the member fails, the run goes on', async () => {
    const { client } = testClient();
    const host = await councilHost();
    host.council.setSidecar(llmSidecar(client, profileFor(server, 'openai')));
    await addMember(host, { itemId: 'pacing-critic', role: 'Pacing Critic', tools: ['council:pacing_review'] });
    server.enqueue({ text: ['Cut ', 'to ', 'the ', 'bridge.'], truncateAfter: 3 }, { text: 'a retry would read this' });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(server.generations).toHaveLength(1);
    expect(run.results[0]).toMatchObject({ success: false });
    expect(JSON.stringify(run)).not.toContain('a retry would read this');
    await host.dispose();
  });

  it('sidecar calls are limited per connection (4 at once)', async () => {
    const host = await councilHost();
    const real = llmSidecar(testClient().client, profileFor(server, 'openai'));
    let inFlight = 0;
    let peak = 0;
    host.council.setSidecar({
      ...real,
      async complete(input, signal) {
        peak = Math.max(peak, ++inFlight);
        try {
          return await real.complete(input, signal);
        } finally {
          inFlight--;
        }
      },
    });
    for (let i = 0; i < 8; i++) server.enqueue({ text: ['slow ', 'answer'], delayMs: 30 });
    for (let i = 0; i < 8; i++) await addMember(host, { tools: ['council:next_beat_ideas'] });
    const run = await call<CouncilRun>(host, 'council.run', { chat: sampleChat() });
    expect(run.results.map((r) => r.status)).toEqual(Array(8).fill('ok'));
    expect(peak).toBe(4);
    expect(server.generations).toHaveLength(8);
    await host.dispose();
  });
});
