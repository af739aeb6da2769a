// spindle.chat.setMessageHidden / setMessagesHidden / isMessageHidden, as LumiBooks and SummaryPlus call them: the flag is
// kept on the session's messages and read back; an id the session does not have changes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

describe('hidden messages', () => {
  it('are flagged one at a time or in bulk, read back, and unflagged; nothing changes for an unknown id', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const session = sessions.create();
    sessions.mutate(session.id, (s) => {
      for (const id of ['m1', 'm2', 'm3']) s.messages.push({ id, role: id === 'm2' ? 'assistant' : 'user', content: id, createdAt: 0 });
    });
    const reads = testChatReads(sessions, { activeSessionId: session.id });
    const call = (method: string, ...args: unknown[]) => callSpindle(chatDataHandlers(() => reads), anyCaller('x'), method, { args });
    const hiddenNow = async () => Promise.all(['m1', 'm2', 'm3'].map((id) => call('chat.isMessageHidden', session.id, id)));

    expect(await hiddenNow()).toEqual([false, false, false]);
    await call('chat.setMessageHidden', session.id, 'm2', true);
    await call('chat.setMessagesHidden', session.id, ['m1', 'm3'], true);
    expect(await hiddenNow()).toEqual([true, true, true]);
    await call('chat.setMessagesHidden', session.id, ['m1', 'm2'], false);
    expect(await hiddenNow()).toEqual([false, false, true]);
    expect(sessions.get(session.id).messages.map((m) => m.hidden ?? false)).toEqual([false, false, true]);
    // getMessages says so as Lumiverse does, in each message's extra.
    expect(((await call('chat.getMessages', session.id)) as Array<{ extra: Record<string, unknown> }>).map((m) => m.extra)).toEqual([{}, {}, { hidden: true }]);

    await expect(call('chat.setMessagesHidden', session.id, ['m1', 'nope'], true)).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/messageIds' } });
    await expect(call('chat.isMessageHidden', session.id, 'nope')).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(await hiddenNow()).toEqual([false, false, true]);
  });
});
