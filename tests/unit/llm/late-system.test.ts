// A system message after the conversation began (a preset's block after the history, an interceptor's note): OpenAI's
// wire keeps it as system; Gemini and Anthropic, which take system text only before the conversation, get it as the
// person's, where the model still reads it, instead of a refused request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../../shared/types/llm';
import { LlmTestServer } from '../../fixtures/llm-server';
import { collect, profileFor, testClient, textOf } from './helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const request: LlmRequest = {
  messages: [
    { role: 'system', content: 'Rules.' },
    { role: 'user', content: 'Where is the lamp?' },
    { role: 'system', content: 'Stay in the scene.' },
  ],
};

describe('a late system message', () => {
  it('stays system on the OpenAI wire', async () => {
    server.enqueue({ text: 'ok' });
    const { client } = testClient();
    expect(textOf(await collect(client.stream(profileFor(server, 'openai'), request)))).toBe('ok');
    expect((server.generations[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'system', content: 'Rules.' },
      { role: 'user', content: 'Where is the lamp?' },
      { role: 'system', content: 'Stay in the scene.' },
    ]);
  });

  it('goes to Gemini as the person’s, the first as its system instruction', async () => {
    server.enqueue({ text: 'ok' });
    const { client } = testClient();
    expect(textOf(await collect(client.stream(profileFor(server, 'gemini'), request)))).toBe('ok');
    const body = server.generations[0]!.body as { systemInstruction: { parts: Array<{ text: string }> }; contents: Array<{ role: string; parts: Array<{ text: string }> }> };
    expect(body.systemInstruction.parts.map((p) => p.text)).toEqual(['Rules.']);
    expect(body.contents.map((c) => [c.role, c.parts.map((p) => p.text).join('|')])).toEqual([
      ['user', 'Where is the lamp?'],
      ['user', 'Stay in the scene.'],
    ]);
  });

  it('goes to Anthropic as the person’s', async () => {
    server.enqueue({ text: 'ok' });
    const { client } = testClient();
    expect(textOf(await collect(client.stream(profileFor(server, 'anthropic'), request)))).toBe('ok');
    const body = server.generations[0]!.body as { system: Array<{ text: string }>; messages: Array<{ role: string; content: Array<{ text: string }> }> };
    expect(body.system.map((s) => s.text)).toEqual(['Rules.']);
    expect(body.messages.map((m) => [m.role, m.content.map((c) => c.text).join('|')])).toEqual([['user', 'Where is the lamp?|Stay in the scene.']]);
  });
});
