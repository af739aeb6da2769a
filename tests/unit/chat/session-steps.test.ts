// A long chat written or dropped in steps (an import, a branch, a restore, a delete): each step a short
// transaction with the host's thread free between, nothing seeing the chat until its last step, and a kill or a
// failure midway leaving nothing behind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { SessionRows } from '../../../electron/core/chat/store/session-rows';
import { PENDING_LEASE_MS, STEP, writeInSteps } from '../../../electron/core/chat/store/staged-write';
import { searchSessions } from '../../../electron/core/chat/session-search';
import { pluck } from '../../../electron/core/db/chat-db';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { sessionDocument } from '../../helpers/session-document';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const stores: SessionStore[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((s) => s.close()));
  cleanupTempDirs();
});

function open(dataDir: string, log = { info: () => {}, warn: () => {}, error: () => {} }, later = 0) {
  const store = new SessionStore({ dataDir, log: log as never, clock: { now: () => Date.now() + later } });
  stores.push(store);
  return store;
}

const msg = (i: number): ChatMessage => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `Lantern ${i} of a long evening.`, createdAt: i });
const messages = (count: number) => Array.from({ length: count }, (_, i) => msg(i));
const document = (id: string, count: number): ChatSession =>
  sessionDocument({ id, title: 'Long evening', character: { name: 'Mara', description: '', personality: '', scenario: '' }, persona: { name: 'Tom', description: '' }, messages: messages(count) });
const rowsIn = (store: SessionStore) => pluck<number>(store.db, 'SELECT count(*) FROM messages');

/** Runs `work`, looking at the store from a second connection at every turn of the event loop until it settles. */
async function watched<T>(work: Promise<T>, look: () => void): Promise<{ value: T; turns: number }> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  let turns = 0;
  while (!settled && turns < 10_000) {
    look();
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  return { value: await done, turns };
}

describe('a long chat written in steps', () => {
  it('is written a step at a time with the event loop turning between, and no reader sees it until the last step', async () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    const other = open(dataDir);
    const count = STEP.messages * 12 + 7;
    const seen: Array<[boolean, number, number]> = [];
    // A search over the index answers at once (its promise settles on what was saved when it was asked).
    const searches: Array<ReturnType<typeof searchSessions>> = [];
    const { value: session, turns } = await watched(store.import(JSON.stringify(document('evening', count))), () => {
      seen.push([other.has('evening'), other.summaries().length, rowsIn(other)]);
      searches.push(searchSessions(other, 'Lantern 5', 10));
    });
    // 13 steps of messages: the host's thread was free at least that many times.
    expect(turns).toBeGreaterThanOrEqual(13);
    // Meanwhile rows were going in, and the other connection saw no session at all.
    expect(seen.some(([, , rows]) => rows > 0 && rows < count)).toBe(true);
    expect(seen.every(([has, listed]) => !has && listed === 0)).toBe(true);
    expect((await Promise.all(searches)).flatMap((found) => found.hits)).toEqual([]);
    // Then it is whole, in order, for both.
    expect(session.messages.map((m) => m.id)).toEqual(messages(count).map((m) => m.id));
    expect(other.get('evening')).toEqual(store.get('evening'));
    expect(other.summaries()).toEqual([expect.objectContaining({ id: 'evening', messageCount: count })]);
    expect((await searchSessions(other, 'Lantern 5', 100)).hits.length).toBeGreaterThan(0);
  });

  it('a quit midway leaves nothing anyone sees; a start after the lease drops the pending rows and says so', async () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    const writing = store.import(JSON.stringify(document('evening', STEP.messages * 10)));
    // A few steps in, the store goes away (as at a quit) while the write waits for its next step.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    const closing = store.close();
    await expect(writing).rejects.toMatchObject({ error: { code: 'HOST_SHUTDOWN' } });
    await closing;
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (line: string) => warnings.push(line), error: () => {} } as never;
    // At once (the claim is fresh: it could be a write under way elsewhere), the rows stay, and nobody sees them.
    const soon = open(dataDir, log);
    expect([soon.summaries(), soon.has('evening')]).toEqual([[], false]);
    expect(pluck<number>(soon.db, 'SELECT count(*) FROM sessions')).toBe(1);
    // Nothing writes over it while the claim is fresh (it may be another store's write under way).
    expect(() => soon.write(document('evening', 2))).toThrow(/being written or deleted/);
    await expect(soon.writeWhole(document('evening', 2))).rejects.toMatchObject({ error: { code: 'CONFLICT' } });
    await soon.close();
    const later = open(dataDir, log, PENDING_LEASE_MS + 1000);
    expect(later.summaries()).toEqual([]);
    expect(rowsIn(later)).toBe(0);
    expect(pluck<number>(later.db, 'SELECT count(*) FROM sessions')).toBe(0);
    expect(warnings.join('\n')).toMatch(/1 session was being written or deleted when the app last stopped; dropped/);
  });

  it('a second store opened during a write (the command line beside the app) leaves it be; the write ends whole', async () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    const writing = store.import(JSON.stringify(document('evening', STEP.messages * 10)));
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    const other = open(dataDir);
    expect(other.has('evening')).toBe(false);
    expect((await writing).messages.length).toBe(STEP.messages * 10);
    expect(other.get('evening').messages.length).toBe(STEP.messages * 10);
  });

  it('writes to one id take turns: two restores of it at once end as the second, whole', async () => {
    const store = open(tempDir());
    const first = { ...document('evening', STEP.messages * 4), title: 'First' };
    const second = { ...document('evening', STEP.messages * 3), title: 'Second' };
    const [a, b] = await Promise.all([store.writeWhole(first), store.writeWhole(second)]);
    expect([a.title, b.title]).toEqual(['First', 'Second']);
    expect(store.get('evening')).toMatchObject({ title: 'Second', messages: second.messages });
    expect(rowsIn(store)).toBe(STEP.messages * 3);
  });

  it('a step that fails drops what was written and tells the failure; the id is free again', async () => {
    const store = open(tempDir());
    const rows = new SessionRows(store.db);
    let steps = 0;
    const failing = {
      transaction: <T>(work: () => T): T => {
        if (++steps === 4) throw new Error('disk full');
        store.db.exec('BEGIN IMMEDIATE');
        const value = work();
        store.db.exec('COMMIT');
        return value;
      },
      pause: async () => true,
      now: () => Date.now(),
    };
    await expect(writeInSteps(rows, document('evening', STEP.messages * 6), failing)).rejects.toThrow('disk full');
    expect(pluck<number>(store.db, 'SELECT count(*) FROM sessions')).toBe(0);
    expect(rowsIn(store)).toBe(0);
    expect((await store.import(JSON.stringify(document('evening', 3)))).id).toBe('evening');
  });

  it('a long chat is checked in steps too: a bad message far in is named, and nothing is written', async () => {
    const store = open(tempDir());
    const bad = document('evening', 1_200) as unknown as { messages: Array<Record<string, unknown>> };
    bad.messages[1_100] = { ...bad.messages[1_100], role: 'narrator' };
    await expect(store.import(JSON.stringify(bad))).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/messages/1100/role' } });
    expect(pluck<number>(store.db, 'SELECT count(*) FROM sessions')).toBe(0);
    expect(rowsIn(store)).toBe(0);
  });

  it('a branch of a long chat is written in steps too, whole and in order', async () => {
    const store = open(tempDir());
    await store.import(JSON.stringify(document('evening', STEP.messages * 4)));
    const branched = await store.add({ title: 'Branch', messages: store.get('evening').messages.slice(0, STEP.messages * 3) });
    expect(branched.messages.length).toBe(STEP.messages * 3);
    expect(store.get(branched.id)).toEqual(branched);
  });
});

describe('a long chat dropped in steps', () => {
  it('is gone for every reader at once; its rows go a step at a time, the event loop turning between', async () => {
    const dataDir = tempDir();
    const store = open(dataDir);
    const other = open(dataDir);
    const count = STEP.messages * 8;
    await store.import(JSON.stringify(document('evening', count)));
    const removed = vi.spyOn(SessionRows.prototype, 'removeSome');
    expect(store.delete('evening')).toBe(true);
    expect([store.has('evening'), other.has('evening'), other.summaries().length]).toEqual([false, false, 0]);
    expect(() => other.get('evening')).toThrow(/There is no session evening/);
    // Hidden at once; its rows go in steps after, the event loop turning between.
    expect(rowsIn(store)).toBe(count);
    let turns = 0;
    // A step ends at its count or its time, so a slower machine takes more of them: bounded well past any.
    while (rowsIn(store) > 0 && turns < 100_000) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(rowsIn(store)).toBe(0);
    expect(turns).toBeGreaterThanOrEqual(8);
    expect(removed.mock.calls.length).toBeGreaterThanOrEqual(8);
  });

  it('a restore over a long chat drops the old one in steps and writes the new one in steps; a write to the id waits for its drop', async () => {
    const store = open(tempDir());
    await store.import(JSON.stringify(document('evening', STEP.messages * 6)));
    const clear = vi.spyOn(SessionRows.prototype, 'replace');
    const restored = { ...document('evening', STEP.messages * 3), title: 'As in the backup' };
    const written = await store.writeWhole(restored);
    expect(clear).not.toHaveBeenCalled();
    expect(written.title).toBe('As in the backup');
    expect(store.get('evening').messages.length).toBe(STEP.messages * 3);
    expect(rowsIn(store)).toBe(STEP.messages * 3);

    // Deleted, then written again at once (an undone restore tried again): the write waits for the drop.
    store.delete('evening');
    const again = await store.writeWhole(document('evening', 5));
    expect(again.messages.length).toBe(5);
    expect(rowsIn(store)).toBe(5);
    expect(store.summaries()).toEqual([expect.objectContaining({ id: 'evening', messageCount: 5 })]);
  });
});
