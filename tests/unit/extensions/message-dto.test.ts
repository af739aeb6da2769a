// A message as Lumiverse hands it over: the wire shape its events carry (ChatMessageDTO: no role, extensions' metadata
// under extra.spindle_metadata) and spindle.chat.getMessages' shape, the same with its role and metadata normalized.
import { describe, expect, it } from 'vitest';
import { messageDto, messageWire } from '../../../electron/core/extensions/spindle-host/message-dto';

const owner = { chatId: 'c1', userName: 'Ada', characterName: 'Mara' };

describe('a message to extensions', () => {
  it("in events, Lumiverse's wire shape: is_user and name, no role; extensions' metadata under extra.spindle_metadata", () => {
    const reply = { id: 'm2', role: 'assistant' as const, content: 'Aye.', createdAt: 2_500, metadata: { tracker: { hp: 3 } }, reasoning: 'Hm.', extra: { api: 'openai' } };
    const wire = messageWire(owner, reply, 1);
    expect(wire).toEqual({
      id: 'm2',
      chat_id: 'c1',
      index_in_chat: 1,
      is_user: false,
      name: 'Mara',
      content: 'Aye.',
      send_date: 2,
      swipe_id: 0,
      swipes: ['Aye.'],
      swipe_dates: [2],
      extra: { api: 'openai', reasoning: 'Hm.', spindle_metadata: { tracker: { hp: 3 } } },
      parent_message_id: null,
      branch_id: null,
      created_at: 2,
    });
    // No metadata: none in extra either.
    expect(messageWire(owner, { id: 'm1', role: 'user', content: 'Hi', createdAt: 0 }, 0).extra).toEqual({});
    // What an import kept under a host-owned key does not pass for the host's.
    expect(messageWire(owner, { ...reply, metadata: {}, extra: { spindle_metadata: { forged: true } } }, 1).extra).toEqual({ reasoning: 'Hm.' });
  });

  it('from getMessages, the wire shape plus role and metadata', () => {
    const user = messageDto(owner, { id: 'm1', role: 'user', content: 'Hi', createdAt: 0 }, 0);
    expect(user).toMatchObject({ is_user: true, name: 'Ada', role: 'user', metadata: {} });
    // Its metadata once, normalized: not again in extra (Lumiverse strips it there).
    const reply = messageDto(owner, { id: 'm2', role: 'assistant', content: 'Aye.', createdAt: 0, metadata: { k: 1 }, reasoning: 'Hm.' }, 1);
    expect(reply).toMatchObject({ role: 'assistant', metadata: { k: 1 } });
    expect(reply.extra).toEqual({ reasoning: 'Hm.' });
  });
});
