// The search index merged in slices after the writes, not in lumps inside them (db/index-merger.ts): FTS5's own
// automerge is off in the file, each commit leaves its small segment, and the merges that follow take a turn of the
// event loop each, until the index is as merged as FTS5 keeps it; a long write waits on them between its steps.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { searchSessions } from '../../../electron/core/chat/session-search';
import { openChatDb, pluck, transaction } from '../../../electron/core/db/chat-db';
import { IndexMerger } from '../../../electron/core/db/index-merger';
import { STEP } from '../../../electron/core/chat/store/staged-write';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { sessionDocument } from '../../helpers/session-document';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const stores: SessionStore[] = [];
const warnings: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stores.splice(0).map((s) => s.close()));
  warnings.length = 0;
  cleanupTempDirs();
});

const log = { info: () => {}, warn: (line: string) => void warnings.push(line), error: () => {} };

function open(dataDir = tempDir()) {
  const store = new SessionStore({ dataDir, log: log as never });
  stores.push(store);
  return store;
}

const msg = (i: number): ChatMessage => ({ id: `m${i}`, role: i % 2 ? 'assistant' : 'user', content: `Lantern ${i} over the harbor, a long evening of turns.`, createdAt: i });
const document = (id: string, count: number): ChatSession =>
  sessionDocument({ id, title: 'Long evening', character: { name: 'Mara', description: '', personality: '', scenario: '' }, persona: { name: 'Tom', description: '' }, messages: Array.from({ length: count }, (_, i) => msg(i)) });
/**
 * The index's segments on each level, read from FTS5's structure record (row 10 of its %_data table): a cookie,
 * an optional version tag, the level and segment counts, a write counter, then for each level its merge state and
 * its segments, every field a SQLite varint.
 */
function levels(db: SessionStore['db']): number[] {
  const record = db.prepare('SELECT block FROM messages_text_data WHERE id = 10').raw(true).get() as [Uint8Array] | undefined;
  if (!record) return [];
  const bytes = record[0];
  let at = 4;
  const v2 = bytes[4] === 0xff && bytes[5] === 0 && bytes[6] === 0 && bytes[7] === 1;
  if (v2) at += 4;
  const varint = (): number => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const byte = bytes[at++]!;
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    return value;
  };
  const count = varint();
  varint(); // segments in all
  varint(); // write counter
  const out: number[] = [];
  for (let level = 0; level < count; level++) {
    varint(); // segments being merged into the next level
    const segments = varint();
    for (let i = 0; i < segments * (v2 ? 8 : 3); i++) varint();
    out.push(segments);
  }
  return out;
}
const segments = (db: SessionStore['db']) => levels(db).reduce((a, b) => a + b, 0);
/** FTS5 merges a level once it holds `usermerge` (4) segments: a merged index has fewer than that on each. */
const merged = (db: SessionStore['db']) => levels(db).every((n) => n < 4);
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};
/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  return { promise: new Promise<void>((resolve) => (open = resolve)), open };
}
const rows = (store: SessionStore) => pluck<number>(store.db, 'SELECT count(*) FROM messages');

describe("the search index's merges", () => {
  it('are off inside the writes: each commit leaves a segment, and the turns after merge them down; search finds every message', async () => {
    const store = open();
    expect(pluck<number>(store.db, "SELECT v FROM messages_text_config WHERE k = 'automerge'")).toBe(0);
    const { id } = store.create({ title: 'Harbor' });
    // One change per commit with no turn between: nothing merges yet (FTS5's crisis merge waits for 16 on a level).
    for (let i = 0; i < 12; i++) store.mutate(id, (s) => void s.messages.push(msg(i)));
    expect(levels(store.db)[0]).toBeGreaterThanOrEqual(12);
    await store.merges.settled();
    expect(merged(store.db), String(levels(store.db))).toBe(true);
    expect(segments(store.db)).toBeLessThan(12);
    for (const i of [0, 5, 11]) expect((await searchSessions(store, `Lantern ${i} over`, 10)).hits.map((h) => h.messageId)).toEqual([`m${i}`]);
  });

  it('keep up with a long write: it waits on them between its steps, and ends with its index merged', async () => {
    const store = open();
    let most = 0;
    const writing = store.import(JSON.stringify(document('evening', 2_000)));
    for (let settled = false; !settled; ) {
      most = Math.max(most, ...levels(store.db).slice(1));
      settled = await Promise.race([writing.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);
    }
    const session = await writing;
    expect(session.messages).toHaveLength(2_000);
    expect(merged(store.db), String(levels(store.db))).toBe(true);
    // FTS5 flushes a segment per statement, so a step's messages fill level 0, whose 16 tiny segments it merges
    // inside the write. The levels above, where merges are large, stay far below that crisis.
    expect(most).toBeLessThan(8);
    expect((await searchSessions(store, 'Lantern 1999 over', 10)).hits).toHaveLength(1);
  });

  it("stop with the store: a closing store's merges end, and a later store merges what was left after its first change", async () => {
    const dataDir = tempDir();
    const first = new SessionStore({ dataDir, log: log as never });
    const { id } = first.create({ title: 'Harbor' });
    for (let i = 0; i < 12; i++) first.mutate(id, (s) => void s.messages.push(msg(i)));
    await first.close();
    await first.merges.settled();
    const second = open(dataDir);
    // A store that only reads merges nothing.
    await turns(10);
    expect(merged(second.db)).toBe(false);
    second.mutate(id, (s) => void s.messages.push(msg(12)));
    await second.merges.settled();
    expect(merged(second.db), String(levels(second.db))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("hold a long write's next step until they are done", async () => {
    const store = open();
    const held = gate();
    vi.spyOn(store.merges, 'settled').mockReturnValue(held.promise);
    const writing = store.import(JSON.stringify(document('evening', STEP.messages * 10)));
    await turns(50);
    // Its first step is written (pending: no reader sees it), and nothing after it while the merges are not done.
    const first = rows(store);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(STEP.messages);
    await turns(50);
    expect(rows(store)).toBe(first);
    held.open();
    expect((await writing).messages).toHaveLength(STEP.messages * 10);
  });

  it('stopped while a slice waits on a checkpoint: nothing more is merged, and whoever waits on them goes on', async () => {
    const db = openChatDb(tempDir());
    const lines: string[] = [];
    const checkpoint = gate();
    const running = { running: true, settled: () => checkpoint.promise };
    const merger = new IndexMerger(db, (work) => transaction(db, work), { info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} } as never, running);
    db.exec(`INSERT INTO sessions (id, title, character_name, created_at, updated_at, message_count, head) VALUES ('s', 't', 'c', 1, 1, 0, '{}')`);
    const insert = db.prepare(`INSERT INTO messages (session_id, seq, id, role, content, doc) VALUES ('s', ?, ?, 'user', ?, '{}')`);
    for (let i = 0; i < 8; i++) insert.run(i, `m${i}`, `Lantern ${i} of the evening`);
    merger.committed();
    await turns(3);
    const waiting = merger.settled();
    merger.stop();
    await waiting;
    checkpoint.open();
    await turns(10);
    expect(levels(db)).toEqual([8]);
    expect(lines).toEqual([]);
    db.close();
  });

  it('never writes a slice while a checkpoint runs, not even one a write started as the last one ended', async () => {
    const db = openChatDb(tempDir());
    // The checkpoint thread as the store has it: whoever waited first (a write of the person's) goes on first and may
    // start the next checkpoint before a slice that waited too has its turn.
    const checkpoints = {
      running: false,
      idle: [] as Array<() => void>,
      settled() {
        return this.running ? new Promise<void>((resolve) => this.idle.push(resolve)) : Promise.resolve();
      },
      finish() {
        this.running = false;
        for (const resolve of this.idle.splice(0)) resolve();
      },
    };
    const during: number[] = [];
    const merger = new IndexMerger(
      db,
      (work) => {
        if (checkpoints.running) during.push(levels(db).length);
        transaction(db, work);
      },
      { info: () => {}, warn: () => {}, error: () => {} } as never,
      checkpoints,
    );
    db.exec(`INSERT INTO sessions (id, title, character_name, created_at, updated_at, message_count, head) VALUES ('s', 't', 'c', 1, 1, 0, '{}')`);
    const insert = db.prepare(`INSERT INTO messages (session_id, seq, id, role, content, doc) VALUES ('s', ?, ?, 'user', ?, '{}')`);
    for (let i = 0; i < 8; i++) insert.run(i, `m${i}`, `Lantern ${i} of the evening`);
    checkpoints.running = true;
    // A write waiting on the running checkpoint, which starts the next one the moment it goes on.
    void checkpoints.settled().then(() => void (checkpoints.running = true));
    merger.committed();
    await turns(3);
    checkpoints.finish();
    await turns(3);
    expect(checkpoints.running).toBe(true);
    expect(during).toEqual([]);
    checkpoints.finish();
    await merger.settled();
    expect(during).toEqual([]);
    expect(merged(db), String(levels(db))).toBe(true);
    db.close();
  });

  it('merge what a start moved in (session files from before the database), with no change made', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'sessions', 'evening.json'), JSON.stringify(document('evening', 40)));
    const store = open(dataDir);
    // Moved in one transaction, a segment a message: level 0 past what FTS5 leaves merged.
    expect(store.has('evening')).toBe(true);
    expect(merged(store.db)).toBe(false);
    await store.merges.settled();
    expect(merged(store.db), String(levels(store.db))).toBe(true);
  });

  it('a slice that fails is told once and merging stops; the next commit starts it again', async () => {
    const db = openChatDb(tempDir());
    const lines: string[] = [];
    let failing = true;
    const merger = new IndexMerger(
      db,
      (work) => {
        if (failing) throw new Error('disk I/O error');
        transaction(db, work);
      },
      { info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} } as never,
    );
    db.exec(`INSERT INTO sessions (id, title, character_name, created_at, updated_at, message_count, head) VALUES ('s', 't', 'c', 1, 1, 0, '{}')`);
    const insert = db.prepare(`INSERT INTO messages (session_id, seq, id, role, content, doc) VALUES ('s', ?, ?, 'user', ?, '{}')`);
    for (let i = 0; i < 8; i++) insert.run(i, `m${i}`, `Lantern ${i} of the evening`);
    merger.committed();
    await merger.settled();
    expect(lines).toEqual(['sessions: merging the search index stopped (disk I/O error); the next change resumes it']);
    expect(levels(db)).toEqual([8]);
    failing = false;
    merger.committed();
    await merger.settled();
    expect(merged(db), String(levels(db))).toBe(true);
    db.close();
  });
});
