// A continuation adds to the reply it continues: its text and calls grow, and what the message holds of its own (an
// extension's metadata, its hidden flag, an imported line's fields) stays with it, with or without swipes.
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { saveReply } from '../../../electron/core/chat/reply-save';
import type { ChatMessage } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const own = { metadata: { tracker: { hp: 3 } }, hidden: true, line: { force_avatar: 'mara.png' } };

describe('saveReply continue', () => {
  it.each([
    ['without swipes', {}],
    ['with swipes', { swipes: [{ content: 'Other.', createdAt: 1 }, { content: 'The tide was', createdAt: 2 }], swipeId: 1 }],
  ])('%s keeps the message’s own fields and grows its text', (_label, swipes) => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const session = sessions.create();
    const reply: ChatMessage = { id: 'r1', role: 'assistant', content: 'The tide was', createdAt: 2, ...own, ...swipes };
    sessions.mutate(session.id, (s) => void s.messages.push({ id: 'u1', role: 'user', content: 'Tell me', createdAt: 0 }, reply));
    const { message } = saveReply(sessions, session.id, { id: 'r1', role: 'assistant', content: ' high.', createdAt: 3, reasoning: 'Go on.' }, { kind: 'continue', of: 'r1' });
    expect(message).toMatchObject({ content: 'The tide was high.', createdAt: 2, reasoning: 'Go on.', ...own });
    expect(sessions.get(session.id).messages[1]).toMatchObject({ content: 'The tide was high.', ...own });
  });
});
