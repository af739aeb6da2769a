// An extension's patch to a saved message (spindle.chat.updateMessage): Lumiverse's precedence — the swipe shown,
// the alternatives' texts, the shown text, the metadata — in one save and one MESSAGE_EDITED; the saved session stays valid.
import { afterEach, describe, expect, it } from 'vitest';
import { savedSession } from '../../helpers/saved-session';
import { MessageActions } from '../../../electron/core/chat/message-actions';
import { checkSession, SessionStore } from '../../../electron/core/chat/session-store';
import type { ChatMessage } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function setup(busy = false) {
  const dataDir = tempDir();
  const sessions = new SessionStore({ dataDir });
  const told: Array<{ event: string; payload: Record<string, unknown> }> = [];
  const actions = new MessageActions({ sessions, isBusy: () => busy, changed: () => undefined, tell: (_id, event, payload) => told.push({ event, payload }), now: () => 9_000 });
  const reply: ChatMessage = {
    id: 'r1',
    role: 'assistant',
    content: 'second',
    createdAt: 2,
    swipes: [
      { content: 'first', createdAt: 1 },
      { content: 'second', createdAt: 2 },
    ],
    swipeId: 1,
  };
  const session = sessions.create();
  sessions.mutate(session.id, (s) => {
    s.messages.push({ id: 'u1', role: 'user', content: 'Hi', createdAt: 0 }, reply);
  });
  const saved = () => checkSession(savedSession(dataDir, session.id));
  return { sessions, actions, told, id: session.id, saved };
}

describe('a message patch from an extension', () => {
  it('navigates, rewrites the alternatives and the shown text, keeps metadata, saves once valid and tells MESSAGE_EDITED once', () => {
    const { actions, told, id, saved } = setup();
    actions.patch(id, 'r1', { swipeId: 0, swipes: ['first, reworded', 'second, reworded'], metadata: { tracker: { hp: 3 } } });
    let reply = saved().messages[1]!;
    expect(reply).toMatchObject({ swipeId: 0, content: 'first, reworded', metadata: { tracker: { hp: 3 } } });
    expect(reply.swipes!.map((s) => s.content)).toEqual(['first, reworded', 'second, reworded']);
    // The swipes were given: SWIPE_EDITED follows, as in Lumiverse, with the swipe shown before.
    expect(told.map((t) => t.event)).toEqual(['MESSAGE_EDITED', 'SWIPE_EDITED']);
    // The event's message is Lumiverse's wire shape: an extension's metadata rides in extra.spindle_metadata.
    expect(told[0]!.payload).toMatchObject({ message: { id: 'r1', content: 'first, reworded', extra: { spindle_metadata: { tracker: { hp: 3 } } } } });
    expect(told[1]!.payload).toEqual({ chatId: id, message: told[0]!.payload.message, previousSwipeId: 1 });

    // content wins over the swipes' text for the shown one; empty metadata removes it.
    actions.patch(id, 'r1', { swipes: ['ignored', 'second again'], content: 'shown text', metadata: {} });
    reply = saved().messages[1]!;
    expect(reply.content).toBe('shown text');
    expect(reply.swipes!.map((s) => s.content)).toEqual(['shown text', 'second again']);
    expect(reply.metadata).toBeUndefined();
    // Only the text or metadata: MESSAGE_EDITED alone.
    told.length = 0;
    actions.patch(id, 'r1', { content: 'plain edit' });
    expect(told.map((t) => t.event)).toEqual(['MESSAGE_EDITED']);
  });

  it("sets and clears the shown reply's reasoning and its time, as Lumiverse's patch.reasoning does; the other swipe keeps its own", () => {
    const { actions, told, id, saved } = setup();
    actions.patch(id, 'r1', { reasoning: { text: 'Weighing the tide.', duration: 4200 } });
    let reply = saved().messages[1]!;
    expect(reply).toMatchObject({ reasoning: 'Weighing the tide.', reasoningMs: 4200 });
    expect(reply.swipes![1]).toMatchObject({ reasoning: 'Weighing the tide.', reasoningMs: 4200 });
    expect(reply.swipes![0]).not.toHaveProperty('reasoning');
    expect((told[0]!.payload.message as { extra: Record<string, unknown> }).extra).toEqual({ reasoning: 'Weighing the tide.', reasoningDuration: 4200 });
    // Each half alone: null clears the duration and leaves the text.
    actions.patch(id, 'r1', { reasoning: { duration: null } });
    reply = saved().messages[1]!;
    expect(reply.reasoning).toBe('Weighing the tide.');
    expect(reply).not.toHaveProperty('reasoningMs');
    actions.patch(id, 'r1', { reasoning: { text: null } });
    expect(saved().messages[1]).not.toHaveProperty('reasoning');
    expect(saved().messages[1]!.swipes![1]).not.toHaveProperty('reasoning');
  });

  it('refuses a swipe the message does not have, an unknown message, and any change while a reply is written; nothing saved', () => {
    const { actions, id, saved } = setup();
    const before = saved();
    expect(() => actions.patch(id, 'r1', { swipeId: 5, content: 'x' })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_INPUT' }) }));
    expect(() => actions.patch(id, 'nope', { content: 'x' })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND' }) }));
    expect(saved()).toEqual(before);
    const busy = setup(true);
    expect(() => busy.actions.patch(busy.id, 'r1', { content: 'x' })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'CONFLICT' }) }));
  });

  it("replaces the alternatives whole, as Lumiverse does: Spare Swipe's [...swipes, spare] adds one, fewer drops the rest", () => {
    const { actions, told, id, saved } = setup();
    actions.patch(id, 'r1', { reasoning: { text: 'Weighing the tide.' } });
    actions.patch(id, 'r1', { swipes: ['first', 'second', 'the spare'] });
    let reply = saved().messages[1]!;
    // The shown one stays shown and keeps its reasoning; the added one is made now.
    expect(reply).toMatchObject({ content: 'second', swipeId: 1, reasoning: 'Weighing the tide.' });
    expect(reply.swipes).toEqual([{ content: 'first', createdAt: 1 }, { content: 'second', createdAt: 2, reasoning: 'Weighing the tide.' }, { content: 'the spare', createdAt: 9_000 }]);
    expect(told.at(-1)).toMatchObject({ event: 'SWIPE_EDITED', payload: { message: { swipes: ['first', 'second', 'the spare'], swipe_id: 1 } } });

    // swipe_id may name one just added.
    actions.patch(id, 'r1', { swipes: ['first', 'second', 'the spare', 'a fourth'], swipeId: 3 });
    reply = saved().messages[1]!;
    expect(reply).toMatchObject({ content: 'a fourth', swipeId: 3 });
    expect(reply).not.toHaveProperty('reasoning');

    // Down to one: the message is a single reply again, its swipes gone.
    actions.patch(id, 'r1', { swipes: ['only this'], swipeId: 0 });
    reply = saved().messages[1]!;
    expect(reply).toMatchObject({ content: 'only this', createdAt: 1 });
    expect(reply).not.toHaveProperty('swipes');
    expect(reply).not.toHaveProperty('swipeId');
    // And back to two from one.
    actions.patch(id, 'r1', { swipes: ['only this', 'again'] });
    expect(saved().messages[1]!).toMatchObject({ content: 'only this', swipeId: 0, swipes: [{ content: 'only this' }, { content: 'again', createdAt: 9_000 }] });
  });

  it('refuses no swipes, too many, and fewer than the one that would be shown; nothing saved', () => {
    const { actions, id, saved } = setup();
    const before = saved();
    const refused = (code: string, path: string) => expect.objectContaining({ error: expect.objectContaining({ code, path }) });
    expect(() => actions.patch(id, 'r1', { swipes: [] })).toThrow(refused('INVALID_INPUT', '/patch/swipes'));
    expect(() => actions.patch(id, 'r1', { swipes: Array.from({ length: 101 }, (_, i) => `s${i}`) })).toThrow(refused('INPUT_TOO_LARGE', '/patch/swipes'));
    // Swipe 1 is shown: one swipe alone leaves it nowhere (Lumiverse: "swipe_id out of range").
    expect(() => actions.patch(id, 'r1', { swipes: ['first'] })).toThrow(refused('INVALID_INPUT', '/patch/swipe_id'));
    expect(() => actions.patch(id, 'r1', { swipes: ['a', 'b'], swipeId: 2 })).toThrow(refused('INVALID_INPUT', '/patch/swipe_id'));
    expect(saved()).toEqual(before);
  });
});
