// spindle.world_books over a session's world info and over the books of their own (lore/book-library.ts), as LumiBooks,
// LoreRecall, Psyche and WorldForge call them: Lumiverse's fields onto the Workbench's entry, its comment and extensions
// kept and handed back; a new book in no chat, attached to a character by its world_book_ids and read at each turn;
// refused before anything changes when a field is wrong or the book is none.
import { afterEach, describe, expect, it } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { BookLibrary, LIBRARY_LIMITS } from '../../../electron/core/lore/book-library';

afterEach(cleanupTempDirs);

function setup(open = true) {
  const sessions = new SessionStore({ dataDir: tempDir() });
  const session = sessions.create({ worldInfo: [{ id: 'harbour', keywords: ['harbour'], content: 'The harbour is closed.', enabled: true }] });
  const library = new BookLibrary(sessions.db, { now: () => 0 });
  const reads = testChatReads(sessions, { activeSessionId: open ? session.id : null, broadcast: () => undefined }, { library });
  const call = (method: string, ...args: unknown[]) => callSpindle(chatDataHandlers(() => reads), anyCaller('x'), method, { args: [...args, 'user-1'] });
  return { sessions, session, call, library, reads };
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

  it("keeps Lumiverse's fields it does not act on and hands them back (its defaults where none was written); acts on selective in Lumiverse's numbering", async () => {
    const { sessions, session, call } = setup();
    // As the web scraper and LoreBary's importer write them.
    const made = (await call('world_books.entries.create', session.id, {
      key: ['harbor'],
      keysecondary: ['storm'],
      selective: true,
      selective_logic: 0,
      content: 'Ships stay in when a storm comes.',
      vectorized: true,
      priority: 3,
      group_name: 'weather',
      sticky: 2,
      role: null,
    })) as { id: string };
    const read = await call('world_books.entries.get', made.id);
    expect(read).toMatchObject({ selective: true, selective_logic: 0, vectorized: true, priority: 3, group_name: 'weather', sticky: 2, role: null, depth: 4, position: 0, probability: 100, use_probability: true, cooldown: 0, exclude_greeting: false });
    const entry = () => sessions.get(session.id).worldInfo.find((e) => e.id === made.id)!;
    // 0 is "all of them" in Lumiverse's matcher (SillyTavern's files number it otherwise). Kept apart from what is exported.
    expect(entry()).toMatchObject({ secondaryKeywords: ['storm'], selectiveLogic: 'and_all', lumiverse: { vectorized: true, priority: 3, group_name: 'weather', sticky: 2, role: null } });
    expect(entry().extra).toBeUndefined();
    await call('world_books.entries.update', made.id, { selective_logic: 1 });
    expect(entry().selectiveLogic).toBe('not_any');
    expect(await call('world_books.entries.get', made.id)).toMatchObject({ selective: true, selective_logic: 1 });
    // Off, its logic is kept apart (as Lumiverse's column): on again, it is the one written.
    await call('world_books.entries.update', made.id, { selective: false, vectorized: false });
    expect(entry().selectiveLogic).toBeUndefined();
    await call('world_books.entries.update', made.id, { selective_logic: 2 });
    expect(await call('world_books.entries.get', made.id)).toMatchObject({ selective: false, selective_logic: 2, vectorized: false, priority: 3 });
    await call('world_books.entries.update', made.id, { selective: true });
    expect(entry().selectiveLogic).toBe('and_any');
    // The harbour entry was never written with them: Lumiverse's defaults.
    expect(await call('world_books.entries.get', 'harbour')).toMatchObject({ selective: false, selective_logic: 0, vectorized: false, group_name: '', depth: 4 });
    await expect(call('world_books.entries.update', made.id, { selective_logic: 7 })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/selective_logic' } });
    await expect(call('world_books.entries.update', made.id, { priority: { high: true } })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/priority' } });
  });

  it('takes values as Lumiverse does (null as none, 0/1 as booleans, a card position); reads an imported entry’s own values; clearing keys leaves no always-on entry', async () => {
    const { sessions, session, call } = setup();
    await call('world_books.entries.update', 'harbour', { depth: null, use_probability: 0, prevent_recursion: 1, position: 'after_char', probability: '35', automation_id: '', role: 2 });
    expect(await call('world_books.entries.get', 'harbour')).toMatchObject({ depth: 4, use_probability: false, prevent_recursion: true, position: 1, probability: 35, automation_id: null, role: 'assistant' });
    await call('world_books.entries.update', 'harbour', { role: 'narrator' });
    expect(await call('world_books.entries.get', 'harbour')).toMatchObject({ role: null });
    // An entry imported from a SillyTavern file reads back with that file's values under Lumiverse's names.
    sessions.mutate(session.id, (s) => {
      s.worldInfo.push({ id: 'imported', keywords: ['gate'], content: 'The gate.', enabled: true, constant: false, source: { shape: 'file', entry: { depth: 2, position: 4, probability: 50, useProbability: true, group: 'town', role: 1 } } });
    });
    expect(await call('world_books.entries.get', 'imported')).toMatchObject({ depth: 2, position: 4, probability: 50, use_probability: true, group_name: 'town', role: 'user' });
    // The harbour entry is the Workbench's own (constant unset): its keywords cleared, it fires by none, not on every turn.
    await call('world_books.entries.update', 'harbour', { key: [] });
    expect(sessions.get(session.id).worldInfo.find((e) => e.id === 'harbour')).toMatchObject({ keywords: [], constant: false });
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

  it('world_books.create makes a book of its own, in no chat (none open too), as Lumiverse does; read, listed, renamed, deleted', async () => {
    const { sessions, session, call } = setup(false);
    const book = (await call('world_books.create', { name: 'Psyche — live state', description: 'What Psyche tracks', metadata: { psyche: true } })) as { id: string };
    expect(book).toMatchObject({ name: 'Psyche — live state', description: 'What Psyche tracks', metadata: { psyche: true } });
    expect(book.id).not.toBe(session.id);
    expect(await call('world_books.get', book.id)).toEqual(book);
    // The library's books, then the chats' own world info.
    const listed = (await call('world_books.list', {})) as { data: Array<{ id: string }>; total: number };
    expect(listed.data.map((b) => b.id)).toEqual([book.id, session.id]);
    const entry = (await call('world_books.entries.create', book.id, { key: ['mood'], content: 'Mara is wary.', constant: true })) as { id: string };
    expect(entry).toMatchObject({ world_book_id: book.id, content: 'Mara is wary.' });
    // Nothing landed in the chat.
    expect(sessions.get(session.id).worldInfo.map((e) => e.content)).toEqual(['The harbour is closed.']);
    expect(await call('world_books.update', book.id, { name: 'Psyche' })).toMatchObject({ id: book.id, name: 'Psyche', description: 'What Psyche tracks' });
    await expect(call('world_books.update', session.id, { name: 'x' })).rejects.toMatchObject({ error: { code: 'UNSUPPORTED_HERE', path: '/worldBookId' } });
    await expect(call('world_books.update', 'no-such-book', { name: 'x' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    await expect(call('world_books.create', { name: '' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/input/name' } });
    expect(await call('world_books.delete', book.id)).toBe(true);
    expect(await call('world_books.delete', book.id)).toBe(false);
    expect(await call('world_books.get', book.id)).toBeNull();
    expect(await call('world_books.entries.get', entry.id)).toBeNull();
  });

  it("attached by a character's world_book_ids (Psyche, WorldForge): a turn reads its entries as they are; the list replaces; [] detaches; its own book stays", async () => {
    const { session, call, library } = setup();
    const book = (await call('world_books.create', { name: 'Psyche' })) as { id: string };
    const entry = (await call('world_books.entries.create', book.id, { key: ['__psyche_state__'], content: 'Mara is wary.', constant: true })) as { id: string };
    const before = (await call('characters.get', session.id)) as { world_book_ids: string[] };
    expect(before.world_book_ids).toEqual([session.id]);
    // Written back as read, with the new one added (and a made-up id, dropped: no turn could read it).
    const after = (await call('characters.update', session.id, { world_book_ids: [...before.world_book_ids, book.id, 'gone'] })) as { world_book_ids: string[] };
    expect(after.world_book_ids).toEqual([book.id, session.id]);
    expect(library.sources([session.id], []).flatMap((b) => b.entries).map((e) => e.content)).toEqual(['Mara is wary.']);
    // Rewritten every turn: the next turn reads the new text.
    await call('world_books.entries.update', entry.id, { content: 'Mara trusts you now.' });
    expect(library.sources([session.id], []).flatMap((b) => b.entries).map((e) => e.content)).toEqual(['Mara trusts you now.']);
    expect(await call('world_books.entries.delete', entry.id)).toBe(true);
    expect(library.sources([session.id], []).flatMap((b) => b.entries)).toEqual([]);
    expect(((await call('characters.update', session.id, { world_book_ids: [] })) as { world_book_ids: string[] }).world_book_ids).toEqual([session.id]);
    expect(library.linked(session.id)).toEqual([]);
    await expect(call('characters.update', session.id, { world_book_ids: ['x'.repeat(129)] })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('the library is bounded: its size as JSON, and the books that apply to every chat', async () => {
    const { call, library } = setup();
    const many = Array.from({ length: LIBRARY_LIMITS.maxGlobal + 1 }, (_, i) => library.create({ name: `Book ${i}` }).id);
    await expect(call('world_books.setGlobal', many)).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
    expect(() => library.setGlobals(many)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INPUT_TOO_LARGE' }) }));
    const saved = LIBRARY_LIMITS.maxBytes;
    try {
      LIBRARY_LIMITS.maxBytes = 64 * 1024;
      await expect(call('world_books.entries.create', many[0], { key: [], content: 'x'.repeat(70 * 1024) })).rejects.toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
      expect(library.entries(many[0]!)).toEqual([]);
    } finally {
      LIBRARY_LIMITS.maxBytes = saved;
    }
  });

  it("entries.delete takes an entry out of a chat's own world info too; an unknown one is false", async () => {
    const { sessions, session, call } = setup();
    expect(await call('world_books.entries.delete', 'harbour')).toBe(true);
    expect(sessions.get(session.id).worldInfo).toEqual([]);
    expect(await call('world_books.entries.delete', 'harbour')).toBe(false);
  });

  it("getActivated answers what a turn of the chat reads and fires now, by book and source; global books apply to every chat", async () => {
    const { sessions, session, call, reads } = setup();
    sessions.mutate(session.id, (s) => ({ ...s, messages: [{ id: 'm1', role: 'user', content: 'Is the harbour open tonight?', createdAt: 1 }] }));
    const attached = (await call('world_books.create', { name: 'Mara' })) as { id: string };
    const mood = (await call('world_books.entries.create', attached.id, { key: [], content: 'Mood: calm.', constant: true })) as { id: string };
    await call('world_books.entries.create', attached.id, { key: ['dragon'], content: 'Dragons are myths.' });
    const chatBook = (await call('world_books.create', { name: 'Ledger' })) as { id: string };
    const ledger = (await call('world_books.entries.create', chatBook.id, { key: ['tonight'], content: 'The ledger closes at night.', comment: 'ledger' })) as { id: string };
    const everywhere = (await call('world_books.create', { name: 'Rules' })) as { id: string };
    const rule = (await call('world_books.entries.create', everywhere.id, { key: [], content: 'No magic.', constant: true })) as { id: string };
    await call('characters.update', session.id, { world_book_ids: [attached.id] });
    // ALMANAC's way: the chat's own list in its metadata.
    await call('chats.update', session.id, { metadata: { chat_world_book_ids: [chatBook.id, attached.id] } });
    expect(await call('world_books.activateGlobal', everywhere.id)).toEqual([everywhere.id]);
    await expect(call('world_books.activateGlobal', 'no-such-book')).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(await call('world_books.getGlobal')).toEqual([everywhere.id]);

    const activated = (await call('world_books.getActivated', session.id)) as Array<{ id: string; bookId: string; bookSource: string; keys: string[]; comment: string; source: string }>;
    expect(activated.map((a) => [a.id, a.bookId, a.bookSource])).toEqual([
      ['harbour', session.id, 'character'],
      [mood.id, attached.id, 'character'],
      [ledger.id, chatBook.id, 'chat'],
      [rule.id, everywhere.id, 'global'],
    ]);
    expect(activated.find((a) => a.id === ledger.id)).toMatchObject({ keys: ['tonight'], comment: 'ledger', source: 'keyword' });
    await expect(call('world_books.getActivated', 'no-such-chat')).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });

    // Without the chat's text permission, only what fires without reading the chat: which keywords fired would tell what it says.
    const blind = (await callSpindle(chatDataHandlers(() => reads), { extensionId: 'x', allowed: (p) => p !== 'chat_mutation' }, 'world_books.getActivated', { args: [session.id] })) as Array<{ id: string }>;
    expect(blind.map((a) => a.id)).toEqual([mood.id, rule.id]);
    expect(await call('world_books.setGlobal', [' ', everywhere.id, everywhere.id, 'gone'])).toEqual([everywhere.id]);
    expect(await call('world_books.deactivateGlobal', everywhere.id)).toEqual([]);
    expect(((await call('world_books.getActivated', session.id)) as Array<{ id: string }>).map((a) => a.id)).not.toContain(rule.id);
  });
});
