// spindle.registerMessageContentProcessor, as slash-command extensions use it: the person's line goes through the
// processor before it is saved (a `/setvar` runs into the chat's variables and is stripped; the turn's prompt already
// reads the variable), an edit goes through it as `update`, an edit of a reply with swipes as `swipe_update` (its
// extra left alone), and a dry run saves nothing, so no processor runs. The window's display pass runs them as
// `render` before the display scripts, and its revision follows them as they come and go.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';

let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
  const installed = await rig.call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_slash_commands'), grant: ['tools', 'chat_mutation'], trust: true });
  if (!installed.ok) throw new Error(JSON.stringify(installed.error));
  await rig.host.extensions.whenSettled();
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function run(method: 'chat.send' | 'chat.regenerate', params: Record<string, unknown>): Promise<void> {
  rig.server.enqueue({ text: 'The reply.' });
  const started = await rig.call(method, params);
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  await finished(rig, (started.value as { turnId: string }).turnId);
}

const session = async (sessionId: string) => (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
const seen = async () => {
  const answer = await rig.host.registry.invoke('lumiverse_slash_commands:seen', {}, { timeoutMs: 20_000 });
  if (!answer.ok) throw new Error(JSON.stringify(answer));
  return JSON.parse(answer.content) as Array<Record<string, unknown>>;
};

describe('message content processors', () => {
  it("process the person's line before it is saved, and their edits, as Lumiverse's message routes do", async () => {
    const sessionId = await newSession(rig, { character: { name: 'Mara', description: 'The mood is {{getchatvar::mood}}.', personality: '', scenario: '' } });
    await run('chat.send', { sessionId, text: '/setvar mood stormy\nHello there' });
    const saved = await session(sessionId);
    // What it added is the message's extra (Lumiverse's, where processors read it back), not extensions' metadata.
    expect(saved.messages[0]).toMatchObject({ role: 'user', content: 'Hello there', extra: { slash: 'mood' } });
    expect(saved.messages[0]!.metadata).toBeUndefined();
    expect(saved.metadata).toEqual({ chat_variables: { mood: 'stormy' } });
    // The turn that answered the line already read the variable the line set.
    const prompt = rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(prompt.messages[0]!.content).toContain('The mood is stormy.');
    expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: 'Hello there' });

    // Only a command: the processor leaves a note, as such extensions do, so the line is never empty.
    await run('chat.send', { sessionId, text: '/setvar mood calm' });
    expect((await session(sessionId)).messages[2]).toMatchObject({ content: '_(variables updated)_' });

    const userId = saved.messages[0]!.id;
    const edited = await rig.call('chat.messages.edit', { sessionId, messageId: userId, content: '/setvar sky grey\nHello again' });
    expect(edited.ok).toBe(true);
    expect((await session(sessionId)).messages[0]).toMatchObject({ content: 'Hello again', extra: { slash: 'sky' } });
    expect((await session(sessionId)).metadata).toEqual({ chat_variables: { mood: 'calm', sky: 'grey' } });

    // A reply with swipes is edited as its shown swipe; its extra is the message's, left alone.
    await run('chat.regenerate', { sessionId });
    const reply = (await session(sessionId)).messages.at(-1)!;
    expect(reply.swipes?.length).toBe(2);
    await rig.call('chat.messages.edit', { sessionId, messageId: reply.id, content: 'An edited reply.' });

    // A dry run saves nothing: the processor does not see its line.
    const before = (await seen()).length;
    await run('chat.send', { sessionId, text: '/setvar mood wild', dryRun: true });
    expect((await seen()).length).toBe(before);
    expect((await session(sessionId)).metadata).toEqual({ chat_variables: { mood: 'calm', sky: 'grey' } });

    expect((await seen()).map((w) => [w.origin, w.isUser, w.messageId === null ? null : 'id', w.swipeIndex])).toEqual([
      ['create', true, null, null],
      ['create', true, null, null],
      ['update', true, 'id', null],
      ['swipe_update', false, 'id', 1],
    ]);
    // The edit's processor was handed the message's extra as it was: what it added on the line's first save.
    expect((await seen())[2]!.extra).toEqual({ slash: 'mood' });
  }, 60_000);

  it('render what the window shows, before the display scripts, and the display revision follows them', async () => {
    const sessionId = await newSession(rig);
    const listed = async () => (await rig.call('regex.list', {})).value as { revision: number; processors: number };
    const shown = async () => (await rig.call('regex.display', { sessionId, items: [{ text: 'Hi :wave:', role: 'assistant', depth: 0, messageId: 'm-shown' }, { text: '', role: 'user', depth: 1 }] })).value as { texts: string[]; revision: number };
    const installed = await listed();
    expect(installed.processors).toBe(1);
    expect(await shown()).toMatchObject({ texts: ['Hi (waves)', ''], revision: installed.revision });
    const seenBefore = (await seen()).filter((w) => w.origin === 'render');
    expect(seenBefore).toEqual([{ origin: 'render', isUser: false, messageId: 'm-shown', swipeIndex: null, extra: { role: 'assistant', is_user: false } }]);

    // Disabled, its processor goes: the revision moves, the window is told, and the text is shown as written.
    const disabled = await rig.call('extensions.disable', { id: 'lumiverse_slash_commands' });
    expect(disabled.ok).toBe(true);
    await rig.host.extensions.whenSettled();
    const after = await listed();
    expect(after).toMatchObject({ processors: 0 });
    expect(after.revision).toBeGreaterThan(installed.revision);
    expect(rig.events.flatMap((e) => (e.type === 'regex.changed' ? [e.revision] : []))).toContain(after.revision);
    expect((await shown()).texts).toEqual(['Hi :wave:', '']);
  }, 60_000);
});
