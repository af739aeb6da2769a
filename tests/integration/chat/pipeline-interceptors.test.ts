// The interceptors and context handlers of a chat turn, with a Lumiverse-style extension in a real worker against the
// local LLM server: what they get (Lumiverse's context, marked chat turns), what they may change (parameters with
// generation_parameters), a cancel, a reasoning model's thinking; and the adversarial cases — an interceptor that
// hangs, throws, answers a string or 10 MB, or is refused at registration for want of its permission.
import { describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { chatRigEach, finished, newSession } from './helpers';
import { GRANT, pipelineRig } from './pipeline-rig';

const each = chatRigEach();

const { install, turn, sentMessages, invoke } = pipelineRig(each);

describe("a chat turn's interceptors and context handlers", () => {
  it.each([
    ['#hang', /skipped: TOOL_TIMEOUT/],
    ['#throw', /skipped: TOOL_ERROR — interceptor failure on purpose/],
    ['#string', /skipped: it returned neither a message array/],
    ['#huge', /skipped: (RESULT_TOO_LARGE|its messages exceed)/],
  ])('an interceptor that does %s is skipped with a note; the turn goes on with the messages before it', async (marker, note) => {
    await install();
    const { reply } = await turn(`Hello ${marker}`);
    expect(reply.content).toBe('The reply.');
    expect(sentMessages()[0]!.content).not.toContain('[pipeline]');
    expect(reply.trace!.find((s) => s.stage === 'interceptors' && s.note)?.note).toMatch(note);
  }, 60_000);

  it('an interceptor refused at registration for want of its permission shows on the card, and a grant clears it', async () => {
    await install(GRANT.filter((p) => p !== 'interceptor'));
    const refused = () => each.rig.host.extensions.get('lumiverse_pipeline').refused ?? [];
    expect(refused()).toContain('interceptor — register interceptor');
    const { reply } = await turn('Hello there');
    expect(reply.trace!.some((s) => s.stage === 'interceptors')).toBe(false);
    await each.rig.call('extensions.grant', { id: 'lumiverse_pipeline', permission: 'interceptor' });
    await each.rig.host.extensions.whenSettled();
    expect(refused()).not.toContain('interceptor — register interceptor');
    // The grant loaded it again, so its interceptor is registered and runs in the next turn.
    const registered = () => (each.rig.host.extensions.get('lumiverse_pipeline').registrations?.pipeline ?? []).some((r) => r.startsWith('interceptor'));
    for (let i = 0; i < 2000 && !registered(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(registered()).toBe(true);
    const after = await turn('Hello again');
    expect(after.reply.trace!.some((s) => s.stage === 'interceptors' && s.by === 'Pipeline Probe')).toBe(true);
  }, 60_000);

  it('interceptor parameters (sampling, stop strings, a reply shaped as JSON) apply only with generation_parameters; unknown ones are listed', async () => {
    await install();
    await turn('Hello #params');
    expect((each.rig.server.generations.at(-1)!.body as { temperature?: number }).temperature).toBeUndefined();
    await each.rig.call('extensions.grant', { id: 'lumiverse_pipeline', permission: 'generation_parameters' });
    await each.rig.host.extensions.whenSettled();
    const { reply } = await turn('Hello #params');
    const schema = { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] };
    expect(each.rig.server.generations.at(-1)!.body).toMatchObject({ temperature: 0.15, stop: ['\nAda:'], response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } } });
    expect(reply.trace!.map((s) => s.note).join('\n')).toContain('parameters not applied here: logit_bias');
    // Gemini's words for the same (its OpenAPI types as JSON Schema's), sent on as the turn's provider's own.
    await turn('Hello #gemini');
    expect(each.rig.server.generations.at(-1)!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', properties: { mood: { type: 'string' } } } } } });
    const { reply: bad } = await turn('Hello #badformat');
    expect((each.rig.server.generations.at(-1)!.body as { response_format?: unknown }).response_format).toBeUndefined();
    expect(bad.trace!.map((s) => s.note).join('\n')).toContain('its reply format was not applied: response_format.type is text, json_object or json_schema.');
  }, 60_000);

  it("the blocks an interceptor names (its breakdown) are said on its stage of the turn's breakdown", async () => {
    await install();
    const { reply } = await turn('Hello #blocks');
    const stage = reply.trace!.find((s) => s.stage === 'interceptors' && s.by === 'Pipeline Probe')!;
    expect(stage.note).toBe('Its blocks: “Pipeline memory” (message 1, system), “a block” (message 2, system).');
    expect(stage.after).toContain('[pipeline] a line from the interceptor');
    // Without a breakdown, no note.
    const plain = await turn('Hello there');
    expect(plain.reply.trace!.find((s) => s.stage === 'interceptors' && s.by === 'Pipeline Probe')!.note).toBeUndefined();
  }, 60_000);

  it("an interceptor gets Lumiverse's context (its ids, isDryRun, a signal) and each chat turn marked with its message; the marks never reach the model", async () => {
    await install();
    const worldInfo = [
      { id: 'w-lamp', keywords: ['lamp'], content: 'The lamp burns whale oil.', enabled: true, comment: 'Lamp lore' },
      { id: 'w-sea', keywords: ['harbour'], content: 'Not asked about.', enabled: true },
    ];
    const { sessionId, session, done } = await turn('Where is the lamp? #context', { worldInfo });
    const line = sentMessages().find((m) => m.content.startsWith('[context] '))!.content;
    expect(JSON.parse(line.slice('[context] '.length))).toEqual({
      generationId: done.turnId,
      isDryRun: false,
      characterId: sessionId,
      personaId: `persona-${sessionId}`,
      connectionId: 'local',
      aborted: false,
      sources: [[0, session.messages[0]!.id]],
      // The world info in the prompt, in Lumiverse's shape with its book; the entry that did not fire is not there.
      activatedWorldInfo: [{ id: 'w-lamp', comment: 'Lamp lore', keys: ['lamp'], source: 'keyword', bookId: sessionId, bookSource: 'character', bookName: `${session.character.name} — world info` }],
    });
    for (const message of sentMessages()) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
  }, 60_000);

  it("in a branch, the turn's context names the origin as its character, and the chat's window says which it is", async () => {
    await install();
    const { sessionId, session } = await turn('Where is the lamp?');
    const branched = await each.rig.call('chat.sessions.branch', { sessionId, messageId: session.messages.at(-1)!.id });
    if (!branched.ok) throw new Error(JSON.stringify(branched.error));
    const branchId = (branched.value as ChatSession).id;
    expect((await each.rig.call('chat.sessions.window', { sessionId: branchId })).value).toMatchObject({ origin: sessionId });
    expect((await each.rig.call('chat.sessions.window', { sessionId })).value).not.toHaveProperty('origin');
    each.rig.server.enqueue({ text: 'The branch goes on.' });
    const sent = await each.rig.call('chat.send', { sessionId: branchId, text: 'And now? #context' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    await finished(each.rig, (sent.value as { turnId: string }).turnId);
    const line = sentMessages().find((m) => m.content.startsWith('[context] '))!.content;
    expect(JSON.parse(line.slice('[context] '.length))).toMatchObject({ characterId: sessionId, personaId: `persona-${branchId}` });
  }, 60_000);

  it('a context handler can cancel the generation: nothing is sent to the model', async () => {
    await install();
    const before = each.rig.server.generations.length;
    const { done, session, sessionId } = await turn('Please stop #cancel');
    expect(done).toMatchObject({ finishReason: 'stopped', reason: expect.stringContaining('Pipeline Probe') });
    expect(each.rig.server.generations.length).toBe(before);
    // The reply announced as the turn began never came: it is MESSAGE_DELETED, as Lumiverse deletes its staged message.
    const sent = JSON.parse(((await invoke('text_events')) as { content: string }).content) as Array<{ event: string; payload: { message?: { id: string; is_user: boolean } } }>;
    const staged = sent.findLast((e) => e.event === 'MESSAGE_SENT')!.payload.message!;
    expect(staged.is_user).toBe(false);
    expect(session.messages.map((m) => m.id)).not.toContain(staged.id);
    const changed = JSON.parse(((await invoke('message_events')) as { content: string }).content) as Array<{ event: string; payload: unknown }>;
    expect(changed).toEqual([{ event: 'MESSAGE_DELETED', payload: { chatId: sessionId, messageId: staged.id } }]);
  }, 60_000);

  it("a reasoning model's thinking reaches extensions as it comes, as STREAM_TOKEN_RECEIVED of type reasoning, before the reply's own tokens; it is not the reply", async () => {
    await install();
    const sessionId = await newSession(each.rig);
    each.rig.server.enqueue({ reasoning: ['Weighing ', 'the tide.'], text: 'The reply.' });
    const sent = await each.rig.call('chat.send', { sessionId, text: 'Think first' });
    if (!sent.ok) throw new Error(JSON.stringify(sent.error));
    const turnId = (sent.value as { turnId: string }).turnId;
    await finished(each.rig, turnId);
    const heard = JSON.parse(((await invoke('text_events')) as { content: string }).content) as Array<{ event: string; payload: { token?: string; type?: string; generationId?: string } }>;
    const tokens = heard.filter((e) => e.event === 'STREAM_TOKEN_RECEIVED').map((e) => e.payload);
    const thought = tokens.filter((t) => t.type === 'reasoning');
    expect(thought.map((t) => t.token).join('')).toBe('Weighing the tide.');
    expect(thought.every((t) => t.generationId === turnId)).toBe(true);
    expect(tokens.findIndex((t) => t.type !== 'reasoning')).toBeGreaterThan(tokens.findLastIndex((t) => t.type === 'reasoning'));
    expect(tokens.filter((t) => t.type === undefined).map((t) => t.token).join('')).toBe('The reply.');
    // One sequence for both, as Lumiverse numbers them: an extension that keeps the order by seq loses nothing.
    expect(tokens.map((t) => (t as { seq: number }).seq)).toEqual(tokens.map((_, i) => i));
    const session = (await each.rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(session.messages.at(-1)!.content).toBe('The reply.');
  }, 60_000);
});
