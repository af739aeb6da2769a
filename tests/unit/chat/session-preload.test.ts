// A long chat is read into memory in the background (opening it, before a turn or an edit): a chunk of messages at a
// time with the host's thread free between, starting over when a write comes between, and never handing out a mix.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { SessionRows } from '../../../electron/core/chat/store/session-rows';
import { testChatReads } from '../../helpers/chat-reads';
import { searchSessions } from '../../../electron/core/chat/session-search';
import type { ChatMessage } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const stores: SessionStore[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((s) => s.close()));
  cleanupTempDirs();
});

function open(dataDir: string) {
  const store = new SessionStore({ dataDir });
  stores.push(store);
  return store;
}

const msg = (i: number): ChatMessage => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `Turn ${i} of a long evening.`, createdAt: i });

/**
 * A data folder holding one chat of `count` messages, and a second store on it that has not read the chat. The
 * writer is left idle: its search index merged, so nothing it does after is a write the reader would see.
 */
async function longChat(count: number) {
  const dataDir = tempDir();
  const writer = open(dataDir);
  const { id } = writer.create({ title: 'Long' });
  writer.mutate(id, (s) => void s.messages.push(...Array.from({ length: count }, (_, i) => msg(i))));
  await writer.merges.settled();
  return { dataDir, id, writer, store: open(dataDir) };
}

/** Counts turns of the event loop until `done` settles (each is a moment the host could answer something else). */
async function turnsWhile(done: Promise<void>): Promise<number> {
  let settled = false;
  void done.then(() => (settled = true));
  let turns = 0;
  while (!settled && turns < 1000) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  return turns;
}

describe('reading a long chat in the background', () => {
  it('reads it a chunk at a time, the event loop turning between, and then serves it from memory', async () => {
    const { store, writer, id } = await longChat(2_100);
    const loads = vi.spyOn(SessionRows.prototype, 'load');
    // 2,100 messages: at most 500 a chunk (250 now), so at least four pauses between the reads.
    expect(await turnsWhile(store.preload(id))).toBeGreaterThanOrEqual(4);
    expect(store.get(id)).toEqual(writer.get(id));
    expect(store.get(id).messages.map((m) => m.id)).toEqual(Array.from({ length: 2_100 }, (_, i) => `m${i}`));
    expect(loads).not.toHaveBeenCalled();
    // What it read is frozen like any saved session.
    expect(() => (store.get(id).messages as ChatMessage[]).push(msg(0))).toThrow();
  });

  it("starts over when another connection writes between chunks, so the chat read is the one after the write", async () => {
    const { store, writer, id } = await longChat(1_600);
    const loads = vi.spyOn(SessionRows.prototype, 'load');
    const read = store.preload(id);
    // After the first chunk: the writer appends a message and edits one the first chunk already read.
    await new Promise((resolve) => setImmediate(resolve));
    writer.mutate(id, (s) => {
      s.messages.push(msg(1_600));
      s.messages[10] = { ...s.messages[10]!, content: 'Changed while it was read.' };
    });
    await read;
    expect(store.get(id).messages).toHaveLength(1_601);
    expect(store.get(id).messages[10]!.content).toBe('Changed while it was read.');
    expect(loads).not.toHaveBeenCalled();
  });

  it('keeps its own write made meanwhile: the change wins over the read that started before it', async () => {
    const { store, id } = await longChat(1_600);
    const read = store.preload(id);
    await new Promise((resolve) => setImmediate(resolve));
    store.mutate(id, (s) => void s.messages.splice(0, 1));
    await read;
    expect(store.get(id).messages).toHaveLength(1_599);
    expect(store.get(id).messages[0]!.id).toBe('m1');
  });

  it('a session deleted while it is read stays deleted: the read is dropped, not kept', async () => {
    const { store, id } = await longChat(1_600);
    const read = store.preload(id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.delete(id)).toBe(true);
    await read;
    expect(store.has(id)).toBe(false);
    expect(() => store.get(id)).toThrow(`There is no session ${id}.`);
  });

  it('a store closed while it reads stops reading, and nothing throws from the timers', async () => {
    const { store, id } = await longChat(1_600);
    const read = store.preload(id);
    await new Promise((resolve) => setImmediate(resolve));
    await store.close();
    await expect(read).resolves.toBeUndefined();
  });

  it('an id that is malformed or missing is told apart without reading the messages', async () => {
    const { store, id } = await longChat(10);
    const loads = vi.spyOn(SessionRows.prototype, 'load');
    expect(() => store.assertExists(id)).not.toThrow();
    expect(() => store.assertExists('../x')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_INPUT' }) }));
    expect(() => store.assertExists('missing')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND', path: '/sessionId' }) }));
    expect(loads).not.toHaveBeenCalled();
  });

  it('shares one read between callers, reads nothing for a chat in memory or a bad id, and leaves a missing one to get()', async () => {
    const { store, id } = await longChat(1_200);
    const first = store.preload(id);
    expect(store.preload(id)).toBe(first);
    await first;
    const loads = vi.spyOn(SessionRows.prototype, 'loadInChunks');
    await store.preload(id);
    await store.preload('nobody');
    await store.preload('../bad id');
    // Only 'nobody' was looked up (and found missing): the next get() tells it.
    expect(loads).toHaveBeenCalledTimes(1);
    expect(() => store.get('nobody')).toThrow('There is no session nobody.');
  });

  it("an extension's lists and cards read no messages, and its reads of a chat's messages wait for the background read", async () => {
    const { store, writer, id } = await longChat(1_200);
    writer.create({ title: 'Another' });
    const loads = vi.spyOn(SessionRows.prototype, 'load');
    const chunked = vi.spyOn(SessionRows.prototype, 'loadInChunks');
    const reads = testChatReads(store, {});
    expect(reads.list().map((c) => [c.name, c.messages.length])).toEqual([
      ['Another', 0],
      ['Long', 0],
    ]);
    expect(reads.head(id)).toMatchObject({ id, name: 'Long', messages: [] });
    await reads.whole(id);
    expect(reads.get(id)!.messages).toHaveLength(1_200);
    expect(loads).not.toHaveBeenCalled();
    expect(chunked).toHaveBeenCalledTimes(1);
  });

  it('a search for one or two characters (too short for the index) scans the messages in steps, the event loop turning between', async () => {
    const { store, writer, id } = await longChat(1_200);
    writer.mutate(id, (s) => {
      s.messages[900] = { ...s.messages[900]!, content: 'Qz marks the spot.' };
      s.messages[1_100] = { ...s.messages[1_100]!, content: 'Another qz, deleted while the scan runs.' };
    });
    const found = searchSessions(store, 'QZ', 10);
    // After the first step, the message the third step would confirm is deleted: it is left out, nothing throws.
    await new Promise((resolve) => setImmediate(resolve));
    writer.mutate(id, (s) => void s.messages.splice(1_100, 1));
    let turns = 0;
    let settled = false;
    void found.then(() => (settled = true));
    while (!settled && turns < 100) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(turns).toBeGreaterThanOrEqual(1);
    expect((await found).hits.map((h) => [h.messageId, h.match])).toEqual([['m900', 'Qz']]);
  });

  it("a backup's read of every chat reads each in the background too, and leaves out one deleted meanwhile", async () => {
    const { store, writer, id } = await longChat(1_200);
    const other = writer.create({ title: 'Short' });
    const loads = vi.spyOn(SessionRows.prototype, 'load');
    // The newest first: the short chat, then the long one in steps; the long one is deleted while it is read.
    const all = store.all();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    writer.delete(id);
    expect((await all).map((s) => [s.id, s.messages.length])).toEqual([[other.id, 0]]);
    expect(loads).not.toHaveBeenCalled();
    // Untouched, a long chat comes whole.
    const { store: second, id: long } = await longChat(600);
    expect((await second.all()).map((s) => [s.id, s.messages.length])).toEqual([[long, 600]]);
  });
});
