// A branch stays its origin's character's chat, as in Lumiverse: its character_id is the session it was first branched
// from, chats.list({ characterId }) lists the whole line (Tapestry's tree), and the books attached to that character
// are read in the branch too (WorldForge's one world per character). Adversarial: an origin deleted, a loop of
// branched_from an extension wrote, a branched_from that is no string, a characterId that is no chat.
import { afterEach, describe, expect, it } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { branchRoot, sessionHeads } from '../../../electron/core/util/branch-root';
import { chatDataHandlers } from '../../../electron/core/extensions/spindle-host/chat-data';
import { BookLibrary } from '../../../electron/core/lore/book-library';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

async function setup() {
  const sessions = new SessionStore({ dataDir: tempDir() });
  const root = sessions.create({ title: 'Mira' });
  const branchOf = (from: string, title: string) => sessions.add({ title, metadata: { branched_from: from, branch_at_message: 'm1' } });
  const branch = await branchOf(root.id, 'Mira (branch)');
  const deeper = await branchOf(branch.id, 'Mira (branch) (branch)');
  const other = sessions.create({ title: 'Someone else' });
  const library = new BookLibrary(sessions.db, { now: () => 0 });
  const reads = testChatReads(sessions, { activeSessionId: deeper.id, broadcast: () => undefined }, { library });
  const call = (method: string, ...args: unknown[]) => callSpindle(chatDataHandlers(() => reads), anyCaller('x'), method, { args: [...args, 'user-1'] });
  return { sessions, root, branch, deeper, other, library, call };
}

const ids = (page: unknown) => (page as { data: Array<{ id: string }> }).data.map((c) => c.id).sort();

describe('a line of branches', () => {
  it('names the session it was first branched from as every branch’s character', async () => {
    const { root, branch, deeper, other, call } = await setup();
    expect(await call('chats.get', deeper.id)).toMatchObject({ id: deeper.id, character_id: root.id });
    expect(await call('chats.get', branch.id)).toMatchObject({ character_id: root.id });
    expect(await call('chats.get', root.id)).toMatchObject({ character_id: root.id });
    expect(await call('chats.getActive')).toMatchObject({ id: deeper.id, character_id: root.id });
    expect(await call('chats.get', other.id)).toMatchObject({ character_id: other.id });
  });

  it('lists a character’s chats as the line, whichever of them is named, and nothing for an id that is no chat', async () => {
    const { root, branch, deeper, other, call } = await setup();
    const line = [root.id, branch.id, deeper.id].sort();
    expect(ids(await call('chats.list', { characterId: root.id }))).toEqual(line);
    expect(ids(await call('chats.list', { characterId: deeper.id }))).toEqual(line);
    expect(ids(await call('chats.list', { characterId: other.id }))).toEqual([other.id]);
    expect(ids(await call('chats.list', { characterId: 'no-such-chat' }))).toEqual([]);
    const all = (await call('chats.list', {})) as { data: Array<{ id: string; character_id: string }> };
    expect(all.data.find((c) => c.id === deeper.id)?.character_id).toBe(root.id);
  });

  it('where a branch came from is the host’s to say: an extension’s metadata write neither moves it to another line nor out of its own', async () => {
    const { root, branch, other, call } = await setup();
    await call('chats.update', branch.id, { metadata: { tapestry: { collapsed: true } } });
    expect(await call('chats.get', branch.id)).toMatchObject({ character_id: root.id, metadata: { tapestry: { collapsed: true }, branched_from: root.id, branch_at_message: 'm1' } });
    await call('chats.update', other.id, { metadata: { branched_from: root.id } });
    await call('chats.update', branch.id, { metadata: { branched_from: other.id, branch_at_message: 'x' } });
    expect(await call('chats.get', other.id)).toMatchObject({ character_id: other.id, metadata: {} });
    expect(await call('chats.get', branch.id)).toMatchObject({ character_id: root.id, metadata: { branched_from: root.id, branch_at_message: 'm1' } });
  });

  it('lists characters without their branches: a branch is its origin’s character’s chat', async () => {
    const { root, other, call } = await setup();
    expect(ids(await call('characters.list', {}))).toEqual([root.id, other.id].sort());
  });

  it('a branch whose origin was deleted starts its own line', async () => {
    const { sessions, root, branch, deeper, call } = await setup();
    sessions.delete(root.id);
    expect(await call('chats.get', deeper.id)).toMatchObject({ character_id: branch.id });
    expect(ids(await call('chats.list', { characterId: deeper.id }))).toEqual([branch.id, deeper.id].sort());
  });

  it('reads the books attached to the line’s character in a branch, beside its own', async () => {
    const { root, deeper, library, call } = await setup();
    const book = (await call('world_books.create', { name: 'The world' })) as { id: string };
    await call('world_books.entries.create', book.id, { key: [], content: 'The tide is out.', constant: true });
    const own = (await call('world_books.create', { name: 'The branch’s' })) as { id: string };
    await call('world_books.entries.create', own.id, { key: [], content: 'Only here.', constant: true });
    await call('characters.update', root.id, { world_book_ids: [book.id] });
    library.link(deeper.id, [own.id]);
    const fired = (await call('world_books.getActivated', deeper.id)) as Array<{ bookId: string; bookSource: string }>;
    expect(fired.map((f) => [f.bookId, f.bookSource])).toEqual([
      [own.id, 'character'],
      [book.id, 'character'],
    ]);
    // The origin reads its own and not the branch's.
    expect(((await call('world_books.getActivated', root.id)) as Array<{ bookId: string }>).map((f) => f.bookId)).toEqual([book.id]);
  });
});

describe('branchRoot', () => {
  const chain = (links: Record<string, unknown>) => (id: string) => (id in links ? { metadata: links[id] === undefined ? {} : { branched_from: links[id] } } : null);

  it('follows branched_from while the chat it names exists', () => {
    expect(branchRoot('c', chain({ a: undefined, b: 'a', c: 'b' }))).toBe('a');
    expect(branchRoot('c', chain({ b: 'gone', c: 'b' }))).toBe('b');
    expect(branchRoot('a', chain({ a: 42 }))).toBe('a');
    expect(branchRoot('nowhere', chain({}))).toBe('nowhere');
  });

  it('a loop names its least id from wherever it is entered', () => {
    const loop = chain({ b: 'c', c: 'd', d: 'b', e: 'd' });
    expect(['b', 'c', 'd', 'e'].map((id) => branchRoot(id, loop))).toEqual(['b', 'b', 'b', 'b']);
    expect(branchRoot('s', chain({ s: 's' }))).toBe('s');
  });

  it('reads saved sessions', async () => {
    const { sessions, root, deeper } = await setup();
    expect(branchRoot(deeper.id, sessionHeads(sessions))).toBe(root.id);
  });
});
