// spindle.world_books.entries.create and .update over a session's world info, as LumiBooks, LoreRecall and Psyche call
// them: Lumiverse's fields onto the Workbench's entry, its comment and extensions kept and handed back, saved in the
// session; refused before anything changes when a field is wrong or the book is not a session's.
import { afterEach, describe, expect, it } from 'vitest';
import { chatReads } from '../../../electron/core/chat/chat-reads';
import type { ChatEngine } from '../../../electron/core/chat/chat-engine';
import type { MessageActions } from '../../../electron/core/chat/message-actions';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { addLorebook } from '../../../electron/core/imports/session-import';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function setup(open = true) {
  const sessions = new SessionStore({ dataDir: tempDir() });
  const session = sessions.create({ worldInfo: [{ id: 'harbour', keywords: ['harbour'], content: 'The harbour is closed.', enabled: true }] });
  const reads = chatReads({ sessions, chat: { activeSessionId: open ? session.id : null } as unknown as ChatEngine, messages: {} as MessageActions, regex: { forgetScope: () => 0 }, runningCouncilChat: () => null, changed: () => {} });
  const call = (method: string, ...args: unknown[]) => callSpindle(chatDataHandlers(() => reads), anyCaller('x'), method, { args: [...args, 'user-1'] });
  return { sessions, session, call };
}

describe('world book entries from an extension', () => {
  it('creates and updates entries in Lumiverse’s fields, keeps what extensions put on them, and saves the session', async () => {
    const { sessions, session, call } = setup();
    const created = (await call('world_books.entries.create', session.id, {
      key: ['lamp', ' '],
      content: '(state will appear here)',
      comment: '[Psyche] live state',
      constant: true,
      position: 4,
      extensions: { psyche: { live: true } },
    })) as { id: string };
    expect(created).toMatchObject({ world_book_id: session.id, key: ['lamp'], comment: '[Psyche] live state', constant: true, disabled: false, extensions: { psyche: { live: true } } });

    const updated = await call('world_books.entries.update', 'harbour', { content: 'The harbour reopened.', disabled: true, order_value: 5, extensions: { lorerecall: { seen: 2 } } });
    expect(updated).toMatchObject({ id: 'harbour', key: ['harbour'], content: 'The harbour reopened.', disabled: true, order_value: 5, extensions: { lorerecall: { seen: 2 } } });
    expect(await call('world_books.entries.get', created.id)).toMatchObject({ comment: '[Psyche] live state' });

    const saved = sessions.get(session.id).worldInfo;
    expect(saved.map((e) => [e.id, e.content, e.enabled])).toEqual([
      ['harbour', 'The harbour reopened.', false],
      [created.id, '(state will appear here)', true],
    ]);
    expect(saved[1]).toMatchObject({ keywords: ['lamp'], constant: true, comment: '[Psyche] live state', extensions: { psyche: { live: true } } });
  });

  it('refuses a wrong field, an unknown entry and a book that is no session, changing nothing', async () => {
    const { sessions, session, call } = setup();
    const before = sessions.get(session.id).worldInfo;
    await expect(call('world_books.entries.update', 'harbour', { key: 'harbour' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/key' } });
    await expect(call('world_books.entries.update', 'nowhere', { content: 'x' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/entryId' } });
    await expect(call('world_books.entries.create', 'no-book', { content: 'x' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    await expect(call('world_books.entries.update', 'harbour', { extensions: { big: 'x'.repeat(300 * 1024) } })).rejects.toMatchObject({ error: { code: 'INPUT_TOO_LARGE' } });
    expect(sessions.get(session.id).worldInfo).toEqual(before);
  });

  it('world_books.create (Psyche seeding its run) names the open chat’s book, kept for later reads; its entries go into that chat', async () => {
    const { sessions, session, call } = setup();
    const book = (await call('world_books.create', { name: 'Psyche — live state', description: 'What Psyche tracks' })) as { id: string; name: string; description: string };
    expect(book).toMatchObject({ id: session.id, name: 'Psyche — live state', description: 'What Psyche tracks' });
    // Read back by id and in the list, and kept on the chat (its export carries it).
    expect(await call('world_books.get', book.id)).toMatchObject({ name: 'Psyche — live state', description: 'What Psyche tracks' });
    expect(((await call('world_books.list', {})) as { data: Array<{ name: string }> }).data.map((b) => b.name)).toEqual(['Psyche — live state']);
    expect(sessions.get(session.id).worldInfoBook).toMatchObject({ name: 'Psyche — live state', description: 'What Psyche tracks' });
    await call('world_books.entries.create', book.id, { key: ['mood'], content: 'Mara is wary.' });
    expect(sessions.get(session.id).worldInfo.map((e) => e.content)).toEqual(['The harbour is closed.', 'Mara is wary.']);
    await expect(call('world_books.create', { name: '' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/name' } });
  });

  it('world_books.create leaves a book that has a name as it is (a lorebook the person imported), writing nothing', async () => {
    const { sessions, session, call } = setup();
    sessions.mutate(session.id, (s) => ({ ...s, worldInfoBook: { name: 'Harbor Lore', description: 'Kept by the keeper.', scan_depth: 4 } }));
    const before = sessions.get(session.id).updatedAt;
    const book = await call('world_books.create', { name: 'Psyche — live state' });
    expect(book).toMatchObject({ id: session.id, name: 'Harbor Lore', description: 'Kept by the keeper.' });
    expect(sessions.get(session.id).worldInfoBook).toEqual({ name: 'Harbor Lore', description: 'Kept by the keeper.', scan_depth: 4 });
    expect(sessions.get(session.id).updatedAt).toBe(before);
  });

  it('a lorebook added after world_books.create named the book brings its settings; the name given stays', async () => {
    const { sessions, session, call } = setup();
    await call('world_books.create', { name: 'Psyche — live state' });
    const lorebook = { name: 'Harbor Lore', scan_depth: 4, entries: { '0': { uid: 0, key: ['lamp'], content: 'The lamp is lit at dusk.' } } };
    addLorebook(sessions, session.id, Buffer.from(JSON.stringify(lorebook)));
    expect(sessions.get(session.id).worldInfoBook).toEqual({ name: 'Psyche — live state', scan_depth: 4 });
  });

  it('world_books.create with no chat open is NOT_FOUND, naming why', async () => {
    const { call } = setup(false);
    await expect(call('world_books.create', { name: 'Psyche' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/input', message: expect.stringContaining('needs an open chat') } });
  });
});
