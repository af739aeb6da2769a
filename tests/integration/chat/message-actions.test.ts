// Message actions against the real LLM server and a Lumiverse-style extension in a real worker: regenerate adds a
// swipe, ←/→ show them, edit, delete, continue and branch; extensions hear MESSAGE_EDITED / _DELETED / _SWIPED with
// Lumiverse's payloads. Adversarial: unknown messages, a swipe that does not exist, both or neither of swipeId and
// direction, a user message swiped, changes while a reply streams, continue with nothing to continue.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import type { ToolOutcome } from '../../../shared/types/tools';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { eventually } from '../../helpers/events';
import { addMainConnection, chatEvents, chatRig, finished, newSession, send, type ChatRig } from '../chat/helpers';

const FIXTURE = path.resolve('tests/fixtures/extensions/lumiverse_pipeline');

let rig: ChatRig;
beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

const get = async (sessionId: string) => (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;

async function regenerate(sessionId: string, text: string) {
  rig.server.enqueue({ text });
  const started = await rig.call('chat.regenerate', { sessionId });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  const turn = started.value as { turnId: string; assistantMessageId: string };
  await finished(rig, turn.turnId);
  return turn;
}

async function installListener(): Promise<void> {
  const installed = await rig.call('extensions.install', { folder: FIXTURE, grant: ['tools', 'chats', 'chat_mutation'], trust: true });
  if (!installed.ok) throw new Error(JSON.stringify(installed.error));
  await rig.host.extensions.whenSettled();
  for (let i = 0; i < 400 && !rig.host.registry.get('lumiverse_pipeline:message_events'); i++) await new Promise((r) => setTimeout(r, 5));
}

async function heard(count: number): Promise<Array<{ event: string; payload: Record<string, unknown> }>> {
  let events: Array<{ event: string; payload: Record<string, unknown> }> = [];
  // Events travel to the worker on their own; the tool answers after they are in (bounded).
  for (let i = 0; i < 200; i++) {
    const outcome = (await rig.call('tools.invoke', { qualifiedName: 'lumiverse_pipeline:message_events', args: {} })).value as ToolOutcome;
    events = outcome.ok ? JSON.parse(outcome.content) : [];
    if (events.length >= count) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return events;
}

describe('swipes', () => {
  it('regenerate adds a swipe to the same message, each whole; left and right show them; past the ends nothing changes', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'zero' }, { text: 'first' });
    await send(rig, id, 'Hi');
    const { turn: sent } = await send(rig, id, 'Again');
    // A longer question before the regenerate, so the two swipes' prompts differ.
    const question = (await get(id)).messages.at(-2)!;
    await rig.call('chat.messages.edit', { sessionId: id, messageId: question.id, content: `Again, ${'and in more words '.repeat(20)}` });
    const again = await regenerate(id, 'second');
    expect(again.assistantMessageId).toBe(sent.assistantMessageId);
    let reply = (await get(id)).messages.at(-1)!;
    expect(reply).toMatchObject({ id: sent.assistantMessageId, content: 'second', swipeId: 1 });
    expect(reply.swipes!.map((s) => s.content)).toEqual(['first', 'second']);
    expect(reply.swipes![0]!.trace?.length).toBeGreaterThan(0);
    // Each swipe keeps its own prompt report; the message shows the shown one's.
    expect(reply.swipes![0]!.prompt).toBeDefined();
    expect(reply.prompt).toEqual(reply.swipes![1]!.prompt);
    expect(reply.prompt!.parts.history).toBeGreaterThan(reply.swipes![0]!.prompt!.parts.history);
    // The model was asked without the reply being regenerated.
    expect((rig.server.generations.at(-1)!.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content).toMatch(/^Again, and in more words/);

    await rig.call('chat.messages.swipe', { sessionId: id, messageId: reply.id, direction: 'left' });
    const atFirst = await get(id);
    reply = atFirst.messages.at(-1)!;
    expect(reply).toMatchObject({ content: 'first', swipeId: 0, prompt: reply.swipes![0]!.prompt });
    // Past the first: nothing changes, nothing is written (the session keeps its place in the list).
    const unchanged = await rig.call('chat.messages.swipe', { sessionId: id, messageId: reply.id, direction: 'left' });
    expect((unchanged.value as ChatSession).messages.at(-1)).toMatchObject({ content: 'first', swipeId: 0 });
    expect((await get(id)).updatedAt).toBe(atFirst.updatedAt);
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: reply.id, swipeId: 1 })).value).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ content: 'second', swipeId: 1 })]) });

    // The next turn's history holds the shown swipe.
    await rig.call('chat.messages.swipe', { sessionId: id, messageId: reply.id, direction: 'left' });
    rig.server.enqueue({ text: 'third' });
    await send(rig, id, 'Next');
    const history = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(history.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['zero', 'first']);
  });

  it('refuses a swipe that does not exist, both or neither of swipeId and direction, and a user message', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'one' });
    const { turn } = await send(rig, id, 'Hi');
    const session = await get(id);
    const userId = session.messages[0]!.id;
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: turn.assistantMessageId, swipeId: 3 })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/swipeId' });
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: turn.assistantMessageId, swipeId: 0, direction: 'left' })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/swipeId' });
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: turn.assistantMessageId })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/direction' });
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: userId, direction: 'right' })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/messageId' });
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: 'nope', direction: 'right' })).error).toMatchObject({ code: 'NOT_FOUND', path: '/messageId' });
    expect((await get(id)).messages).toEqual(session.messages);
  });
});

describe('edit, delete, continue, branch', () => {
  it('edits a message (the shown swipe with it) and deletes one; the next turn sees both changes', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'first' });
    await send(rig, id, 'Hi');
    await regenerate(id, 'second');
    const [user, reply] = (await get(id)).messages;
    const edited = (await rig.call('chat.messages.edit', { sessionId: id, messageId: reply!.id, content: 'second, edited' })).value as ChatSession;
    expect(edited.messages[1]).toMatchObject({ content: 'second, edited', swipeId: 1 });
    expect(edited.messages[1]!.swipes!.map((s) => s.content)).toEqual(['first', 'second, edited']);
    await rig.call('chat.messages.edit', { sessionId: id, messageId: user!.id, content: 'Hello' });

    rig.server.enqueue({ text: 'ok' });
    await send(rig, id, 'Forget this');
    const forget = (await get(id)).messages[2]!;
    const afterDelete = (await rig.call('chat.messages.delete', { sessionId: id, messageId: forget.id })).value as ChatSession;
    expect(afterDelete.messages.map((m) => m.content)).toEqual(['Hello', 'second, edited', 'ok']);
    rig.server.enqueue({ text: 'fine' });
    await send(rig, id, 'Next');
    const history = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages.slice(1);
    expect(history.map((m) => m.content)).toEqual(['Hello', 'second, edited', 'ok', 'Next']);
    expect((await rig.call('chat.messages.edit', { sessionId: id, messageId: 'gone', content: 'x' })).error).toMatchObject({ code: 'NOT_FOUND', path: '/messageId' });
    expect((await rig.call('chat.messages.delete', { sessionId: id, messageId: forget.id })).error).toMatchObject({ code: 'NOT_FOUND', path: '/messageId' });
  });

  it('continue sends the reply so far as the last message and adds what comes to it; with a user message last it is refused', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'The tide was' });
    const { turn } = await send(rig, id, 'Tell me');
    rig.server.enqueue({ text: ' high that night.' });
    const started = await rig.call('chat.continue', { sessionId: id });
    expect(started.value).toMatchObject({ assistantMessageId: turn.assistantMessageId });
    await finished(rig, (started.value as { turnId: string }).turnId);
    const sent = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(sent.at(-1)).toEqual({ role: 'assistant', content: 'The tide was' });
    expect((await get(id)).messages.map((m) => m.content)).toEqual(['Tell me', 'The tide was high that night.']);

    const other = await newSession(rig);
    expect((await rig.call('chat.continue', { sessionId: other })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/sessionId' });
  });

  it("reply (Lumiverse's Send on an empty box) writes a new reply to the chat as it is, after a reply too; refused while one is written", async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'The door creaks.' });
    await send(rig, id, 'I wait.');
    rig.server.enqueue({ text: 'Footsteps, then nothing.' });
    const started = await rig.call('chat.reply', { sessionId: id });
    expect(started.value).not.toHaveProperty('userMessageId');
    await finished(rig, (started.value as { turnId: string }).turnId);
    const sent = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages.slice(1);
    expect(sent.map((m) => m.content)).toEqual(['I wait.', 'The door creaks.']);
    expect((await get(id)).messages.map((m) => [m.role, m.content])).toEqual([['user', 'I wait.'], ['assistant', 'The door creaks.'], ['assistant', 'Footsteps, then nothing.']]);

    rig.server.enqueue({ text: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 10 });
    const running = await rig.call('chat.reply', { sessionId: id });
    expect((await rig.call('chat.reply', { sessionId: id })).error).toMatchObject({ code: 'CONFLICT' });
    await rig.call('chat.stop', { sessionId: id });
    await finished(rig, (running.value as { turnId: string }).turnId);
    expect((await rig.call('chat.reply', { sessionId: 'no-such-session' })).error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a stopped reply, continued to its end, is no longer marked stopped', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 10 });
    const started = await rig.call('chat.send', { sessionId: id, text: 'Go' });
    const turnId = (started.value as { turnId: string }).turnId;
    await eventually(rig.host, rig.events, () => chatEvents(rig, turnId).find((e) => e.type === 'chat.delta'));
    await rig.call('chat.stop', { sessionId: id });
    await finished(rig, turnId);
    expect((await get(id)).messages.at(-1)).toMatchObject({ stopped: true });
    rig.server.enqueue({ text: ' and the end.' });
    const more = await rig.call('chat.continue', { sessionId: id });
    await finished(rig, (more.value as { turnId: string }).turnId);
    const reply = (await get(id)).messages.at(-1)!;
    expect(reply.stopped).toBeUndefined();
    expect(reply.finishReason).toBe('stop');
    expect(reply.content.endsWith(' and the end.')).toBe(true);
  });

  it('refuses a session whose message shows a swipe it does not have', async () => {
    const doc = { format: 'council-workbench/session', version: 1, id: 'odd', title: 'Odd', createdAt: 1, updatedAt: 1, character: { name: '', description: '', personality: '', scenario: '' }, persona: { name: '', description: '' }, worldInfo: [], messages: [{ id: 'a', role: 'assistant', content: 'x', createdAt: 1, swipes: [{ content: 'x', createdAt: 1 }], swipeId: 3 }] };
    expect((await rig.call('chat.sessions.import', { json: JSON.stringify(doc) })).error).toMatchObject({ code: 'INVALID_INPUT', path: '/messages/0/swipeId' });
  });

  it('branches a new session from a message, the original unchanged; the branch keeps the chat’s metadata and says where it came from, and extensions hear CHAT_FORKED', async () => {
    await installListener();
    // The card keeps a chat variable, as trackers' cards do: the chat's metadata has it after a turn.
    const id = await newSession(rig, { character: { name: 'Mira', description: 'd{{setchatvar::mood::grim}}', personality: '', scenario: '' } });
    rig.server.enqueue({ text: 'one' }, { text: 'two' });
    await send(rig, id, 'A');
    await send(rig, id, 'B');
    const original = await get(id);
    const atId = original.messages[1]!.id;
    const branch = (await rig.call('chat.sessions.branch', { sessionId: id, messageId: atId })).value as ChatSession;
    expect(branch.id).not.toBe(id);
    expect(branch).toMatchObject({ title: 'Test (branch)', character: { name: 'Mira', description: 'd{{setchatvar::mood::grim}}' } });
    expect(branch.messages).toEqual(original.messages.slice(0, 2));
    expect(branch.metadata).toEqual({ chat_variables: { mood: 'grim' }, branched_from: id, branch_at_message: atId });
    const forked = (await heard(1)).find((e) => e.event === 'CHAT_FORKED');
    expect(forked?.payload).toEqual({
      sourceChatId: id,
      forkedChatId: branch.id,
      chat: { id: branch.id, character_id: id, name: 'Test (branch)', metadata: branch.metadata, created_at: expect.any(Number), updated_at: expect.any(Number) },
      branchId: branch.id,
      forkedAtMessageId: atId,
      forkedAtMessageIndex: 1,
    });
    expect(await get(id)).toEqual(original);
    const listed = (await rig.call('chat.sessions.list', {})).value as Array<{ id: string }>;
    expect(listed.map((s) => s.id)).toContain(branch.id);
  });

  it('waits while a reply streams: edit, delete and swipe are refused with CONFLICT, nothing changed', async () => {
    const id = await newSession(rig);
    rig.server.enqueue({ text: 'one' });
    const { turn } = await send(rig, id, 'Hi');
    rig.server.enqueue({ text: Array.from({ length: 100 }, (_, i) => `t${i} `), delayMs: 10 });
    const started = await rig.call('chat.send', { sessionId: id, text: 'Long' });
    const turnId = (started.value as { turnId: string }).turnId;
    await eventually(rig.host, rig.events, () => chatEvents(rig, turnId).find((e) => e.type === 'chat.delta'));
    const before = await get(id);
    expect((await rig.call('chat.messages.edit', { sessionId: id, messageId: turn.assistantMessageId, content: 'x' })).error).toMatchObject({ code: 'CONFLICT' });
    expect((await rig.call('chat.messages.delete', { sessionId: id, messageId: turn.assistantMessageId })).error).toMatchObject({ code: 'CONFLICT' });
    expect((await rig.call('chat.messages.swipe', { sessionId: id, messageId: turn.assistantMessageId, direction: 'left' })).error).toMatchObject({ code: 'CONFLICT' });
    expect(await get(id)).toEqual(before);
    await rig.call('chat.stop', { sessionId: id });
    await finished(rig, turnId);
  });
});

describe('what extensions hear', () => {
  it("MESSAGE_SWIPED (added, navigated), MESSAGE_EDITED and MESSAGE_DELETED with Lumiverse's payloads", async () => {
    await installListener();
    const id = await newSession(rig, { persona: { name: 'Ada', description: '' }, character: { name: 'Mira', description: '', personality: '', scenario: '' } });
    rig.server.enqueue({ text: 'first' });
    const { turn } = await send(rig, id, 'Hi');
    await regenerate(id, 'second');
    await rig.call('chat.messages.swipe', { sessionId: id, messageId: turn.assistantMessageId, direction: 'left' });
    await rig.call('chat.messages.edit', { sessionId: id, messageId: turn.assistantMessageId, content: 'first, edited' });
    const userId = (await get(id)).messages[0]!.id;
    await rig.call('chat.messages.delete', { sessionId: id, messageId: userId });

    const events = await heard(5);
    // The reply's text arriving is MESSAGE_EDITED first (announced empty as the turn began, as Lumiverse stages it).
    expect(events.map((e) => e.event)).toEqual(['MESSAGE_EDITED', 'MESSAGE_SWIPED', 'MESSAGE_SWIPED', 'MESSAGE_EDITED', 'MESSAGE_DELETED']);
    const [written, added, navigated, edited, deleted] = events;
    expect(written!.payload).toMatchObject({ chatId: id, message: { id: turn.assistantMessageId, content: 'first', is_user: false } });
    expect(added!.payload).toMatchObject({ chatId: id, action: 'added', swipeId: 1, message: { id: turn.assistantMessageId, chat_id: id, swipe_id: 1, swipes: ['first', 'second'], content: 'second', is_user: false, name: 'Mira', index_in_chat: 1 } });
    expect(added!.payload).not.toHaveProperty('previousSwipeId');
    expect(navigated!.payload).toMatchObject({ chatId: id, action: 'navigated', swipeId: 0, previousSwipeId: 1, message: { swipe_id: 0, content: 'first' } });
    expect(edited!.payload).toMatchObject({ chatId: id, message: { id: turn.assistantMessageId, content: 'first, edited', swipes: ['first, edited', 'second'] } });
    expect((edited!.payload.message as { swipe_dates: number[] }).swipe_dates).toHaveLength(2);
    expect(deleted!.payload).toEqual({ chatId: id, messageId: userId });
  });
});
