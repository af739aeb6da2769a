// Workbench sessions in the chats' database (store/chat-db.ts): validated on the way in, read back as frozen values
// and kept in memory for the chats in use, so a change writes only the messages it made or dropped.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import type { ChatSession } from '../../../shared/types/chat';
import { windowRange, type WindowPlace } from './store/session-window';
import { AvatarFiles } from './store/avatar-files';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import { CHATS_DB_FILE, openChatDb, pluck, transaction, type Db } from '../db/chat-db';
import { Checkpointer } from '../db/checkpointer';
import { IndexMerger } from '../db/index-merger';
import { planRows } from './store/message-rows';
import { SessionRows, type LoadedSession, type SessionRow } from './store/session-rows';
import { JSON_BACKUP_DIR, migrateJsonFiles } from '../db/json-files';
import { badId, checkChange, checkSession, checkSessionInSteps, noSession } from './store/session-checks';
import { draftOf, newSession } from './store/session-drafts';
import { SessionCache } from './store/session-cache';
import { PENDING_LEASE_MS } from './store/staged-write';
import { SteppedSessions } from './store/stepped-sessions';
import { nextTurn } from '../util/next-turn';

export { checkSession };

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Messages parsed per step of a read in the background (a millisecond or two of work). */
const READ_CHUNK = 250;

export interface SessionStoreOptions {
  dataDir: string;
  clock?: Clock;
  log?: Logger;
  newId?: () => string;
}

export class SessionStore {
  /** Where the characters' pictures are kept (beside the database, out of the rows every turn touches). */
  readonly dir: string;
  private readonly avatars: AvatarFiles;
  readonly db: Db;
  private readonly rows: SessionRows;
  readonly checkpoints: Checkpointer;
  /** The search index's merges, in slices after the writes (db/index-merger.ts). */
  readonly merges: IndexMerger;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly newId: () => string;
  /** The sessions read last, in memory (store/session-cache.ts). */
  private readonly cache: SessionCache;
  /** Writes this store made, per session: a read in the background started before one gives up. */
  private readonly writes = new Map<string, number>();
  private readonly reading = new Map<string, Promise<void>>();
  /** Long writes and drops, in steps (store/stepped-sessions.ts). */
  private readonly stepped: SteppedSessions;
  private closed = false;

  constructor(options: SessionStoreOptions) {
    this.dir = path.join(options.dataDir, 'sessions');
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLogger;
    this.newId = options.newId ?? (() => randomUUID());
    fs.mkdirSync(this.dir, { recursive: true });
    this.avatars = new AvatarFiles(this.dir);
    this.db = openChatDb(options.dataDir);
    this.rows = new SessionRows(this.db);
    this.cache = new SessionCache(this.db);
    this.checkpoints = new Checkpointer(this.db, path.join(options.dataDir, CHATS_DB_FILE), this.log);
    // Its slices are not the person's saves: a failure is the merger's to tell, not a failed save.
    const slice = (work: () => void) => {
      transaction(this.db, work);
      this.checkpoints.committed();
    };
    this.merges = new IndexMerger(this.db, slice, this.log, this.checkpoints);
    this.stepped = new SteppedSessions({
      rows: this.rows,
      now: () => this.clock.now(),
      closed: () => this.closed,
      transaction: (work) => this.guarded(() => transaction(this.db, work)),
      forget: (id) => {
        this.cache.forget(id);
        this.wrote(id);
      },
      writeAtOnce: (session) => this.write(session),
      caughtUp: () => this.merges.settled().then(() => this.checkpoints.settled()),
      keep: (loaded) => this.cache.remember(loaded).session,
      warn: (line) => this.log.warn(line),
    });
    const dropped = this.rows.dropPending(this.clock.now() - PENDING_LEASE_MS);
    if (dropped) this.log.warn(`sessions: ${dropped} session${dropped === 1 ? ' was' : 's were'} being written or deleted when the app last stopped; dropped (a file it came from still holds it)`);
    // What the start writes (years of chats moved in, leftovers dropped) is merged in the turns after, as any change.
    let wrote = dropped > 0;
    try {
      wrote = this.moveJsonSessions(options.dataDir) > 0 || wrote;
    } catch (err) {
      // The files stay where they are (each is tried again at the next start); the app opens with what it has. Their
      // rows may be in already (the files failed to move after), so they are merged as moved ones are.
      wrote = true;
      this.log.warn(`sessions: session files from before the database were not moved in (${(err as Error).message})`);
    }
    if (wrote) this.merges.committed();
  }

  /** How many session files it moved into the database. */
  private moveJsonSessions(dataDir: string): number {
    return migrateJsonFiles<ChatSession>({
      dir: this.dir,
      backup: path.join(dataDir, JSON_BACKUP_DIR),
      what: 'session',
      db: this.db,
      log: this.log,
      check: checkSession,
      idOf: (s) => s.id,
      has: (id) => this.rows.exists(id),
      save: (s) => void this.rows.replace(s),
    }).moved.length;
  }

  /** Every session's summary, the latest changed first, without reading its messages. */
  summaries(): SessionRow[] {
    return this.rows.list();
  }

  /**
   * Every session whole (a backup's read), each read in the background as preload() does, so a backup of years of
   * chats never holds the host's thread; each session is as saved when it was read, one deleted meanwhile is left out.
   */
  async all(): Promise<ChatSession[]> {
    const out: ChatSession[] = [];
    for (const { id } of this.summaries()) {
      await this.preload(id);
      if (this.has(id)) out.push(this.get(id));
    }
    return out;
  }

  has(id: string): boolean {
    return ID.test(id) && (this.cache.fresh().has(id) || this.rows.exists(id));
  }

  /** The session as saved. It is frozen: change it with mutate(). */
  get(id: string): ChatSession {
    return this.loaded(id).session;
  }

  /**
   * Brings the session into memory a chunk of messages at a time, the host's thread free between them, so the get()
   * or change that follows (a turn's history, an edit) reads nothing. A write to it meanwhile starts the read over,
   * once; after that, or on any failure, the next get() reads it whole (and tells the failure).
   */
  preload(id: string): Promise<void> {
    if (!ID.test(id) || this.cache.fresh().has(id)) return Promise.resolve();
    let read = this.reading.get(id);
    if (!read) {
      read = this.readInChunks(id)
        .catch((err: unknown) => this.log.warn(`sessions: reading ${id} in the background failed (${(err as Error).message}); the next read tries again`))
        .finally(() => this.reading.delete(id));
      this.reading.set(id, read);
    }
    return read;
  }

  private async readInChunks(id: string): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      // Read meanwhile (a change needed it at once): nothing left to do.
      if (this.closed || this.cache.fresh().has(id)) return;
      const writes = this.writes.get(id);
      const version = this.cache.version;
      /** Nothing was written to the chats since the read began, here or by another connection (nor was the store closed). */
      const unchanged = () => {
        if (this.closed || this.writes.get(id) !== writes || this.cache.has(id)) return false;
        try {
          return pluck<number>(this.db, 'PRAGMA data_version') === version;
        } catch {
          return false;
        }
      };
      const read = await this.rows.loadInChunks(id, READ_CHUNK, () => nextTurn().then(unchanged));
      if (read === undefined || this.closed) continue;
      // The last chunk was read after the last look. The version is read once more, by fresh(), and the read is kept
      // only if no commit came before it (one just before the last chunk would be in that chunk alone).
      const cache = this.cache.fresh();
      if (this.cache.version !== version || this.writes.get(id) !== writes) continue;
      if (read && !cache.has(id)) this.cache.remember(read);
      return;
    }
  }

  /**
   * The session with only its messages in the window asked for (store/session-window.ts). A session in memory is
   * sliced; another is read a page only (opening a long chat reads no more than it shows).
   */
  window(id: string, place: WindowPlace = {}): { session: ChatSession; start: number; total: number } {
    const cached = ID.test(id) ? this.cache.fresh().get(id) : undefined;
    const total = cached ? cached.session.messages.length : this.rows.count(id);
    if (total === null) noSession(id);
    const { first, last } = windowRange(total, place, (messageId) => (cached ? cached.session.messages.findIndex((m) => m.id === messageId) : (this.rows.position(id, messageId) ?? -1)));
    if (cached) return { session: { ...cached.session, messages: cached.session.messages.slice(first, last) }, start: first, total };
    return { session: this.rows.loadPage(id, first, last - first)!, start: first, total };
  }

  create(init: Partial<Pick<ChatSession, 'title' | 'character' | 'persona' | 'worldInfo'>> = {}): ChatSession {
    return this.write(checkSession(newSession(this.newId(), this.clock.now(), init)));
  }

  /** A new session with these fields, messages too (a chat brought in, a branch): a long one is checked and written in steps. */
  async add(init: Partial<Omit<ChatSession, 'format' | 'version' | 'id' | 'createdAt' | 'updatedAt'>>): Promise<ChatSession> {
    return this.writeWhole(await checkSessionInSteps(newSession(this.newId(), this.clock.now(), init), nextTurn));
  }

  /**
   * Applies the change to a draft of the latest copy and writes what it changed. All of it happens in one write
   * transaction: the copy is read fresh under the writer's lock, so no other connection commits in between.
   */
  mutate(id: string, change: (session: ChatSession) => ChatSession | void): ChatSession {
    const after = this.guarded(() =>
      transaction(this.db, () => {
        const before = this.loaded(id);
        const draft = draftOf(before.session);
        const next = change(draft) ?? draft;
        next.updatedAt = this.clock.now();
        const plan = planRows(before.session.messages, before.refs, next.messages);
        checkChange(next, plan.writes.map((w) => w.index));
        this.wrote(id);
        return this.rows.update(before, next, plan);
      }),
    );
    return this.cache.remember(after).session;
  }

  /** Deletes the session: gone for every reader at once, its messages dropped in steps after (the host's thread free between). */
  delete(id: string): boolean {
    if (!this.has(id)) return false;
    this.stepped.drop(id);
    this.avatars.remove(id);
    return true;
  }

  /** Keeps the character's picture beside the database. */
  async setAvatar(id: string, png: Buffer): Promise<ChatSession> {
    await this.avatars.write(id, png);
    return this.mutate(id, (s) => ({ ...s, avatar: { type: 'image/png', bytes: png.length } }));
  }

  /** The picture's file alone (a restore writes the session document as it was). */
  writeAvatar(id: string, png: Buffer): Promise<void> {
    return this.avatars.write(id, png);
  }

  /** The picture's file, or null when the session has none (an extension's frame fetches it by its image_id). */
  avatarFile(id: string): string | null {
    return this.has(id) && this.head(id).avatar ? this.avatars.file(id) : null;
  }

  /** The picture's bytes, or null when the session has none (or its file is gone). */
  avatar(id: string): Promise<Buffer | null> {
    return this.head(id).avatar ? this.avatars.read(id) : Promise.resolve(null);
  }

  /** Adds a session from an exported document (a long one checked and written in steps); a taken id gets a fresh one. */
  async import(json: string): Promise<ChatSession> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The file is not valid JSON (${(err as Error).message}).`, path: '/json' });
    }
    return this.importDocument(parsed);
  }

  /**
   * import() of a file already parsed (the import of any file parses it once, to tell what it is). The store takes
   * the document as it is: its messages are frozen as they are written, kept or not.
   */
  async importDocument(parsed: unknown): Promise<ChatSession> {
    const { avatar: _pictureNotInTheFile, ...session } = await checkSessionInSteps(parsed, nextTurn);
    return this.writeWhole({ ...session, id: this.rows.taken(session.id) ? this.newId() : session.id });
  }

  export(id: string): { fileName: string; json: string } {
    const session = this.get(id);
    const safe = session.title.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'session';
    return { fileName: `${safe}-${session.id.slice(0, 8)}.json`, json: JSON.stringify(session, null, 2) };
  }

  /** Writes a whole, checked session over whatever was saved under its id (a new session, an import, a restore). */
  write(session: ChatSession): ChatSession {
    // A pending row is a write or drop in steps under way (or one a crash left): not to be written over at once.
    if (this.rows.taken(session.id) && !this.rows.exists(session.id)) {
      throw new HostFailure({ code: 'CONFLICT', message: `The session ${session.id} is being written or deleted.`, hint: 'Try again once that is done.', path: '/sessionId' });
    }
    this.wrote(session.id);
    const written = this.guarded(() => transaction(this.db, () => this.rows.replace(session)));
    return this.cache.remember(written).session;
  }

  /**
   * Writes a whole, checked session as write() does, with the host's thread free: a long one in steps
   * (store/stepped-sessions.ts). The session is the store's from then on: its messages are frozen as they are written.
   */
  writeWhole(session: ChatSession): Promise<ChatSession> {
    return this.stepped.write(session);
  }

  /** Resolves once no session is being written or dropped in steps. */
  dropped(): Promise<void> {
    return this.stepped.idle();
  }

  /** Closes the database; the checkpoint thread, when one was started, closes its connection first. */
  close(): Promise<void> {
    this.closed = true;
    this.cache.clear();
    this.merges.stop();
    const thread = this.checkpoints.close();
    if (!thread) {
      this.db.close();
      return Promise.resolve();
    }
    return thread.then(() => void this.db.close());
  }

  private loaded(id: string): LoadedSession {
    if (!ID.test(id)) badId();
    const cached = this.cache.take(id);
    if (cached) return cached;
    const read = this.rows.load(id);
    if (!read) noSession(id);
    return this.cache.remember(read);
  }

  /** Throws INVALID_INPUT for a malformed id and NOT_FOUND for one nobody has, reading no messages. */
  assertExists(id: string): void {
    this.head(id);
  }

  /** The session's own fields with no messages (none are read): what lists and cards need. */
  head(id: string): ChatSession {
    if (!ID.test(id)) badId();
    const cached = this.cache.fresh().get(id)?.session;
    const session = cached ? { ...cached, messages: [] } : this.rows.headOnly(id)?.session;
    if (!session) noSession(id);
    return session;
  }

  /** Every session's own fields with no messages, the latest changed first. */
  heads(): ChatSession[] {
    return this.rows.heads();
  }

  private wrote(id: string): void {
    this.writes.set(id, (this.writes.get(id) ?? 0) + 1);
  }

  /** Runs a write; SQLite's failures become SETTINGS_WRITE_FAILED (a change's own errors pass as they are). */
  private guarded<T>(write: () => T): T {
    try {
      const result = write();
      this.checkpoints.committed();
      this.merges.committed();
      return result;
    } catch (err) {
      if (!String((err as { code?: unknown }).code ?? '').startsWith('SQLITE')) throw err;
      this.log.warn(`sessions: a write failed: ${(err as Error).message}`);
      throw new HostFailure({
        code: 'SETTINGS_WRITE_FAILED',
        message: `Could not save the session (${(err as { code?: string }).code ?? 'error'}).`,
        hint: 'Check that the data folder is writable and the disk is not full.',
      });
    }
  }
}
