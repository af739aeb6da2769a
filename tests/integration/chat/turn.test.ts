// Chat turns against the real local LLM server: council deliberation injected, streaming, stop, provider errors, broken streams, big chunks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CouncilPort } from '../../../electron/core/chat/council-port';
import type { ChatSession } from '../../../shared/types/chat';
import type { ChatEvent } from '../../../shared/types/chat-events';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { SessionRows } from '../../../electron/core/chat/store/session-rows';
import { eventually } from '../../helpers/events';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatEvents, chatRig, finished, newSession, send, type ChatRig } from './helpers';

let rig: ChatRig;
beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rig.close();
  cleanupTempDirs();
});

const DELIBERATION = '## Council Deliberation\nThe scout thinks the bridge is out.';

function stubCouncil(runs: unknown[]): CouncilPort {
  return {
    async run(chat) {
      runs.push(chat);
      return { deliberationBlock: DELIBERATION, referenceBlock: '## Previous Council Deliberations — REFERENCE ONLY, DO NOT REPEAT\nold', runId: `run-${runs.length}` };
    },
  };
}

async function session(id: string): Promise<ChatSession> {
  const got = await rig.call('chat.sessions.get', { sessionId: id });
  return got.value as ChatSession;
}

describe('a chat turn', () => {
  it('runs the council, injects its deliberation into the main request, streams the reply and saves it', async () => {
    // Stub CouncilPort: the council service is plugged in by its own engineer through host.chat.setCouncil.
    const runs: unknown[] = [];
    rig.host.chat.setCouncil(stubCouncil(runs));
    const id = await newSession(rig, {
      character: { name: 'Mira', description: 'A ferry captain.', personality: 'Dry humour.', scenario: 'A storm.' },
      persona: { name: 'Sam', description: 'A traveller.' },
      worldInfo: [{ id: 'w1', keywords: ['bridge'], content: 'The old bridge collapsed in spring.', enabled: true }, { id: 'w2', keywords: ['castle'], content: 'CASTLE LORE', enabled: true }],
    });
    rig.server.enqueue({ text: ['Hold ', 'on, ', 'Sam.'], usage: { input: 40, output: 3 } });
    const { done, events, text, turn } = await send(rig, id, 'Can we cross the bridge?', { council: true });

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ chatId: id, messages: [{ role: 'user', content: 'Can we cross the bridge?' }] });
    const request = rig.server.generations[0]!.body as { messages: Array<{ role: string; content: string }> };
    const system = request.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(DELIBERATION);
    expect(system.content).toContain('REFERENCE ONLY');
    expect(system.content).toContain('A ferry captain.');
    expect(system.content).toContain('The old bridge collapsed in spring.');
    expect(system.content).not.toContain('CASTLE LORE');
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'Can we cross the bridge?' });

    expect(text).toBe('Hold on, Sam.');
    const council = events.filter((e) => e.type === 'chat.council');
    expect(council.map((e) => (e as { phase: string }).phase)).toEqual(['started', 'completed']);
    expect(events.at(-1)!.type).toBe('chat.finished');
    expect(done).toMatchObject({ finishReason: 'stop', messageId: turn.assistantMessageId });
    const deltas = events.filter((e) => e.type === 'chat.delta') as Array<{ seq: number }>;
    expect(deltas.map((d) => d.seq)).toEqual(deltas.map((_, i) => i));

    const saved = await session(id);
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.messages[1]).toMatchObject({ content: 'Hold on, Sam.', councilRunId: 'run-1', finishReason: 'stop', id: turn.assistantMessageId });
  });

  it('regenerate answers again (the new reply shown, kept as a swipe) and asks the council for a regeneration; a reuse it reports is shown as reused', async () => {
    const asked: Array<{ regen?: boolean }> = [];
    rig.host.chat.setCouncil({
      async run(_chat, _signal, options = {}) {
        asked.push({ regen: options.regen });
        return { deliberationBlock: DELIBERATION, runId: `run-${asked.length}`, reused: options.regen === true };
      },
    });
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'first' }, { text: 'second' });
    await send(rig, id, 'Hi', { council: true });
    const again = await rig.call('chat.regenerate', { sessionId: id, council: true });
    expect(again.ok).toBe(true);
    const turnId = (again.value as { turnId: string }).turnId;
    await finished(rig, turnId);
    expect(asked).toEqual([{ regen: false }, { regen: true }]);
    expect(chatEvents(rig, turnId).filter((e) => e.type === 'chat.council')).toEqual([
      expect.objectContaining({ phase: 'started' }),
      expect.objectContaining({ phase: 'completed', reused: true, runId: 'run-2' }),
    ]);
    expect((rig.server.generations[1]!.body as { messages: Array<{ content: string }> }).messages[0]!.content).toContain(DELIBERATION);
    const saved = await session(id);
    expect(saved.messages.map((m) => m.content)).toEqual(['Hi', 'second']);
  });

  it('stop aborts mid-stream, keeps the partial text marked stopped, and closes the request', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: Array.from({ length: 200 }, (_, i) => `t${i} `), delayMs: 15 });
    const started = await rig.call('chat.send', { sessionId: id, text: 'Go' });
    const turnId = (started.value as { turnId: string }).turnId;
    await eventually(rig.host, rig.events, () => chatEvents(rig, turnId).find((e) => e.type === 'chat.delta'));
    expect((await rig.call('chat.stop', { sessionId: id })).value).toEqual({ stopped: true });
    const done = await finished(rig, turnId);
    expect(done.finishReason).toBe('stopped');
    const saved = await session(id);
    const reply = saved.messages[1]!;
    expect(reply.stopped).toBe(true);
    expect(reply.content.length).toBeGreaterThan(0);
    expect(reply.content).not.toContain('t199');
    for (let i = 0; i < 200 && rig.server.clientAborts === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(rig.server.clientAborts).toBe(1);
    expect((await rig.call('chat.stop', { sessionId: id })).value).toEqual({ stopped: false });
  });

  it.each([
    [401, 'LLM_AUTH_FAILED', /HTTP 401/],
    [429, 'LLM_RATE_LIMITED', /HTTP 429/],
    [500, 'LLM_SERVER_ERROR', /HTTP 500/],
  ])('a provider %i surfaces as chat.error %s with a human message', async (status, code, message) => {
    const id = await newSession(rig);
    rig.server.enqueue({ kind: 'error', status, message: 'provider says no' });
    const { done, events } = await send(rig, id, 'Hi');
    const error = events.find((e) => e.type === 'chat.error') as { error: { code: string; message: string } };
    expect(error.error.code).toBe(code);
    expect(error.error.message).toMatch(message);
    expect(done).toMatchObject({ finishReason: 'error', error: { code } });
    expect((await session(id)).messages[1]).toMatchObject({ role: 'assistant', error: { code } });
  });

  it('a malformed SSE line ends the turn with LLM_BAD_RESPONSE and keeps the text before it', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: ['one ', 'two ', 'three'], malformedAfter: 2 });
    const { done, text } = await send(rig, id, 'Hi');
    expect(done.error?.code).toBe('LLM_BAD_RESPONSE');
    expect(text).toBe('one ');
    expect((await session(id)).messages[1]!.content).toBe('one ');
  });

  it('a truncated stream ends the turn with LLM_BAD_RESPONSE', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: ['one ', 'two ', 'three'], truncateAfter: 2 });
    const { done, events } = await send(rig, id, 'Hi');
    expect(done.finishReason).toBe('error');
    expect(events.find((e) => e.type === 'chat.error')).toMatchObject({ error: { code: 'LLM_BAD_RESPONSE', message: expect.stringMatching(/truncated/) } });
  });

  it('carries a single 1 MB chunk intact, in few delta events', async () => {
    const id = await newSession(rig);
    const big = 'x'.repeat(1024 * 1024 - 3) + 'end';
    rig.server.enqueue({ text: ['a', big] });
    const { done, text, events } = await send(rig, id, 'Big');
    expect(done.finishReason).toBe('stop');
    expect(text).toBe('a' + big);
    expect(events.filter((e) => e.type === 'chat.delta').length).toBeLessThanOrEqual(2);
    expect((await session(id)).messages[1]!.content.length).toBe(big.length + 1);
  });

  it('coalesces a fast token stream into fewer delta events than tokens', async () => {
    // Time stands still for the batcher, so only what arrives together is coalesced, however busy the machine
    // (with real time a token waits at most 1 ms, and a loaded CI machine turns that into many small events).
    await rig.close();
    rig = await chatRig({ batching: { now: () => 0 } });
    await addMainConnection(rig);
    const id = await newSession(rig);
    rig.server.enqueue({ text: Array.from({ length: 500 }, (_, i) => `${i},`) });
    const { text, events } = await send(rig, id, 'Count');
    expect(text).toBe(Array.from({ length: 500 }, (_, i) => `${i},`).join(''));
    expect(events.filter((e) => e.type === 'chat.delta').length).toBeLessThan(100);
  });

  it('opening a chat warms the model client (its SDK loads while the person types, not after Send)', async () => {
    const warm = vi.spyOn(rig.llm, 'warm');
    const sessionId = await newSession(rig);
    expect(warm).not.toHaveBeenCalled();
    expect((await rig.call('chat.sessions.open', { sessionId })).ok).toBe(true);
    expect(warm).toHaveBeenCalledTimes(1);
    // Closing the chat (no session open) loads nothing; an unknown session is refused before any loading.
    await rig.call('chat.sessions.open', { sessionId: null });
    expect(await rig.call('chat.sessions.open', { sessionId: 'missing' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(warm).toHaveBeenCalledTimes(1);
  });

  it('opening a long chat reads it whole in the background, not while answering, and its first turn waits for that read', async () => {
    const sessionId = await newSession(rig);
    // Written by another connection (the CLI beside the app): the host has none of it in memory.
    const other = new SessionStore({ dataDir: rig.dataDir });
    other.mutate(sessionId, (s) => void s.messages.push(...Array.from({ length: 1_500 }, (_, i) => ({ id: `old${i}`, role: i % 2 ? ('assistant' as const) : ('user' as const), content: `Old turn ${i}.`, createdAt: i }))));
    await other.close();
    const wholeReads = vi.spyOn(SessionRows.prototype, 'load');
    const chunked = vi.spyOn(SessionRows.prototype, 'loadInChunks');
    expect((await rig.call('chat.sessions.open', { sessionId })).ok).toBe(true);
    expect(chunked).toHaveBeenCalledTimes(1);
    rig.server.enqueue({ text: 'Still here.' });
    const { text } = await send(rig, sessionId, 'Do you remember?');
    expect(text).toBe('Still here.');
    const request = rig.server.generations[0]!.body as { messages: Array<{ content: string }> };
    expect(request.messages.map((m) => m.content)).toContain('Old turn 1499.');
    expect(wholeReads).not.toHaveBeenCalled();
    expect(chunked).toHaveBeenCalledTimes(1);
  });

  it('a busy session refuses a second send with CONFLICT; no connection gives CHAT_NO_CONNECTION', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: ['slow ', 'reply'], delayMs: 30 });
    const first = await rig.call('chat.send', { sessionId: id, text: 'one' });
    const second = await rig.call('chat.send', { sessionId: id, text: 'two' });
    expect(second.error?.code).toBe('CONFLICT');
    await finished(rig, (first.value as { turnId: string }).turnId);
    await rig.host.settings.update({ chat: { mainConnectionId: '', model: '', inlineMaxRounds: 3 } });
    // The first session keeps the connection it answered with; a new one has none to use.
    expect((await rig.call('chat.send', { sessionId: await newSession(rig), text: 'three' })).error?.code).toBe('CHAT_NO_CONNECTION');
  });

  it('a session is named by its first message unless someone named it, and keeps the connection it answered with', async () => {
    const a = await newSession(rig, { title: undefined });
    rig.server.enqueue({ text: 'Aye.' });
    await finished(rig, ((await rig.call('chat.send', { sessionId: a, text: 'Where does the old ferry road lead after the flood took the bridge?\nMore.' })).value as { turnId: string }).turnId);
    let session = (await rig.call('chat.sessions.get', { sessionId: a })).value as ChatSession;
    expect(session.title).toBe('Where does the old ferry road lead after the…');
    expect(session.connectionId).toBe('local');

    // Renamed by the person: later turns leave the title alone.
    await rig.call('chat.sessions.rename', { sessionId: a, title: 'Ferry' });
    const named = await newSession(rig, { title: 'My own title' });
    rig.server.enqueue({ text: 'Yes.' });
    await finished(rig, ((await rig.call('chat.send', { sessionId: named, text: 'Hello' })).value as { turnId: string }).turnId);
    expect(((await rig.call('chat.sessions.get', { sessionId: named })).value as ChatSession).title).toBe('My own title');

    // Another connection chosen for session B does not change session A.
    await rig.call('connections.save', { profile: { id: 'other', name: 'Other', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: 'other-model' } });
    const b = await newSession(rig);
    await rig.call('chat.sessions.update', { sessionId: b, patch: { connectionId: 'other', model: 'other-model' } });
    rig.server.enqueue({ text: 'B.' }, { text: 'A.' });
    await finished(rig, ((await rig.call('chat.send', { sessionId: b, text: 'From B' })).value as { turnId: string }).turnId);
    await finished(rig, ((await rig.call('chat.send', { sessionId: a, text: 'From A' })).value as { turnId: string }).turnId);
    const models = rig.server.generations.slice(-2).map((g) => (g.body as { model: string }).model);
    expect(models).toEqual(['other-model', 'test-model']);
    session = (await rig.call('chat.sessions.get', { sessionId: a })).value as ChatSession;
    expect(session.title).toBe('Ferry');
  });

  it("a reasoning model's thinking is shown apart as it comes, kept on its reply with its time, never sent back; a regenerate keeps each swipe's own", async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ reasoning: ['Weighing ', 'the tide.'], text: 'The reply.' }, { text: 'Again.' }, { text: 'Next.' });
    const first = await send(rig, id, 'Think first');
    const { events } = first;
    const thought = events.filter((e): e is Extract<ChatEvent, { type: 'chat.reasoning' }> => e.type === 'chat.reasoning');
    expect(thought.map((e) => e.text).join('')).toBe('Weighing the tide.');
    expect(thought.every((e) => e.messageId === first.turn.assistantMessageId)).toBe(true);
    expect(events.findIndex((e) => e.type === 'chat.delta')).toBeGreaterThan(events.findLastIndex((e) => e.type === 'chat.reasoning'));
    expect(first.text).toBe('The reply.');
    const saved = (await session(id)).messages.at(-1)!;
    expect(saved).toMatchObject({ content: 'The reply.', reasoning: 'Weighing the tide.' });
    // How long it thought, on the host's clock (the measuring itself is reasoning-log.test.ts's, on a fake one).
    expect(saved.reasoningMs).toEqual(expect.any(Number));

    const again = await rig.call('chat.regenerate', { sessionId: id });
    await finished(rig, (again.value as { turnId: string }).turnId);
    const regenerated = (await session(id)).messages.at(-1)!;
    expect(regenerated.content).toBe('Again.');
    expect(regenerated).not.toHaveProperty('reasoning');
    expect(regenerated.swipes![0]).toMatchObject({ content: 'The reply.', reasoning: 'Weighing the tide.' });

    await send(rig, id, 'And now?');
    expect(JSON.stringify(rig.server.generations.at(-1)!.body)).not.toContain('Weighing');
  });

  it('dryRun ends with the final prompt without calling the model, and saves nothing', async () => {
    const id = await newSession(rig, { character: { name: 'Mira', description: 'A ferry captain.', personality: '', scenario: '' } });
    const result = await rig.call('chat.send', { sessionId: id, text: 'Hello', dryRun: true });
    const done = await finished(rig, (result.value as { turnId: string }).turnId);
    expect(done).toMatchObject({ finishReason: 'dry-run' });
    const prompt = (done as { prompt: Array<{ role: string; content: string }> }).prompt;
    expect(prompt[0]!.content).toContain('A ferry captain.');
    expect(prompt.at(-1)).toEqual({ role: 'user', content: 'Hello' });
    expect(rig.server.generations).toHaveLength(0);
    expect((await rig.call('chat.sessions.get', { sessionId: id })).value).toMatchObject({ messages: [] });
  });

  it("a send that leaves dryRun out follows the session's Dry run switch; saying it wins", async () => {
    const id = await newSession(rig, { character: { name: 'Mira', description: 'A ferry captain.', personality: '', scenario: '' } });
    expect(await rig.call('chat.sessions.update', { sessionId: id, patch: { dryRun: true } })).toMatchObject({ ok: true, value: { dryRun: true } });
    const dry = await finished(rig, ((await rig.call('chat.send', { sessionId: id, text: 'Hello' })).value as { turnId: string }).turnId);
    expect(dry).toMatchObject({ finishReason: 'dry-run' });
    expect(rig.server.generations).toHaveLength(0);
    rig.server.enqueue({ text: 'Aye.' });
    const real = await finished(rig, ((await rig.call('chat.send', { sessionId: id, text: 'Hello', dryRun: false })).value as { turnId: string }).turnId);
    expect(real).not.toMatchObject({ finishReason: 'dry-run' });
    expect(rig.server.generations).toHaveLength(1);
    expect(await rig.call('chat.sessions.update', { sessionId: id, patch: { dryRun: 'yes' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/patch/dryRun' } });
  });
});
