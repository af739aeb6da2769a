// The SQL behind the session store: a session's row, its message rows in order, and the writes a change plans.
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import type Database from 'libsql';
import type { Db } from '../../db/chat-db';
import { SEQ_STEP, type RowPlan, type RowRef } from './message-rows';

/** A session as read from its rows, with the rows behind its messages and its fields as they were written. */
export interface LoadedSession {
  session: ChatSession;
  refs: RowRef[];
  head: string;
}

export interface SessionRow {
  id: string;
  title: string;
  characterName: string;
  messageCount: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * The session's fields but its messages and time of change, as JSON in the order they were given (so a session
 * read back serializes as it was written). The time lives in its own column: a turn then rewrites no large card.
 */
export function headOf(session: ChatSession): string {
  return JSON.stringify({ ...session, updatedAt: 0, messages: [] });
}

type Statement = Database.Statement;
type MessageRow = [rowid: number, seq: number, doc: string];

function add(loaded: LoadedSession, rows: MessageRow[]): void {
  for (const [rowid, seq, doc] of rows) {
    loaded.session.messages.push(JSON.parse(doc) as ChatMessage);
    loaded.refs.push({ rowid, seq });
  }
}

export class SessionRows {
  private readonly sql: Record<
    | 'head'
    | 'heads'
    | 'messages'
    | 'after'
    | 'page'
    | 'newest'
    | 'count'
    | 'position'
    | 'exists'
    | 'taken'
    | 'list'
    | 'upsert'
    | 'stage'
    | 'publish'
    | 'dropPending'
    | 'hide'
    | 'renew'
    | 'claim'
    | 'removeSome'
    | 'touch'
    | 'insert'
    | 'rewrite'
    | 'move'
    | 'remove'
    | 'clear'
    | 'drop',
    Statement
  >;

  constructor(readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.sql = {
      // A pending session (written in steps, not finished) is no one's to see: every read of a session skips it.
      head: p('SELECT head, updated_at, message_count FROM sessions WHERE id = ? AND pending = 0').raw(true),
      heads: p('SELECT head, updated_at FROM sessions WHERE pending = 0 ORDER BY updated_at DESC, id').raw(true),
      messages: p('SELECT rowid, seq, doc FROM messages WHERE session_id = ? ORDER BY seq, rowid').raw(true),
      after: p('SELECT rowid, seq, doc FROM messages WHERE session_id = ?1 AND (seq > ?2 OR (seq = ?2 AND rowid > ?3)) ORDER BY seq, rowid LIMIT ?4').raw(true),
      page: p('SELECT doc FROM messages WHERE session_id = ? ORDER BY seq LIMIT ? OFFSET ?').raw(true),
      newest: p('SELECT doc FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?').raw(true),
      position: p('SELECT (SELECT count(*) FROM messages WHERE session_id = ?1 AND seq < m.seq) FROM messages m WHERE m.session_id = ?1 AND m.id = ?2').raw(true),
      count: p('SELECT message_count FROM sessions WHERE id = ? AND pending = 0').raw(true),
      exists: p('SELECT 1 FROM sessions WHERE id = ? AND pending = 0').raw(true),
      taken: p('SELECT 1 FROM sessions WHERE id = ?').raw(true),
      list: p('SELECT id, title, character_name, message_count, created_at, updated_at FROM sessions WHERE pending = 0 ORDER BY updated_at DESC, id').raw(true),
      upsert: p(
        `INSERT INTO sessions (id, title, character_name, created_at, updated_at, message_count, head) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, character_name = excluded.character_name, created_at = excluded.created_at,
           updated_at = excluded.updated_at, message_count = excluded.message_count, head = excluded.head`,
      ),
      // `pending` is 0 for a session anyone may read, else the time its writer or dropper last renewed its claim.
      stage: p('INSERT INTO sessions (id, title, character_name, created_at, updated_at, message_count, head, pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      publish: p('UPDATE sessions SET pending = 0 WHERE id = ? AND pending > 0'),
      dropPending: p('DELETE FROM sessions WHERE pending > 0 AND pending < ?'),
      hide: p('UPDATE sessions SET pending = ? WHERE id = ?'),
      renew: p('UPDATE sessions SET pending = ? WHERE id = ? AND pending > 0'),
      claim: p('SELECT pending FROM sessions WHERE id = ? AND pending > 0').raw(true),
      removeSome: p('DELETE FROM messages WHERE rowid IN (SELECT rowid FROM messages WHERE session_id = ? LIMIT ?)'),
      touch: p('UPDATE sessions SET updated_at = ?, message_count = ? WHERE id = ?'),
      insert: p('INSERT INTO messages (session_id, seq, id, role, content, doc) VALUES (?, ?, ?, ?, ?, ?)'),
      rewrite: p('UPDATE messages SET seq = ?, id = ?, role = ?, content = ?, doc = ? WHERE rowid = ?'),
      move: p('UPDATE messages SET seq = ? WHERE rowid = ?'),
      remove: p('DELETE FROM messages WHERE rowid = ?'),
      clear: p('DELETE FROM messages WHERE session_id = ?'),
      drop: p('DELETE FROM sessions WHERE id = ?'),
    };
  }

  exists(id: string): boolean {
    return this.sql.exists.get(id) !== undefined;
  }

  /** A row holds the id, pending or not: a new session cannot have it. */
  taken(id: string): boolean {
    return this.sql.taken.get(id) !== undefined;
  }

  list(): SessionRow[] {
    return (this.sql.list.all() as Array<[string, string, string, number, number, number]>).map(([id, title, characterName, messageCount, createdAt, updatedAt]) => ({
      id,
      title,
      characterName,
      messageCount,
      createdAt,
      updatedAt,
    }));
  }

  /** The session as saved, or null when there is none. */
  load(id: string): LoadedSession | null {
    const loaded = this.headOnly(id);
    if (loaded) add(loaded, this.sql.messages.all(id) as MessageRow[]);
    return loaded;
  }

  /**
   * The same read a `chunk` of messages at a time, awaiting `pause` between them (the caller's thread is free then).
   * The chunks are separate reads: `pause` answers false when a write may have come between, and the read gives up
   * (undefined).
   */
  async loadInChunks(id: string, chunk: number, pause: () => Promise<boolean>): Promise<LoadedSession | null | undefined> {
    const loaded = this.headOnly(id);
    if (!loaded) return null;
    for (let seq = Number.MIN_SAFE_INTEGER, rowid = 0; ; ) {
      const rows = this.sql.after.all(id, seq, rowid, chunk) as MessageRow[];
      add(loaded, rows);
      if (rows.length < chunk) return loaded;
      [rowid, seq] = rows[rows.length - 1]!;
      if (!(await pause())) return undefined;
    }
  }

  /** Every session's fields, with no messages, the latest changed first. */
  heads(): ChatSession[] {
    return (this.sql.heads.all() as Array<[string, number]>).map(([head, updatedAt]) => ({ ...(JSON.parse(head) as ChatSession), updatedAt }));
  }

  /** The session's fields, with no messages (null: no such session). */
  headOnly(id: string): LoadedSession | null {
    const row = this.sql.head.get(id) as [string, number] | undefined;
    if (!row) return null;
    const session = JSON.parse(row[0]) as ChatSession;
    session.updatedAt = row[1];
    return { session, refs: [], head: row[0] };
  }

  /** The session's fields with only its messages from index `start` on, at most `count` of them (null: no such session). */
  loadPage(id: string, start: number, count: number): ChatSession | null {
    const row = this.sql.head.get(id) as [string, number, number] | undefined;
    if (!row) return null;
    const session = JSON.parse(row[0]) as ChatSession;
    session.updatedAt = row[1];
    // A page that reaches the newest (the one a chat opens with) is read from that end: no walk past the older ones.
    const docs = (start + count >= row[2] ? (this.sql.newest.all(id, row[2] - start) as Array<[string]>).reverse() : (this.sql.page.all(id, count, start) as Array<[string]>));
    for (const [doc] of docs) session.messages.push(JSON.parse(doc) as ChatMessage);
    return session;
  }

  /** Where the message is in its session (null: it has no such message). */
  position(id: string, messageId: string): number | null {
    return (this.sql.position.get(id, messageId) as [number] | undefined)?.[0] ?? null;
  }

  /** How many messages the session has (null: no such session). */
  count(id: string): number | null {
    return (this.sql.count.get(id) as [number] | undefined)?.[0] ?? null;
  }

  /** Writes the whole session over whatever was saved under its id. */
  replace(session: ChatSession): LoadedSession {
    const head = headOf(session);
    this.upsert(session, head);
    this.sql.clear.run(session.id);
    const refs = session.messages.map((m, i) => {
      const seq = (i + 1) * SEQ_STEP;
      return { rowid: this.insertMessage(session.id, seq, m), seq };
    });
    return { session, refs, head };
  }

  /** Writes what changed from `before` to `session` (planned by planRows): its fields when they differ, and only new or dropped messages. */
  update(before: LoadedSession, session: ChatSession, plan: RowPlan): LoadedSession {
    const head = headOf(session);
    if (head === before.head) this.sql.touch.run(session.updatedAt, session.messages.length, session.id);
    else this.upsert(session, head);
    for (const rowid of plan.deletes) this.sql.remove.run(rowid);
    for (const { rowid, seq } of plan.moves) this.sql.move.run(seq, rowid);
    for (const { index, rowid, seq } of plan.writes) {
      const m = session.messages[index]!;
      if (rowid === null) plan.refs[index] = { rowid: this.insertMessage(session.id, seq, m), seq };
      else this.sql.rewrite.run(seq, m.id, m.role, m.content, JSON.stringify(m), rowid);
    }
    return { session, refs: plan.refs, head };
  }

  drop(id: string): boolean {
    return this.sql.drop.run(id).changes > 0;
  }

  /** The row of a session to be written in steps, pending (claimed at `now`): it has no messages yet and nothing sees it. */
  stage(session: ChatSession, now: number): LoadedSession {
    const head = headOf(session);
    const s = session;
    this.sql.stage.run(s.id, s.title, s.character.name, s.createdAt, s.updatedAt, s.messages.length, head, Math.max(1, now));
    return { session: { ...session, messages: [] }, refs: [], head };
  }

  /** When a pending session was last claimed by its writer or dropper; null when it is not pending (or not there). */
  claimedAt(id: string): number | null {
    return (this.sql.claim.get(id) as [number] | undefined)?.[0] ?? null;
  }

  /** A pending session's writer or dropper is still at it (a second store's start leaves it be). */
  renew(id: string, now: number): void {
    this.sql.renew.run(Math.max(1, now), id);
  }

  /** Adds messages at the end of a staged session (as replace() numbers them). */
  append(loaded: LoadedSession, messages: ChatMessage[]): void {
    for (const m of messages) {
      const seq = (loaded.refs.length + 1) * SEQ_STEP;
      loaded.refs.push({ rowid: this.insertMessage(loaded.session.id, seq, m), seq });
      loaded.session.messages.push(m);
    }
  }

  /** The staged session is whole: from now on it is read and listed. */
  publish(id: string): boolean {
    return this.sql.publish.run(id).changes > 0;
  }

  /** Hides a session from every read, as a pending one claimed at `now` (to drop it in steps); false when there is none. */
  hide(id: string, now: number): boolean {
    return this.sql.hide.run(Math.max(1, now), id).changes > 0;
  }

  /** Deletes up to `count` of the session's messages; how many it deleted. */
  removeSome(id: string, count: number): number {
    return this.sql.removeSome.run(id, count).changes;
  }

  /** Drops the pending sessions last claimed before `before` (a kill left them), with their messages; how many. */
  dropPending(before: number): number {
    return this.sql.dropPending.run(before).changes;
  }

  private upsert(s: ChatSession, head: string): void {
    this.sql.upsert.run(s.id, s.title, s.character.name, s.createdAt, s.updatedAt, s.messages.length, head);
  }

  private insertMessage(sessionId: string, seq: number, m: ChatMessage): number {
    return Number(this.sql.insert.run(sessionId, seq, m.id, m.role, m.content, JSON.stringify(m)).lastInsertRowid);
  }
}
