// World books of their own, as published extensions make them through a real worker: Set Points and JAR make a book,
// fill it, and make a character with it (world_book_ids), Lorebary gives it its picture (setAvatar); Psyche rewrites its entry between turns; a global book. The turn's prompt,
// as the local LLM server receives it, carries the attached book's entries as they are then; a deleted session's
// attachment goes with it, and the book stays.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIXEL as PNG } from '../../helpers/png';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, send, type ChatRig } from '../chat/helpers';
import { heard, installListener } from './event-listener';
import { waitFor } from './harness';

let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

/** An extension whose tools run Set Points' publish and Psyche's turn update, as their backends call spindle. */
async function withPublisher(): Promise<ChatRig> {
  rig = await chatRig();
  await addMainConnection(rig);
  const dir = path.join(tempDir('cw-books-'), 'set_points');
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: 'set_points', name: 'Set Points', version: '1.0.0', author: 'A', permissions: ['tools', 'characters', 'world_books'], entry_backend: 'dist/backend.js' }));
  fs.writeFileSync(
    path.join(dir, 'dist', 'backend.js'),
    `for (const name of ['publish', 'avatar', 'restate', 'rules', 'forget', 'reset']) spindle.registerTool({ name, display_name: name, description: name, parameters: { type: 'object', properties: {} } });
spindle.on('TOOL_INVOCATION', async ({ toolName, args }) => {
  if (toolName === 'publish') {
    const book = await spindle.world_books.create({ name: 'Harbour · Set Points', description: 'Made with the card', metadata: { set_points: { key: 'k1' } } });
    const entry = await spindle.world_books.entries.create(book.id, { key: ['harbour'], content: 'The harbour closes at dusk.', extensions: { set_points: { index: 0 } } });
    await spindle.world_books.entries.create(book.id, { key: [], content: 'Mood: calm.', constant: true });
    const character = await spindle.characters.create({ name: 'Mara', description: 'A harbour keeper.', first_mes: 'The gate creaks.', world_book_ids: [book.id] });
    return { bookId: book.id, entryId: entry.id, character };
  }
  if (toolName === 'avatar') {
    // Lorebary's way: the card's picture after the card, as bytes.
    const png = Uint8Array.from(atob('${PNG.toString('base64')}'), (c) => c.charCodeAt(0));
    const set = await spindle.characters.setAvatar(args.characterId, { data: png, filename: 'mara.png', mime_type: 'image/png' });
    let jpeg;
    try {
      await spindle.characters.setAvatar(args.characterId, { data: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]), mime_type: 'image/jpeg' });
    } catch (err) {
      jpeg = { code: err.code, path: err.path };
    }
    return { image_id: set.image_id, jpeg };
  }
  if (toolName === 'restate') {
    const entries = await spindle.world_books.entries.list(args.bookId);
    const mood = entries.data.find((e) => e.constant);
    return spindle.world_books.entries.update(mood.id, { content: 'Mood: ' + args.mood + '.' });
  }
  if (toolName === 'rules') {
    const book = await spindle.world_books.create({ name: 'House rules' });
    await spindle.world_books.entries.create(book.id, { key: [], content: 'No magic in this world.', constant: true });
    return { global: await spindle.world_books.activateGlobal(book.id), activated: await spindle.world_books.getActivated(args.chatId) };
  }
  if (toolName === 'forget') {
    // LumiAgent's way: an entry of the card's own world info, then the book's entry and the book, deleted.
    const own = await spindle.world_books.entries.create(args.characterId, { key: ['gate'], content: 'The gate creaks.' });
    await spindle.world_books.entries.delete(own.id);
    await spindle.world_books.entries.delete(args.entryId);
    return spindle.world_books.delete(args.bookId);
  }
  return { deleted: await spindle.characters.delete(args.characterId), book: await spindle.world_books.get(args.bookId) };
});
`,
  );
  await rig.host.extensions.installFromFolder(dir, { grant: ['tools', 'characters', 'world_books'], trust: true }, () => undefined);
  await waitFor(() => rig!.host.registry.list().some((t) => t.qualifiedName === 'set_points:publish'), 'set_points to run');
  return rig;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- what the extension answered: checked by each assertion
async function run(r: ChatRig, tool: string, args: Record<string, unknown> = {}): Promise<any> {
  const outcome = await r.host.registry.invoke(`set_points:${tool}`, args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return JSON.parse(outcome.content);
}

const systemOf = (r: ChatRig) => (r.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');

describe('world books of their own, attached to a character', () => {
  it("Set Points' publish: a book made before any chat, filled, and made a card with; the card's turns read it, and a rewrite between turns", async () => {
    const r = await withPublisher();
    const published = await run(r, 'publish');
    expect(published.character).toMatchObject({ name: 'Mara', world_book_ids: [published.bookId] });
    const sessionId = published.character.id as string;
    // Its picture, set after it was made, is the character's image_id, shown where a message names it.
    const avatar = await run(r, 'avatar', { characterId: published.character.id });
    expect(avatar).toEqual({ image_id: `avatar-${published.character.id}`, jpeg: { code: 'INVALID_INPUT', path: '/avatar/data' } });
    expect(await r.call('extensions.image', { imageId: avatar.image_id })).toEqual({ ok: true, value: { dataUrl: `data:image/png;base64,${PNG.toString('base64')}` } });
    // The lore is the book's, not the session's own world info.
    expect((await r.call('chat.sessions.get', { sessionId })).value).toMatchObject({ worldInfo: [] });

    r.server.enqueue({ text: 'Aye.' }, { text: 'Still aye.' });
    await send(r, sessionId, 'Is the harbour open?');
    expect(systemOf(r)).toContain('The harbour closes at dusk.');
    expect(systemOf(r)).toContain('Mood: calm.');
    await run(r, 'restate', { bookId: published.bookId, mood: 'stormy' });
    await send(r, sessionId, 'And now?');
    expect(systemOf(r)).toContain('Mood: stormy.');
    expect(systemOf(r)).not.toContain('Mood: calm.');
    // A global book applies to every chat; getActivated says what fires now and from where (without chat_mutation, only
    // what fires without reading the chat: the constant entries, not the harbour keyword).
    const rules = await run(r, 'rules', { chatId: sessionId });
    expect(rules.activated.map((a: { bookSource: string; bookId: string }) => [a.bookSource, a.bookId === published.bookId])).toEqual([['character', true], ['global', false]]);
    r.server.enqueue({ text: 'No spells, then.' });
    await send(r, sessionId, 'Can I cast a spell?');
    expect(systemOf(r)).toContain('No magic in this world.');

    // The card goes; the book stays, attached to nothing.
    expect(await run(r, 'reset', { characterId: sessionId, bookId: published.bookId })).toMatchObject({ deleted: true, book: { id: published.bookId } });
    expect(r.host.library.linked(sessionId)).toEqual([]);
  }, 60_000);

  it("each change is told as Lumiverse's WORLD_BOOK_* events, whoever made it; the book and entry only to world_books readers", async () => {
    const r = await withPublisher();
    const told = ['WORLD_BOOK_CHANGED', 'WORLD_BOOK_DELETED', 'WORLD_BOOK_ENTRY_CHANGED', 'WORLD_BOOK_ENTRY_DELETED'];
    await installListener(r, 'chapters', ['world_books'], told);
    await installListener(r, 'stranger', [], told);
    const published = await run(r, 'publish');
    const sessionId = published.character.id as string;
    expect(await run(r, 'forget', { characterId: sessionId, entryId: published.entryId, bookId: published.bookId })).toBe(true);

    const book = published.bookId as string;
    const reader = await heard(r, 'chapters', 7);
    // The book made, its two entries, then the session's own entry made and deleted, the book's entry deleted, the book.
    expect(reader.map((e) => e.event)).toEqual(['WORLD_BOOK_CHANGED', 'WORLD_BOOK_ENTRY_CHANGED', 'WORLD_BOOK_ENTRY_CHANGED', 'WORLD_BOOK_ENTRY_CHANGED', 'WORLD_BOOK_ENTRY_DELETED', 'WORLD_BOOK_ENTRY_DELETED', 'WORLD_BOOK_DELETED']);
    expect(reader[0]!.payload).toMatchObject({ id: book, worldBook: { id: book, name: 'Harbour · Set Points', metadata: { set_points: { key: 'k1' } } } });
    expect(reader[1]!.payload).toMatchObject({ id: published.entryId, worldBookId: book, entry: { id: published.entryId, world_book_id: book, key: ['harbour'], content: 'The harbour closes at dusk.' } });
    expect(reader[3]!.payload).toMatchObject({ worldBookId: sessionId, entry: { world_book_id: sessionId, key: ['gate'], content: 'The gate creaks.' } });
    expect(reader[4]!.payload).toEqual({ id: reader[3]!.payload.id, worldBookId: sessionId });
    expect(reader[5]!.payload).toEqual({ id: published.entryId, worldBookId: book });
    expect(reader[6]!.payload).toEqual({ id: book });

    // Without world_books: the same events, ids only.
    const stranger = await heard(r, 'stranger', 7);
    expect(stranger.map((e) => e.event)).toEqual(reader.map((e) => e.event));
    expect(stranger[0]!.payload).toEqual({ id: book });
    expect(stranger[1]!.payload).toEqual({ id: published.entryId, worldBookId: book });
    expect(JSON.stringify(stranger)).not.toContain('harbour');
  }, 60_000);
});
