// The main model's sampling per session over the connection's default, the context budget (what is cut, by part) and
// the world-info activation log, against the LLM test server. Adversarial: out-of-range values and too many stop
// strings are refused with the field; a budget smaller than the newest message still sends it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, newSession, send, type ChatRig } from './helpers';

let rig: ChatRig;
beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

const body = (i = -1) => rig.server.generations.at(i)!.body as Record<string, unknown> & { messages: Array<{ role: string; content: string }> };
const get = async (sessionId: string) => (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
const setChat = (patch: Record<string, unknown>) => rig.host.settings.update({ chat: { mainConnectionId: 'local', model: '', inlineMaxRounds: 3, dryRun: false, ...patch } });

function history(n: number, words = 40): ChatMessage[] {
  return Array.from({ length: n }, (_, i) => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'word '.repeat(words)}`, createdAt: i }) as ChatMessage);
}

describe('sampling', () => {
  it("sends the session's sampling over the connection's default; unset fields are left to the provider", async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    await send(rig, id, 'Hi');
    expect(body()).not.toHaveProperty('temperature');
    expect(body()).not.toHaveProperty('stop');

    await setChat({ connectionSampling: { local: { temperature: 1.1, topP: 0.95, maxTokens: 300 } } });
    await send(rig, id, 'Again');
    expect(body()).toMatchObject({ temperature: 1.1, top_p: 0.95, max_tokens: 300 });

    const updated = await rig.call('chat.sessions.update', { sessionId: id, patch: { sampling: { temperature: 0.3, stop: ['\nAda:', '###'] } } });
    expect(updated.ok).toBe(true);
    await send(rig, id, 'Once more');
    expect(body()).toMatchObject({ temperature: 0.3, top_p: 0.95, max_tokens: 300, stop: ['\nAda:', '###'] });
  });

  it.each([
    [{ temperature: 3 }, '/patch/sampling/temperature'],
    [{ topP: -0.1 }, '/patch/sampling/topP'],
    [{ maxTokens: 0 }, '/patch/sampling/maxTokens'],
    [{ contextSize: 10 }, '/patch/sampling/contextSize'],
    [{ stop: Array.from({ length: 17 }, (_, i) => `s${i}`) }, '/patch/sampling/stop'],
    [{ stop: [''] }, '/patch/sampling/stop/0'],
    [{ seed: 4 }, '/patch/sampling/seed'],
  ])('refuses %j with the field', async (sampling, path) => {
    const id = await newSession(rig);
    const refused = await rig.call('chat.sessions.update', { sessionId: id, patch: { sampling } });
    expect(refused.error).toMatchObject({ code: 'INVALID_INPUT', path });
    expect((await get(id)).sampling).toBeUndefined();
  });
});

describe('the context budget', () => {
  it('leaves out the oldest messages to fit, keeps the newest, and reports the prompt by part', async () => {
    const imported = await rig.call('chat.sessions.import', {
      json: JSON.stringify({ format: 'council-workbench/session', version: 1, id: 'long', title: 'Long', createdAt: 1, updatedAt: 1, character: { name: 'Mira', description: 'A ferry captain. '.repeat(10), personality: '', scenario: '' }, persona: { name: 'Ada', description: '' }, worldInfo: [], messages: history(20), sampling: { contextSize: 1000, maxTokens: 200 } }),
    });
    expect(imported.ok).toBe(true);
    rig.server.enqueue({ text: 'ok' });
    await send(rig, 'long', 'The newest question');
    const sent = body().messages;
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'The newest question' });
    expect(sent.some((m) => m.content.startsWith('Message 0:'))).toBe(false);
    const reply = (await get('long')).messages.at(-1)!;
    const report = reply.prompt!;
    expect(report.budget).toBe(800);
    expect(report.contextSize).toBe(1000);
    expect(report.cutMessages).toBe(21 - (sent.length - 1));
    expect(report.cutMessages).toBeGreaterThan(0);
    expect(report.total).toBeLessThanOrEqual(800);
    expect(report.parts.character).toBeGreaterThan(0);
    expect(report.parts.history).toBeGreaterThan(0);
    expect(report.total).toBe(Object.values(report.parts).reduce((a, b) => a + b, 0));
    const assembly = reply.trace!.find((s) => s.stage === 'assembly')!;
    expect(assembly.note).toContain(`${report.cutMessages} oldest messages left out to fit`);
  });

  it('a budget smaller than the newest message still sends it (and says nothing else fit)', async () => {
    const id = await newSession(rig);
    await rig.call('chat.sessions.update', { sessionId: id, patch: { sampling: { contextSize: 256, maxTokens: 250 } } });
    rig.server.enqueue({ text: 'a' }, { text: 'b' });
    await send(rig, id, 'First');
    await send(rig, id, 'word '.repeat(400));
    expect(body().messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect((await get(id)).messages.at(-1)!.prompt!.cutMessages).toBe(2);
  });
});

describe('the world-info activation log', () => {
  it('names the keyword and the message each entry fired on, the constant ones, and those that did not fit', async () => {
    const id = await newSession(rig, {
      worldInfo: [
        { id: 'bridge', keywords: ['bridge'], content: 'The old bridge fell in spring.', enabled: true },
        { id: 'always', keywords: [], content: 'Fog lies on the river.', enabled: true, constant: true },
        { id: 'castle', keywords: ['castle'], content: 'CASTLE LORE', enabled: true },
        { id: 'huge', keywords: ['ferry'], content: `Ferry lore. ${'long '.repeat(800)}`, enabled: true },
      ],
    });
    await rig.call('chat.sessions.update', { sessionId: id, patch: { sampling: { contextSize: 4000, maxTokens: 500 } } });
    rig.server.enqueue({ text: 'The ferry waits.' }, { text: 'ok' });
    await send(rig, id, 'Is the bridge open?');
    await send(rig, id, 'Then the ferry?');
    const system = body().messages[0]!.content;
    expect(system).toContain('The old bridge fell in spring.');
    expect(system).toContain('Fog lies on the river.');
    expect(system).not.toContain('Ferry lore.');
    const log = (await get(id)).messages.at(-1)!.prompt!.worldInfo;
    expect(log).toEqual([
      expect.objectContaining({ id: 'bridge', label: 'bridge', trigger: 'keyword', keyword: 'bridge', messageIndex: 0, role: 'user', included: true }),
      expect.objectContaining({ id: 'always', trigger: 'constant', included: true }),
      expect.objectContaining({ id: 'huge', trigger: 'keyword', keyword: 'ferry', messageIndex: 2, role: 'user', included: false }),
    ]);
    expect(log.find((h) => h.id === 'huge')!.tokens).toBeGreaterThan(875);
  });

  it('a dry run reports the same, before anything is sent', async () => {
    const id = await newSession(rig, { worldInfo: [{ id: 'bridge', keywords: ['bridge'], content: 'The old bridge fell.', enabled: true }] });
    const { done } = await send(rig, id, 'The bridge?', { dryRun: true });
    expect(done.finishReason).toBe('dry-run');
    expect(done.report!.worldInfo).toEqual([expect.objectContaining({ id: 'bridge', keyword: 'bridge', messageIndex: 0, included: true })]);
    expect(rig.server.generations).toHaveLength(0);
  });
});
