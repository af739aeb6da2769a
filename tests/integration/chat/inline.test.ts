// Inline mode against the real local LLM server: members' tools as functions, calls through the registry, tool errors returned to the model, the round cap.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import type { ToolInfo } from '../../../shared/types/tools';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, echoExecutor, inlineCouncil, newSession, send, withToolsSettings, type ChatRig } from './helpers';

let rig: ChatRig;
let tool: ToolInfo;
let calls: Array<Record<string, unknown>>;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
  calls = [];
  const registered = rig.host.registry.register(
    { kind: 'builtin', id: 'test' },
    {
      name: 'lookup',
      display_name: 'Lookup',
      description: 'Look a word up in the archive.',
      parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
      council_eligible: true,
      inline_available: true,
      // A read tool: without a mode it would count as a write and wait for approval (safety layer).
      mode: 'read',
    },
    echoExecutor(calls),
  );
  if (!registered.ok) throw new Error(JSON.stringify(registered.error));
  tool = registered.value;
  await inlineCouncil(rig, [tool.qualifiedName]);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

type Sent = { messages: Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }>; tools?: Array<{ function: { name: string; description: string } }> };
const body = (i: number) => rig.server.generations[i]!.body as Sent;
const toolMessages = (i: number) => body(i).messages.filter((m) => m.role === 'tool');

describe('inline mode', () => {
  it('offers member tools as functions and runs two tool rounds through the registry', async () => {
    const id = await newSession(rig);
    rig.server.enqueue(
      { text: 'Checking.', toolCalls: [{ id: 'call_a', name: tool.alias, args: ['{"q":', '"bridge"}'] }] },
      { toolCalls: [{ id: 'call_b', name: tool.alias, args: { q: 'ferry' } }] },
      { text: 'The bridge is out; take the ferry.' },
    );
    const { done, events, text } = await send(rig, id, 'How do I cross?');

    const offered = body(0).tools!.map((t) => t.function);
    expect(offered).toEqual([{ name: tool.alias, description: `[member-one-xyz – Scout] ${tool.description}`, parameters: expect.any(Object) }].map((o) => expect.objectContaining({ name: o.name, description: o.description })));
    expect(calls.map((c) => c.q)).toEqual(['bridge', 'ferry']);
    expect(rig.server.generations).toHaveLength(3);
    expect(toolMessages(1)).toEqual([expect.objectContaining({ tool_call_id: 'call_a', content: 'echo:{"q":"bridge"}' })]);
    expect(toolMessages(2).map((m) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
    expect(text).toBe('Checking.The bridge is out; take the ferry.');
    expect(done.finishReason).toBe('stop');

    // seed 004 order per call, then the result.
    const phases = events.filter((e) => e.type === 'chat.toolCall' && (e as { callId: string }).callId === 'call_a').map((e) => (e as { phase: string }).phase);
    expect(phases[0]).toBe('started');
    expect(phases[1]).toBe('name');
    expect(phases.slice(2, -2).every((p) => p === 'args')).toBe(true);
    expect(phases.slice(-2)).toEqual(['ended', 'result']);
    const named = events.find((e) => e.type === 'chat.toolCall' && (e as { phase: string }).phase === 'name');
    expect(named).toMatchObject({ name: tool.alias, qualifiedName: tool.qualifiedName, memberName: 'member-one-xyz', round: 1 });

    const saved = (await rig.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
    expect(saved.messages[1]!.toolCalls?.map((c) => [c.name, c.ok, c.round])).toEqual([
      [tool.alias, true, 1],
      [tool.alias, true, 2],
    ]);
  });

  it('names a tool shared by two members <member8>_<alias>, one function each', async () => {
    await inlineCouncil(rig, [tool.qualifiedName], [
      { id: 'alpha-member-1', role: 'Scout' },
      { id: 'beta-member-2', role: 'Judge' },
    ]);
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'ok' });
    await send(rig, id, 'Hi');
    const names = body(0).tools!.map((t) => t.function.name);
    expect(names).toEqual([`alpha-me_${tool.alias}`, `beta-mem_${tool.alias}`]);
    expect(body(0).tools![1]!.function.description.startsWith('[beta-member-2 – Judge] ')).toBe(true);
  });

  it('council.inlineTools lists exactly the functions a turn offers (one home for inline names)', async () => {
    await inlineCouncil(rig, [tool.qualifiedName], [
      { id: 'alpha-member-1', role: 'Scout' },
      { id: 'beta-member-2', role: 'Judge' },
    ]);
    const listed = (await rig.call('council.inlineTools', {})).value as Array<{ name: string; description: string; memberName: string; role: string }>;
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'ok' });
    await send(rig, id, 'Hi');
    const offered = body(0).tools!.map((t) => ({ name: t.function.name, description: t.function.description }));
    expect(listed.map((t) => ({ name: t.name, description: t.description }))).toEqual(offered);
    expect(listed.map((t) => [t.memberName, t.role])).toEqual([
      ['alpha-member-1', 'Scout'],
      ['beta-member-2', 'Judge'],
    ]);
  });

  it('answers invalid-JSON arguments with a tool error and the turn goes on', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ toolCalls: [{ id: 'call_bad', name: tool.alias, args: '{"q": "bri' }] }, { text: 'Sorry, let me answer anyway.' });
    const { done, events, text } = await send(rig, id, 'Hi');
    expect(calls).toHaveLength(0);
    expect(events.find((e) => e.type === 'chat.toolCall' && (e as { phase: string }).phase === 'failed')).toMatchObject({ error: { code: 'INVALID_ARGUMENTS_JSON' } });
    const answer = toolMessages(1)[0]!;
    expect(answer.tool_call_id).toBe('call_bad');
    expect(JSON.parse(answer.content!)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS_JSON' } });
    expect(text).toBe('Sorry, let me answer anyway.');
    expect(done.finishReason).toBe('stop');
  });

  it('answers a call to an unknown tool with UNKNOWN_TOOL and the turn goes on', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ toolCalls: [{ id: 'call_x', name: 'rm_rf', args: {} }] }, { text: 'Done.' });
    const { done, text } = await send(rig, id, 'Hi');
    expect(JSON.parse(toolMessages(1)[0]!.content!)).toMatchObject({ error: { code: 'UNKNOWN_TOOL' } });
    expect(text).toBe('Done.');
    expect(done.finishReason).toBe('stop');
  });

  it('schema-invalid arguments are rejected by the registry and returned to the model', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ toolCalls: [{ id: 'call_s', name: tool.alias, args: { q: 5 } }] }, { text: 'ok' });
    await send(rig, id, 'Hi');
    expect(calls).toHaveLength(0);
    expect(JSON.parse(toolMessages(1)[0]!.content!)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
  });

  it('C1: stops a model that keeps calling tools at the round cap, with the reason', async () => {
    await rig.host.settings.update({ chat: { mainConnectionId: 'local', model: '', inlineMaxRounds: 2 } });
    const id = await newSession(rig);
    for (let i = 0; i < 5; i++) rig.server.enqueue({ text: `r${i} `, toolCalls: [{ id: `call_${i}`, name: tool.alias, args: { q: `q${i}` } }] });
    const { done, events } = await send(rig, id, 'Loop');
    expect(rig.server.generations).toHaveLength(3);
    expect(calls).toHaveLength(2);
    expect(done.finishReason).toBe('tool-round-cap');
    expect(done.reason).toMatch(/after 2 rounds/);
    const saved = (await rig.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
    expect(saved.messages[1]).toMatchObject({ finishReason: 'tool-round-cap', content: 'r0 r1 r2 ' });
    // The calls of the round that hit the cap were not run, and are saved as such.
    expect(saved.messages[1]!.toolCalls!.map((c) => [c.id, c.ok, c.errorCode ?? null])).toEqual([
      ['call_0', true, null],
      ['call_1', true, null],
      ['call_2', false, 'TOOL_NOT_RUN'],
    ]);
    // Live, the call that was not run ends with the same result the record keeps; every record says where its card sits.
    expect(events.filter((e) => e.type === 'chat.toolCall' && (e as { phase: string }).phase === 'result' && (e as { callId: string }).callId === 'call_2')).toEqual([
      expect.objectContaining({ ok: false, errorCode: 'TOOL_NOT_RUN', content: saved.messages[1]!.toolCalls![2]!.result, durationMs: 0 }),
    ]);
    expect(saved.messages[1]!.toolCalls!.map((c) => c.textOffset)).toEqual([3, 6, 9]);
    expect(saved.messages[1]!.toolCalls!.every((c) => typeof c.durationMs === 'number')).toBe(true);
  });

  it('C1: a model repeating the same call (same tool, same arguments however spaced) is stopped on the third, with the reason, long before the round cap', async () => {
    await rig.host.settings.update({ chat: { mainConnectionId: 'local', model: '', inlineMaxRounds: 10 } });
    const id = await newSession(rig);
    const args = [{ q: 'lamp' }, ['{ "q" :', ' "lamp" }'], { q: 'lamp' }];
    for (const [i, a] of args.entries()) rig.server.enqueue({ text: `r${i} `, toolCalls: [{ id: `call_${i}`, name: tool.alias, args: a }] });
    rig.server.enqueue({ text: 'never asked for' });
    const { done } = await send(rig, id, 'Loop');
    expect(rig.server.generations).toHaveLength(3);
    expect(calls).toHaveLength(2);
    expect(done.finishReason).toBe('tool-loop');
    expect(done.reason).toMatch(/same arguments 3 times/);
    const saved = (await rig.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
    expect(saved.messages[1]!.toolCalls!.map((c) => [c.id, c.ok, c.errorCode ?? null])).toEqual([
      ['call_0', true, null],
      ['call_1', true, null],
      ['call_2', false, 'TOOL_NOT_RUN'],
    ]);
  });

  it('A8: a call id the model already used in the turn (an earlier round) is answered DUPLICATE_CALL_ID and not run; the model reads why', async () => {
    await rig.host.settings.update({ chat: { mainConnectionId: 'local', model: '', inlineMaxRounds: 3 } });
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'One. ', toolCalls: [{ id: 'call_a', name: tool.alias, args: { q: 'one' } }] });
    rig.server.enqueue({ text: 'Again. ', toolCalls: [{ id: 'call_a', name: tool.alias, args: { q: 'two' } }] });
    rig.server.enqueue({ text: 'Done.' });
    const { done } = await send(rig, id, 'Go');
    expect(done.finishReason).toBe('stop');
    expect(calls).toHaveLength(1);
    const saved = (await rig.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
    expect(saved.messages[1]!.toolCalls!.map((c) => [c.id, c.ok, c.errorCode ?? null])).toEqual([
      ['call_a', true, null],
      ['call_a', false, 'DUPLICATE_CALL_ID'],
    ]);
    expect(toolMessages(2).at(-1)!.content).toContain('DUPLICATE_CALL_ID');
  });
});

describe('tool calls when no tools are offered', () => {
  it('a call the model makes anyway is saved with the turn and survives a reload from disk', async () => {
    await rig.host.settings.update((current) => withToolsSettings(current, { mode: 'sidecar' }));
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'Let me look.', toolCalls: [{ id: 'call_z', name: 'lookup_anything', args: { q: 'x' } }] });
    const { done } = await send(rig, id, 'Hi', { council: false });
    expect(body(0).tools).toBeUndefined();
    expect(done.finishReason).toBe('tool-calls');
    expect(calls).toHaveLength(0);

    const dataDir = rig.dataDir;
    await rig.host.dispose();
    const reopened = await chatRig({ dataDir });
    try {
      const saved = (await reopened.call('chat.sessions.get', { sessionId: id })).value as ChatSession;
      expect(saved.messages[1]).toMatchObject({ content: 'Let me look.' });
      expect(saved.messages[1]!.toolCalls).toEqual([
        expect.objectContaining({ id: 'call_z', name: 'lookup_anything', argsText: '{"q":"x"}', ok: false, errorCode: 'TOOL_NOT_RUN', round: 1, unoffered: true, result: expect.stringMatching(/No tools were offered/) }),
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('offers a member tool that does not set inline_available (seed 000), and says so when a turn offers none', async () => {
    const plain = rig.host.registry.register(
      { kind: 'builtin', id: 'test2' },
      { name: 'recall', description: 'Recall a fact.', parameters: { type: 'object', properties: { q: { type: 'string' } } }, council_eligible: true, mode: 'read' },
      echoExecutor(calls),
    );
    if (!plain.ok) throw new Error(JSON.stringify(plain.error));
    expect(plain.value.inlineAvailable).toBe(false);
    await inlineCouncil(rig, [plain.value.qualifiedName]);
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'Fine.' });
    await send(rig, id, 'Anything?', { council: true });
    expect(body(0).tools!.map((t) => t.function.name)).toEqual([plain.value.alias]);

    // A member whose only tool is gone: nothing to offer, and the turn says so.
    await inlineCouncil(rig, ['gone:tool']);
    rig.server.enqueue({ text: 'Alone.' });
    const { events } = await send(rig, id, 'Still there?', { council: true });
    expect(body(1).tools).toBeUndefined();
    expect(events).toContainEqual(expect.objectContaining({ type: 'chat.council', phase: 'skipped', reason: expect.stringContaining('offers none') }));
  });
});
