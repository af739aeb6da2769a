// The session store on the real chats' database (libsql): a change writes the messages it made, not the chat; saved
// sessions are frozen values; other connections' writes are seen; search finds text through the trigram index.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { searchSessions } from '../../../electron/core/chat/session-search';
import { planRows, SEQ_STEP } from '../../../electron/core/chat/store/message-rows';
import type { ChatMessage } from '../../../shared/types/chat';
import { savedSession } from '../../helpers/saved-session';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const stores: SessionStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  cleanupTempDirs();
});

function open(dataDir = tempDir()) {
  const store = new SessionStore({ dataDir });
  stores.push(store);
  return { store, dataDir };
}

const msg = (i: number, content = `Message number ${i}: the tide comes in over the harbor wall.`): ChatMessage => ({
  id: `m${i}`,
  role: i % 2 ? 'assistant' : 'user',
  content,
  createdAt: i,
});

/** The bytes a change adds to the write-ahead log (every page SQLite writes goes there first). */
function walBytesOf(store: SessionStore, dataDir: string, change: () => void): number {
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const wal = path.join(dataDir, 'chats.db-wal');
  const before = fs.existsSync(wal) ? fs.statSync(wal).size : 0;
  change();
  return fs.statSync(wal).size - before;
}

describe('the session store on the chats database', () => {
  it('edits one message of a 10,000-message chat by writing under 256 kB, and reads the chat back whole', () => {
    const { store, dataDir } = open();
    const { id } = store.create({ title: 'Long' });
    const messages = Array.from({ length: 10_000 }, (_, i) => msg(i, `${'A long turn of role-play. '.repeat(20)}#${i}`));
    store.mutate(id, (s) => void s.messages.push(...messages));
    const written = walBytesOf(store, dataDir, () =>
      store.mutate(id, (s) => {
        s.messages[5000] = { ...s.messages[5000]!, content: 'Edited in the middle.' };
      }),
    );
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(256 * 1024);
    // The control: the same chat written whole is megabytes.
    const whole = walBytesOf(store, dataDir, () => store.write({ ...store.get(id), messages: store.get(id).messages.map((m) => ({ ...m })) }));
    expect(whole).toBeGreaterThan(5 * 1024 * 1024);
    const read = savedSession(dataDir, id);
    expect(read.messages).toHaveLength(10_000);
    expect(read.messages[5000]!.content).toBe('Edited in the middle.');
    expect(read.messages[9999]!.content.endsWith('#9999')).toBe(true);
  });

  it('keeps order through inserts, deletes and moves, and a session reads back equal to what was written', () => {
    const { store, dataDir } = open();
    const { id } = store.create();
    store.mutate(id, (s) => void s.messages.push(msg(1), msg(2), msg(3)));
    store.mutate(id, (s) => void s.messages.splice(1, 0, msg(10), msg(11)));
    store.mutate(id, (s) => void s.messages.splice(0, 1));
    store.mutate(id, (s) => void s.messages.reverse());
    store.mutate(id, (s) => void s.messages.push(msg(12)));
    const ids = ['m3', 'm2', 'm11', 'm10', 'm12'];
    expect(store.get(id).messages.map((m) => m.id)).toEqual(ids);
    expect(savedSession(dataDir, id)).toEqual(store.get(id));
    expect(JSON.stringify(savedSession(dataDir, id))).toBe(JSON.stringify(store.get(id)));
  });

  it('reads back exactly what any run of inserts, deletes, edits and moves left, tight order keys included', () => {
    const { store, dataDir } = open();
    const { id } = store.create();
    let n = 0;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('edit' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), from: fc.nat(), to: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 12 }), (ops) => {
        for (const o of ops) {
          store.mutate(id, (s) => {
            const len = s.messages.length;
            if (o.kind === 'insert') s.messages.splice(o.at % (len + 1), 0, ...Array.from({ length: o.count }, () => msg(n++)));
            else if (len === 0) return;
            else if (o.kind === 'delete') s.messages.splice(o.at % len, 1);
            else if (o.kind === 'edit') s.messages[o.at % len] = { ...s.messages[o.at % len]!, content: `edit ${n++}` };
            else s.messages.splice(o.to % len, 0, ...s.messages.splice(o.from % len, 1));
          });
        }
        return JSON.stringify(savedSession(dataDir, id).messages) === JSON.stringify(store.get(id).messages);
      }),
      { numRuns: 40 },
    );
  });

  it('hands out frozen values: a change in place throws, a failed change writes nothing', () => {
    const { store, dataDir } = open();
    const { id } = store.create();
    store.mutate(id, (s) => void s.messages.push(msg(0)));
    expect(() => {
      (store.get(id).messages[0] as { content: string }).content = 'sneaky';
    }).toThrow(TypeError);
    expect(() =>
      store.mutate(id, (s) => {
        s.messages.push(msg(1));
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(() => store.mutate(id, (s) => void s.messages.push({ ...msg(2), role: 'narrator' as 'user' }))).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_INPUT', path: '/messages/1/role' }) }));
    expect(savedSession(dataDir, id).messages.map((m) => m.content)).toEqual([msg(0).content]);
  });

  it('answers a window of messages, from the rows or from memory alike', () => {
    const { store, dataDir } = open();
    const { id } = store.create();
    store.mutate(id, (s) => void s.messages.push(...Array.from({ length: 150 }, (_, i) => msg(i))));
    const fromRows = open(dataDir).store;
    for (const reader of [fromRows, store]) {
      const newest = reader.window(id);
      expect([newest.start, newest.total, newest.session.messages.length, newest.session.messages[0]!.id]).toEqual([90, 150, 60, 'm90']);
      expect(reader.window(id, { start: 10, end: 13 }).session.messages.map((m) => m.id)).toEqual(['m10', 'm11', 'm12']);
      expect(reader.window(id, { end: 5 })).toMatchObject({ start: 0, total: 150 });
      expect(reader.window(id, { start: 149 }).session.messages.map((m) => m.id)).toEqual(['m149']);
      // Past the end (the chat got shorter since the window was read): the newest page.
      expect(reader.window(id, { start: 400, end: 500 })).toMatchObject({ start: 90, total: 150 });
      const around = reader.window(id, { around: 'm40' });
      expect([around.start, around.session.messages.length, around.session.messages[30]!.id]).toEqual([10, 60, 'm40']);
      expect(reader.window(id, { around: 'm3' }).start).toBe(0);
      expect(() => reader.window(id, { around: 'm999' })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND', path: '/around' }) }));
    }
    expect(() => store.window('nobody')).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'NOT_FOUND', path: '/sessionId' }) }));
  });

  it("sees another connection's writes (the CLI beside the app)", () => {
    const { store, dataDir } = open();
    const { id } = store.create({ title: 'Shared' });
    expect(store.get(id).title).toBe('Shared');
    const other = open(dataDir).store;
    other.mutate(id, (s) => ({ ...s, title: 'Renamed elsewhere' }));
    expect(store.get(id).title).toBe('Renamed elsewhere');
    expect(store.summaries().map((s) => s.title)).toEqual(['Renamed elsewhere']);
  });

  it("checkpoints from its own thread: the log is written back and reused, with SQLite's own checkpoints off", async () => {
    const { store, dataDir } = open();
    expect(store.db.prepare('PRAGMA wal_autocheckpoint').raw(true).all()).toEqual([[0]]);
    const { id } = store.create();
    const wal = path.join(dataDir, 'chats.db-wal');
    const sizes: number[] = [];
    // 24 batches of ~4 MB of pages each (text, its JSON, the index): without checkpoints the log would hold all of them.
    for (let batch = 0; batch < 24; batch++) {
      store.mutate(id, (s) => void s.messages.push(...Array.from({ length: 40 }, (_, i) => msg(batch * 40 + i, 'x'.repeat(25_000)))));
      await store.checkpoints.settled();
      sizes.push(fs.statSync(wal).size);
    }
    // Reused: it levels off at a few batches (an index merge in one transaction may take several at once).
    expect(Math.max(...sizes), sizes.join(' ')).toBeLessThan(8 * sizes[0]!);
    // And truncated when reset: after small changes it is small again, so it asks for no checkpoint each commit. (The
    // index's merges are writes too: once they are done, nothing else adds to the log.)
    await store.merges.settled();
    await store.checkpoints.settled();
    store.mutate(id, (s) => ({ ...s, title: 'One' }));
    await store.checkpoints.settled();
    store.mutate(id, (s) => ({ ...s, title: 'Two' }));
    expect(fs.statSync(wal).size).toBeLessThan(4 * 1024 * 1024);
    expect(savedSession(dataDir, id).messages).toHaveLength(960);
  });

  it('deletes a session with its messages and their search entries', async () => {
    const { store } = open();
    const { id } = store.create();
    store.mutate(id, (s) => void s.messages.push(msg(0, 'lighthouse keeper')));
    expect((await searchSessions(store, 'lighthouse', 10)).hits).toHaveLength(1);
    expect(store.delete(id)).toBe(true);
    expect((await searchSessions(store, 'lighthouse', 10)).hits).toHaveLength(0);
    expect(store.db.prepare('SELECT count(*) AS n FROM messages').all()).toEqual([{ n: 0 }]);
  });
});

describe('search through the index', () => {
  it('finds a substring in any case and accents, names its message and position, and drops edited-away text', async () => {
    const { store } = open();
    const a = store.create({ title: 'Harbor' });
    store.mutate(a.id, (s) => void s.messages.push(msg(0, 'Hello'), msg(1, 'The Café by the pier'), msg(2, 'nothing here')));
    const found = (await searchSessions(store, 'CAFE BY', 10));
    expect(found.hits).toEqual([expect.objectContaining({ sessionId: a.id, messageId: 'm1', index: 1, role: 'assistant', match: 'Café by' })]);
    store.mutate(a.id, (s) => void s.messages.splice(0, 1));
    expect((await searchSessions(store, 'cafe', 10)).hits[0]).toMatchObject({ messageId: 'm1', index: 0 });
    store.mutate(a.id, (s) => {
      s.messages[0] = { ...s.messages[0]!, content: 'The tavern by the pier' };
    });
    expect((await searchSessions(store, 'cafe', 10)).hits).toEqual([]);
    // Two characters: below the trigram index, found by reading the messages.
    expect((await searchSessions(store, 'by', 10)).hits.map((h) => h.messageId)).toEqual(['m1']);
    // Marks the index keeps (й, ё, Greek accents) are found as typed, in any case.
    store.mutate(a.id, (s) => void s.messages.push(msg(5, 'Он принёс йод в Αθήνα.')));
    for (const query of ['ЙОД', 'принёс', 'Αθήνα', 'αθήνα']) expect((await searchSessions(store, query, 10)).hits.map((h) => h.messageId), query).toEqual(['m5']);
  });

  it('lists the newest session first, titles before messages, cuts at the limit and says there is more', async () => {
    let t = 0;
    const clocked = new SessionStore({ dataDir: tempDir(), clock: { now: () => ++t } });
    stores.push(clocked);
    const old = clocked.create({ title: 'Ferry times' });
    clocked.mutate(old.id, (s) => void s.messages.push(msg(0, 'the ferry leaves'), msg(1, 'no ferry today')));
    const recent = clocked.create({ title: 'Other' });
    clocked.mutate(recent.id, (s) => void s.messages.push(msg(0, 'a ferry horn')));
    const all = (await searchSessions(clocked, 'ferry', 10));
    expect(all.hits.map((h) => [h.sessionId === recent.id ? 'recent' : 'old', h.messageId])).toEqual([
      ['recent', 'm0'],
      ['old', null],
      ['old', 'm0'],
      ['old', 'm1'],
    ]);
    expect((await searchSessions(clocked, 'ferry', 2))).toMatchObject({ more: true, hits: [{ messageId: 'm0' }, { messageId: null }] });
    expect((await searchSessions(clocked, 'ferry', 10, old.id)).hits).toHaveLength(3);
    // Quotes are text to find, not the index's query syntax.
    clocked.mutate(recent.id, (s) => void s.messages.push(msg(1, 'she said "ferry" twice')));
    expect((await searchSessions(clocked, '"ferry"', 10)).hits.map((h) => h.match)).toEqual(['"ferry"']);
  });
});

describe('planning the rows a change writes', () => {
  const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ rowid: i + 1, seq: (i + 1) * SEQ_STEP }));

  it('writes only new objects, rewrites an edited message in its row, and deletes what is gone', () => {
    const old = [msg(0), msg(1), msg(2)];
    const plan = planRows(old, refs(3), [old[0]!, { ...old[1]!, content: 'edited' }, msg(3)]);
    expect(plan).toEqual({
      deletes: [3],
      writes: [
        { index: 1, rowid: 2, seq: 2 * SEQ_STEP },
        { index: 2, rowid: null, seq: 3 * SEQ_STEP },
      ],
      moves: [],
      refs: [
        { rowid: 1, seq: SEQ_STEP },
        { rowid: 2, seq: 2 * SEQ_STEP },
        { rowid: -1, seq: 3 * SEQ_STEP },
      ],
    });
  });

  it('renumbers only when two neighbours leave no room between them', () => {
    const old = [msg(0), msg(1)];
    const tight = [
      { rowid: 1, seq: 5 },
      { rowid: 2, seq: 6 },
    ];
    const plan = planRows(old, tight, [old[0]!, msg(9), old[1]!]);
    expect(plan.moves).toEqual([
      { index: 0, rowid: 1, seq: SEQ_STEP },
      { index: 2, rowid: 2, seq: 3 * SEQ_STEP },
    ]);
    expect(plan.writes).toEqual([{ index: 1, rowid: null, seq: 2 * SEQ_STEP }]);
    const roomy = planRows(old, refs(2), [old[0]!, msg(9), old[1]!]);
    expect(roomy.moves).toEqual([]);
    expect(roomy.writes).toEqual([{ index: 1, rowid: null, seq: SEQ_STEP + SEQ_STEP / 2 }]);
  });
});
