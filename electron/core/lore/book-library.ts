// World books of their own, as Lumiverse keeps them (spindle.world_books): a book made before any chat, its entries in
// order, the sessions it is attached to (a character's world_book_ids), and those that apply to every chat. Attached books are linked, not copied: a
// turn reads their entries as they are then, so an extension that rewrites an entry every turn (Psyche), edits or
// deletes them (WorldForge) or shares one book between characters is heard at the next turn. A session's own world
// info stays in the session. Rows in the chats' database, each change a transaction of its own.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { WorldInfoEntry } from '../../../shared/types/chat';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';
import { Emitter } from '../util/emitter';

export interface BookDto {
  id: string;
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

type BookDoc = Pick<BookDto, 'name' | 'description' | 'metadata'>;

/** A change to a book of its own or to one of its entries, told after it is written (Lumiverse's WORLD_BOOK_* events). */
export type BookChange =
  | { kind: 'book'; book: BookDto }
  | { kind: 'book-deleted'; id: string }
  | { kind: 'entry'; bookId: string; entry: WorldInfoEntry }
  | { kind: 'entry-deleted'; bookId: string; entryId: string };

/** What the library holds at most: books, entries a book, books a character reads, global books, and all of it as JSON. */
export const LIBRARY_LIMITS = { maxBooks: 2000, maxEntriesPerBook: 5000, maxLinksPerSession: 64, maxGlobal: 64, maxBytes: 256 * 1024 * 1024 };

export class BookLibrary extends DbStore {
  private readonly sql;
  private readonly changes = new Emitter<BookChange>();

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text);
    this.sql = {
      // In the order made (rowid: several are made within one second).
      books: p('SELECT id, created_at, updated_at, doc FROM world_books ORDER BY created_at, rowid').raw(true),
      book: p('SELECT id, created_at, updated_at, doc FROM world_books WHERE id = ?').raw(true),
      bookCount: p('SELECT COUNT(*) FROM world_books').raw(true),
      insertBook: p('INSERT INTO world_books (id, created_at, updated_at, doc) VALUES (?, ?, ?, ?)'),
      writeBook: p('UPDATE world_books SET updated_at = ?, doc = ? WHERE id = ?'),
      touchBook: p('UPDATE world_books SET updated_at = ? WHERE id = ?'),
      removeBook: p('DELETE FROM world_books WHERE id = ?'),
      entries: p('SELECT doc FROM world_book_entries WHERE book_id = ? ORDER BY seq').raw(true),
      entry: p('SELECT book_id, doc FROM world_book_entries WHERE id = ?').raw(true),
      entryCount: p('SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM world_book_entries WHERE book_id = ?').raw(true),
      bytes: p('SELECT (SELECT COALESCE(SUM(length(doc)), 0) FROM world_books) + (SELECT COALESCE(SUM(length(doc)), 0) FROM world_book_entries)').raw(true),
      insertEntry: p('INSERT INTO world_book_entries (id, book_id, seq, doc) VALUES (?, ?, ?, ?)'),
      writeEntry: p('UPDATE world_book_entries SET doc = ? WHERE id = ?'),
      removeEntry: p('DELETE FROM world_book_entries WHERE id = ?'),
      removeEntries: p('DELETE FROM world_book_entries WHERE book_id = ?'),
      linked: p('SELECT book_id FROM world_book_links WHERE session_id = ? ORDER BY seq').raw(true),
      link: p('INSERT INTO world_book_links (session_id, book_id, seq) VALUES (?, ?, ?)'),
      unlinkSession: p('DELETE FROM world_book_links WHERE session_id = ?'),
      unlinkBook: p('DELETE FROM world_book_links WHERE book_id = ?'),
      globals: p('SELECT book_id FROM world_book_globals ORDER BY seq').raw(true),
      clearGlobals: p('DELETE FROM world_book_globals'),
      addGlobal: p('INSERT INTO world_book_globals (book_id, seq) VALUES (?, ?)'),
      dropGlobal: p('DELETE FROM world_book_globals WHERE book_id = ?'),
    };
  }

  /** Hears each change whoever made it; returns the function that stops it. */
  onChange(listener: (change: BookChange) => void): () => void {
    return this.changes.on(listener);
  }

  list(): BookDto[] {
    return (this.sql.books.all() as Row[]).map(dto);
  }

  get(id: string): BookDto | null {
    const row = this.sql.book.get(id) as Row | undefined;
    return row ? dto(row) : null;
  }

  create(input: { name: string; description?: string | undefined; metadata?: Record<string, unknown> | undefined }): BookDto {
    const id = randomUUID();
    const now = this.seconds();
    const doc: BookDoc = { name: input.name, description: input.description ?? '', metadata: input.metadata ?? {} };
    const json = JSON.stringify(doc);
    this.write(() => {
      if ((this.sql.bookCount.get() as [number])[0] >= LIBRARY_LIMITS.maxBooks) fail('QUOTA_EXCEEDED', `At most ${LIBRARY_LIMITS.maxBooks} world books are kept.`);
      this.room(json.length);
      this.sql.insertBook.run(id, now, now, json);
    });
    return this.told(this.get(id)!);
  }

  update(id: string, patch: Partial<BookDoc>): BookDto {
    const book = this.get(id) ?? fail('NOT_FOUND', `No world book ${id}.`, { path: '/worldBookId' });
    const doc: BookDoc = { name: patch.name ?? book.name, description: patch.description ?? book.description, metadata: patch.metadata ?? book.metadata };
    const json = JSON.stringify(doc);
    this.write(() => {
      this.room(json.length);
      this.sql.writeBook.run(this.seconds(), json, id);
    });
    return this.told(this.get(id)!);
  }

  /** The book and its entries; sessions it was attached to no longer read it. False when there was none. */
  delete(id: string): boolean {
    const removed = this.write(() => {
      const removed = this.sql.removeBook.run(id).changes > 0;
      if (removed) {
        this.sql.removeEntries.run(id);
        this.sql.unlinkBook.run(id);
        this.sql.dropGlobal.run(id);
      }
      return removed;
    });
    if (removed) this.changes.emit({ kind: 'book-deleted', id });
    return removed;
  }

  entries(bookId: string): WorldInfoEntry[] {
    return (this.sql.entries.all(bookId) as Array<[string]>).map(([doc]) => JSON.parse(doc) as WorldInfoEntry);
  }

  entry(entryId: string): { bookId: string; entry: WorldInfoEntry } | null {
    const row = this.sql.entry.get(entryId) as [string, string] | undefined;
    return row ? { bookId: row[0], entry: JSON.parse(row[1]) as WorldInfoEntry } : null;
  }

  /** Adds the entry at the book's end, or replaces the one with its id there. */
  saveEntry(bookId: string, entry: WorldInfoEntry): void {
    const json = JSON.stringify(entry);
    this.write(() => {
      if (!this.get(bookId)) fail('NOT_FOUND', `No world book ${bookId}.`, { path: '/worldBookId' });
      this.room(json.length);
      if (this.entry(entry.id)) this.sql.writeEntry.run(json, entry.id);
      else {
        const [count, last] = this.sql.entryCount.get(bookId) as [number, number];
        if (count >= LIBRARY_LIMITS.maxEntriesPerBook) fail('QUOTA_EXCEEDED', `A world book holds at most ${LIBRARY_LIMITS.maxEntriesPerBook} entries.`, { path: '/worldBookId' });
        this.sql.insertEntry.run(entry.id, bookId, last + 1, json);
      }
      this.sql.touchBook.run(this.seconds(), bookId);
    });
    this.changes.emit({ kind: 'entry', bookId, entry });
  }

  deleteEntry(entryId: string): boolean {
    const found = this.write(() => {
      const found = this.entry(entryId);
      if (!found) return null;
      this.sql.removeEntry.run(entryId);
      this.sql.touchBook.run(this.seconds(), found.bookId);
      return found;
    });
    if (found) this.changes.emit({ kind: 'entry-deleted', bookId: found.bookId, entryId });
    return found !== null;
  }

  /** The books attached to a session, in the order given. */
  linked(sessionId: string): string[] {
    return (this.sql.linked.all(sessionId) as Array<[string]>).map(([id]) => id);
  }

  /**
   * Attaches these books to the session in place of the ones it had (Lumiverse's rule: ids cleaned, deduplicated, in
   * order; one that is no book is dropped here, as no turn could read it).
   */
  link(sessionId: string, bookIds: readonly string[]): string[] {
    const ids = this.books(bookIds);
    if (ids.length > LIBRARY_LIMITS.maxLinksPerSession) fail('INPUT_TOO_LARGE', `A character has at most ${LIBRARY_LIMITS.maxLinksPerSession} world books.`, { path: '/input/world_book_ids' });
    this.write(() => {
      this.sql.unlinkSession.run(sessionId);
      ids.forEach((id, seq) => this.sql.link.run(sessionId, id, seq));
    });
    return ids;
  }

  /** The books that apply to every chat, in order. */
  globals(): string[] {
    return (this.sql.globals.all() as Array<[string]>).map(([id]) => id);
  }

  /** Sets the books that apply to every chat (ids cleaned as link's; one that is no book dropped); the list applied. */
  setGlobals(bookIds: readonly string[]): string[] {
    const ids = this.books(bookIds);
    if (ids.length > LIBRARY_LIMITS.maxGlobal) fail('INPUT_TOO_LARGE', `At most ${LIBRARY_LIMITS.maxGlobal} world books apply to every chat.`, { path: '/worldBookIds' });
    this.write(() => {
      this.sql.clearGlobals.run();
      ids.forEach((id, seq) => this.sql.addGlobal.run(id, seq));
    });
    return ids;
  }

  /** A session is gone: nothing is attached to it any more. */
  forgetSession(sessionId: string): void {
    this.write(() => this.sql.unlinkSession.run(sessionId));
  }

  /**
   * The books a chat reads, in Lumiverse's order with the first source winning: the character's (attached to its
   * session, then to the session it was branched from: branch-root.ts), the chat's own list (its metadata's
   * chat_world_book_ids), then the global ones.
   */
  sources(characterSessions: readonly string[], chatBookIds: readonly string[]): Array<{ bookId: string; bookName: string; source: LoreSource; entries: WorldInfoEntry[] }> {
    const seen = new Set<string>();
    const out: Array<{ bookId: string; bookName: string; source: LoreSource; entries: WorldInfoEntry[] }> = [];
    // Attachments and globals name books that exist (a delete takes them away); an id a chat's metadata names that is
    // no book simply has no entries.
    const add = (ids: readonly string[], source: LoreSource) => {
      for (const bookId of ids) {
        if (seen.has(bookId)) continue;
        seen.add(bookId);
        out.push({ bookId, bookName: this.get(bookId)?.name ?? '', source, entries: this.entries(bookId) });
      }
    };
    for (const sessionId of characterSessions) add(this.linked(sessionId), 'character');
    add(chatBookIds, 'chat');
    add(this.globals(), 'global');
    return out;
  }

  private told(book: BookDto): BookDto {
    this.changes.emit({ kind: 'book', book });
    return book;
  }

  /** QUOTA_EXCEEDED when `adding` more characters of JSON would take the library past its size. */
  private room(adding: number): void {
    const used = (this.sql.bytes.get() as [number])[0];
    if (used + adding > LIBRARY_LIMITS.maxBytes) fail('QUOTA_EXCEEDED', `The world books hold at most ${LIBRARY_LIMITS.maxBytes / 1024 / 1024} MB; this write would pass it.`);
  }

  /** Ids cleaned as Lumiverse cleans them (trimmed, no blanks, deduplicated, in order), those of no book dropped. */
  private books(bookIds: readonly string[]): string[] {
    return [...new Set(bookIds.map((id) => id.trim()).filter(Boolean))].filter((id) => this.get(id));
  }
}

/** Where a chat's book comes from (Lumiverse's WorldBookSourceDTO, less personas: a session's persona has none). */
export type LoreSource = 'character' | 'chat' | 'global';

/** The books a chat's own metadata names (Lumiverse's chat_world_book_ids, which ALMANAC-style extensions write). */
export function chatBookIds(metadata: Record<string, unknown> | undefined): string[] {
  const ids = metadata?.chat_world_book_ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

type Row = [string, number, number, string];
const dto = ([id, created, updated, doc]: Row): BookDto => ({ id, ...(JSON.parse(doc) as BookDoc), created_at: created, updated_at: updated });
