// The chats' database: one SQLite file (libsql's prebuilt N-API build) in WAL mode, one writer, a transaction per
// change. Sessions keep their fields in a row, messages one row each (an edit rewrites that row only), a trigram
// full-text index over the messages' text answers substring search without reading the chats, and council runs
// are rows beside them.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { HostFailure } from '../../../shared/errors';

export type Db = InstanceType<typeof Database>;

/**
 * The tables, one step per schema version: a file at version n runs the steps after n, in one transaction. A
 * newer file than this build knows is refused, never rewritten.
 */
export const SCHEMA_STEPS = [
  `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  character_name TEXT NOT NULL,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  message_count INTEGER NOT NULL,
  -- The session's other fields as JSON, in the order they were given (exports keep their shape).
  head TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_update ON sessions (updated_at DESC);
CREATE TABLE IF NOT EXISTS messages (
  rowid INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  -- Order within the session, sparse so an insertion rarely renumbers (ties never happen, so it is not unique).
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_in_order ON messages (session_id, seq);
CREATE VIRTUAL TABLE IF NOT EXISTS messages_text USING fts5 (
  content, content = 'messages', content_rowid = 'rowid', tokenize = 'trigram remove_diacritics 1'
);
CREATE TRIGGER IF NOT EXISTS messages_text_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_text (rowid, content) VALUES (new.rowid, new.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_text_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_text (messages_text, rowid, content) VALUES ('delete', old.rowid, old.content);
END;
CREATE TRIGGER IF NOT EXISTS messages_text_update AFTER UPDATE OF content ON messages BEGIN
  INSERT INTO messages_text (messages_text, rowid, content) VALUES ('delete', old.rowid, old.content);
  INSERT INTO messages_text (rowid, content) VALUES (new.rowid, new.content);
END;
`,
  // 2: council runs, newest first and by chat; the summary the Runs list shows beside the run itself.
  `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  started_at REAL NOT NULL,
  chat_id TEXT,
  summary TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at DESC, id DESC);
`,
  // 3: a long session written in steps is pending until its last step: nothing lists or reads it, and one a kill
  // left pending is dropped at the next start.
  `
ALTER TABLE sessions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
`,
  // 4: the index's segments are merged in slices after the writes (index-merger.ts), not by FTS5 inside them.
  `
INSERT INTO messages_text (messages_text, rank) VALUES ('automerge', 0);
`,
  // 5: what extensions keep as Lumiverse does (spindle.presets, spindle.memories): the person's generation presets,
  // and each chat's memory graph (its entities and their relations) with the chat links and vaults, and the cortex's
  // settings. A chat's graph and links go with it; a vault is a copy and stays.
  `
CREATE TABLE IF NOT EXISTS presets (
  id TEXT PRIMARY KEY,
  created_at REAL NOT NULL,
  cache_revision INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memory_entities (
  id TEXT PRIMARY KEY,
  chat_id TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_entities_by_chat ON memory_entities (chat_id);
CREATE TABLE IF NOT EXISTS memory_relations (
  id TEXT PRIMARY KEY,
  chat_id TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_relations_by_chat ON memory_relations (chat_id);
CREATE TABLE IF NOT EXISTS memory_links (
  id TEXT PRIMARY KEY,
  chat_id TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_links_by_chat ON memory_links (chat_id);
CREATE TABLE IF NOT EXISTS memory_config (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memory_vaults (
  id TEXT PRIMARY KEY,
  created_at REAL NOT NULL,
  doc TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS memory_follows_chat AFTER DELETE ON sessions BEGIN
  DELETE FROM memory_entities WHERE chat_id = old.id;
  DELETE FROM memory_relations WHERE chat_id = old.id;
  DELETE FROM memory_links WHERE chat_id = old.id;
END;
`,
  // 6: a chat's memory is no longer dropped with its session row (that row is also dropped when a long chat is
  // written again in steps under its id, as a restore does): it is reached only while the chat is saved and swept at
  // the next start once it is gone. Presets are listed most recently changed first; a vault's header is a column of
  // its own, so lists and links read no chunks.
  `
DROP TRIGGER IF EXISTS memory_follows_chat;
ALTER TABLE presets ADD COLUMN updated_at REAL NOT NULL DEFAULT 0;
UPDATE presets SET updated_at = COALESCE(json_extract(doc, '$.updated_at'), created_at);
CREATE INDEX IF NOT EXISTS presets_by_update ON presets (updated_at DESC);
ALTER TABLE memory_vaults ADD COLUMN header TEXT NOT NULL DEFAULT '{}';
UPDATE memory_vaults SET header = json_extract(doc, '$.vault'), doc = json_remove(doc, '$.vault') WHERE json_extract(doc, '$.vault') IS NOT NULL;
`,
  // 7: regex scripts (spindle.regex_scripts and the person's own), each with the extension that wrote it; the columns
  // are what lists and a generation's active scripts are chosen by, the document the script as Lumiverse gives it.
  `
CREATE TABLE IF NOT EXISTS regex_scripts (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  script_id TEXT NOT NULL DEFAULT '',
  scope TEXT NOT NULL,
  scope_id TEXT,
  target TEXT NOT NULL,
  disabled INTEGER NOT NULL,
  sort_order REAL NOT NULL,
  created_at REAL NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS regex_scripts_in_order ON regex_scripts (sort_order, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS regex_scripts_by_script_id ON regex_scripts (script_id) WHERE script_id <> '';
`,
  // 8: world books of their own (spindle.world_books, as Lumiverse keeps them): a book, its entries in order, and the
  // sessions it is attached to (a character's world_book_ids), read at every turn. A session's own world info stays in it.
  `
CREATE TABLE IF NOT EXISTS world_books (
  id TEXT PRIMARY KEY,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS world_book_entries (
  id TEXT PRIMARY KEY,
  book_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS world_book_entries_in_order ON world_book_entries (book_id, seq);
CREATE TABLE IF NOT EXISTS world_book_links (
  session_id TEXT NOT NULL,
  book_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (session_id, book_id)
);
CREATE INDEX IF NOT EXISTS world_book_links_by_book ON world_book_links (book_id);
`,
  // 9: the world books that apply to every chat (Lumiverse's globalWorldBooks), in order.
  `
CREATE TABLE IF NOT EXISTS world_book_globals (
  book_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL
);
`,
  // 10: personas of their own (spindle.personas.create); a session's persona stays in the session.
  `
CREATE TABLE IF NOT EXISTS personas (
  id TEXT PRIMARY KEY,
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  doc TEXT NOT NULL
);
`,
];
const SCHEMA_VERSION = SCHEMA_STEPS.length;

export const CHATS_DB_FILE = 'chats.db';
/** How long a write waits for another connection's (the command line beside the app). */
const BUSY_MS = 5000;

/** Opens (or creates) the chats' database in the data folder. */
export function openChatDb(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, CHATS_DB_FILE);
  let db: Db;
  try {
    // Private to its user, as the rest of the data folder: SQLite gives its WAL files the mode the database has.
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    db = new Database(file);
    // WAL: readers never wait for the writer, and a kill mid-write leaves the last committed state.
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${BUSY_MS};`);
  } catch (err) {
    throw new HostFailure({
      code: 'SETTINGS_WRITE_FAILED',
      message: `The chats' database ${file} cannot be opened (${(err as Error).message}).`,
      hint: 'Check that the data folder is writable and the disk is not full.',
    });
  }
  const newer = (version: number) => {
    db.close();
    return new HostFailure({
      code: 'INVALID_INPUT',
      message: `The chats' database ${file} was written by a newer Council Workbench (schema ${version}; this one knows ${SCHEMA_VERSION}).`,
      hint: 'Update Council Workbench; the file is left as it is.',
    });
  };
  const version = pluck<number>(db, 'PRAGMA user_version');
  if (version > SCHEMA_VERSION) throw newer(version);
  if (version < SCHEMA_VERSION) {
    // Read again under the writer's lock: a second process opening the same old file at once may have migrated it.
    const now = transaction(db, () => {
      const current = pluck<number>(db, 'PRAGMA user_version');
      if (current >= SCHEMA_VERSION) return current;
      for (const step of SCHEMA_STEPS.slice(current)) db.exec(step);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      return SCHEMA_VERSION;
    });
    if (now > SCHEMA_VERSION) throw newer(now);
  }
  startLog(db, file);
  return db;
}

/**
 * Starts an empty write-ahead log: its first frame syncs its header (6–7 ms measured here), which the first change
 * would otherwise pay on the host's thread. Rewriting the version writes nothing new. A log with frames is left
 * alone (another connection would take the write for a change and read its chats again), and so is a database
 * another process is writing: this is a saving, never a reason not to open.
 */
function startLog(db: Db, file: string): void {
  if (walSize(file) > 0) return;
  try {
    db.exec('PRAGMA busy_timeout = 0');
    db.exec(`PRAGMA user_version = ${pluck<number>(db, 'PRAGMA user_version')}`);
  } catch {
    // Busy, or the disk is full: the first change pays it, as before.
  }
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
}

function walSize(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** Runs `work` as one transaction: all of it is written, or (on a throw) none of it. */
export function transaction<T>(db: Db, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    // SQLite may have rolled back already (a full disk): the error that ended it is the one to tell.
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** A transaction of its own, its commit announced (checkpoints and index merges follow it); inside one, joins it. */
export function write<T>(db: Db, committed: () => void, work: () => T): T {
  if (db.inTransaction) return work();
  const result = transaction(db, work);
  committed();
  return result;
}

/** The first column of the first row (libsql's get() adds a metadata field to rows; a raw row has none). */
export function pluck<T>(db: Db, sql: string, ...params: unknown[]): T {
  const row = db.prepare(sql).raw(true).get(...params) as unknown[] | undefined;
  return row?.[0] as T;
}
