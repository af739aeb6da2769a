// An imported card as extensions see it: spindle.characters.get gives the card's own fields (first_mes, mes_example,
// system prompt, tags, alternate greetings, extensions), not blanks; characters.update changes them where the card keeps them;
// characters.create makes a session of a card's fields and characters.delete deletes one.
import { describe, expect, it, afterEach } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import type { ChatEngine } from '../../../electron/core/chat/chat-engine';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { RegexStore } from '../../../electron/core/regex/regex-store';
import { importSessionFile } from '../../../electron/core/imports/session-import';
import { toCard } from '../../../electron/core/imports/card-export';
import { sessionFromCharacterFields } from '../../../electron/core/imports/card-session';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { macroEnv } from '../../../electron/core/chat/pipeline/macro-env';
import { sessionVariables } from '../../../electron/core/chat/pipeline/builtin-macros';

afterEach(cleanupTempDirs);

describe('which greeting opened an imported card', () => {
  it("is kept in Lumiverse's numbering (first_mes, then the alternates, a blank one counted), and the macro env reads it", async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const card = { spec: 'chara_card_v2', data: { name: 'Mara', description: '', first_mes: '', alternate_greetings: ['Late again.', 'Storm tonight.'] } };
    // The picker offers the two greetings there are; the second is the card's third.
    const { session } = await importSessionFile(sessions, Buffer.from(JSON.stringify(card)), { now: 1, greeting: 1, regex: new RegexStore(sessions.db, Date) });
    expect(session.metadata).toEqual({ activeGreetingIndex: 2 });
    const env = macroEnv({ session, variables: sessionVariables(session), commit: true });
    expect(env.chat.greetingIndex).toBe(2);
    expect(env.character.firstMessage).toBe('Storm tonight.');
    // The same text twice: the one chosen, not the first of them.
    const twice = { spec: 'chara_card_v2', data: { name: 'Mara', description: '', first_mes: 'Hello.', alternate_greetings: ['Hello.', 'Storm.'] } };
    const { session: second } = await importSessionFile(sessions, Buffer.from(JSON.stringify(twice)), { now: 1, greeting: 1, regex: new RegexStore(sessions.db, Date) });
    expect(second.metadata).toEqual({ activeGreetingIndex: 1 });
  });
});

describe('an imported card through spindle.characters', () => {
  it('carries the card fields the Workbench keeps', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const card = {
      spec: 'chara_card_v2',
      data: {
        name: 'Mara',
        description: 'Keeper.',
        first_mes: 'You made it.',
        alternate_greetings: ['Late again.'],
        mes_example: '<START>',
        system_prompt: 'Be {{char}}.',
        post_history_instructions: 'Short.',
        creator_notes: 'Made for storms.',
        creator: 'Ines',
        tags: ['coast', 7],
        extensions: { 'someone/tool': { keep: 1 } },
      },
    };
    const { session } = await importSessionFile(sessions, Buffer.from(JSON.stringify(card)), { now: 1, regex: new RegexStore(sessions.db, Date) });
    const reads = testChatReads(sessions, { activeSessionId: session.id, broadcast: () => {} });
    const got = (await callSpindle(chatDataHandlers(() => reads), anyCaller('x'), 'characters.get', { args: [session.id] })) as Record<string, unknown>;
    expect(got).toMatchObject({
      name: 'Mara',
      first_mes: 'You made it.',
      alternate_greetings: ['Late again.'],
      mes_example: '<START>',
      system_prompt: 'Be {{char}}.',
      post_history_instructions: 'Short.',
      creator_notes: 'Made for storms.',
      creator: 'Ines',
      tags: ['coast'],
      extensions: { 'someone/tool': { keep: 1 } },
    });
  });

  it('characters.update changes the character and its card as LoreRecall and LumiAgent call it; the card exported follows', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mara', description: 'Keeper.', first_mes: 'You made it.', extensions: { 'someone/tool': { keep: 1 } } } };
    const { session } = await importSessionFile(sessions, Buffer.from(JSON.stringify(card)), { now: 1, regex: new RegexStore(sessions.db, Date) });
    const told: Array<[string, unknown]> = [];
    const reads = testChatReads(sessions, { activeSessionId: session.id, broadcast: (event: string, payload: unknown) => void told.push([event, payload]) });
    const handlers = chatDataHandlers(() => reads);
    const patch = { description: 'Keeps the lamp.', alternate_greetings: ['Back again?'], extensions: { 'someone/tool': { keep: 1 }, lorerecall: { on: true } }, world_book_ids: ['elsewhere'] };
    const updated = (await callSpindle(handlers, anyCaller('x'), 'characters.update', { args: [session.id, patch, 'user-1'] })) as Record<string, unknown>;
    expect(updated).toMatchObject({ name: 'Mara', description: 'Keeps the lamp.', first_mes: 'You made it.', alternate_greetings: ['Back again?'], extensions: patch.extensions, world_book_ids: [] });
    const saved = sessions.get(session.id);
    expect(saved.character.description).toBe('Keeps the lamp.');
    expect(toCard(saved, 'v2')).toMatchObject({ data: { description: 'Keeps the lamp.', alternate_greetings: ['Back again?'], extensions: patch.extensions } });
    // Extensions hear it as Lumiverse tells it: the character as it is now.
    expect(told).toEqual([['CHARACTER_EDITED', { id: session.id, character: updated }]]);
    // Refused before anything changes: a field of the wrong type, a character that is no session.
    await expect(callSpindle(handlers, anyCaller('x'), 'characters.update', { args: [session.id, { tags: 'coast' }] })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/tags' } });
    await expect(callSpindle(handlers, anyCaller('x'), 'characters.update', { args: ['nobody', { description: 'x' }] })).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(sessions.get(session.id).character.description).toBe('Keeps the lamp.');
  });

  it('characters.create makes a session as a card of its fields is imported (lorebary-importer, CardForge); delete takes it and its rules (SuperDeduper)', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const changes: string[] = [];
    const forgotten: string[] = [];
    const stopped: string[] = [];
    const told: unknown[] = [];
    const chat = { activeSessionId: null, stop: (id: string) => (stopped.push(id), false), settled: async () => {}, broadcast: (event: string, payload: unknown) => void told.push([event, payload]) } as unknown as ChatEngine;
    const reads = testChatReads(sessions, chat, {
      regex: { forgetScope: (id) => (forgotten.push(id), 0) },
      sessionFromCharacter: (input) => sessionFromCharacterFields(sessions, input, 5).id,
      changed: (id, change) => void changes.push(`${change}:${id}`),
    });
    const handlers = chatDataHandlers(() => reads);
    const input = { name: 'Ines', description: 'A cartographer.', first_mes: 'Maps first.', alternate_greetings: ['Lost?'], tags: ['coast'], creator: 'Lorebary', extensions: { lorebary: { source: 'https://lorebary.example/1' } } };
    const made = (await callSpindle(handlers, anyCaller('x'), 'characters.create', { args: [input] })) as Record<string, unknown>;
    expect(made).toMatchObject({ name: 'Ines', description: 'A cartographer.', first_mes: 'Maps first.', alternate_greetings: ['Lost?'], tags: ['coast'], creator: 'Lorebary', extensions: input.extensions });
    const id = made.id as string;
    const saved = sessions.get(id);
    expect(saved.character).toEqual({ name: 'Ines', description: 'A cartographer.', personality: '', scenario: '' });
    expect(saved.messages.map((m) => [m.role, m.content])).toEqual([['assistant', 'Maps first.']]);
    expect(toCard(saved, 'v2')).toMatchObject({ data: { name: 'Ines', extensions: input.extensions } });
    expect(changes).toEqual([`created:${id}`]);
    // Refused before anything is made: no name, a field of the wrong type.
    const before = sessions.summaries().length;
    await expect(callSpindle(handlers, anyCaller('x'), 'characters.create', { args: [{ description: 'nameless' }] })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/name' } });
    await expect(callSpindle(handlers, anyCaller('x'), 'characters.create', { args: [{ name: 'X', tags: 'coast' }] })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/tags' } });
    expect(sessions.summaries()).toHaveLength(before);
    expect(await callSpindle(handlers, anyCaller('x'), 'characters.delete', { args: [id] })).toBe(true);
    expect(sessions.has(id)).toBe(false);
    expect([stopped, forgotten, changes.at(-1)]).toEqual([[id], [id], `deleted:${id}`]);
    expect(told).toEqual([['CHAT_DELETED', { id }], ['CHARACTER_DELETED', { id }]]);
    expect(await callSpindle(handlers, anyCaller('x'), 'characters.delete', { args: [id] })).toBe(false);
  });
});
