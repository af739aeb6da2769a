// The chats kept in memory, the one read last at the end: frozen values every reader shares, the longest unread
// forgotten past a number of messages (the newest always stays), and all of them dropped once another connection
// (the command line beside the app, a second store) has committed since the last look.
import { pluck, type Db } from '../../db/chat-db';
import { deepFreeze } from './session-drafts';
import type { LoadedSession } from './session-rows';

/** Messages kept in memory across the chats read last (the newest one always stays, however long). */
const CACHED_MESSAGES = 40_000;

export class SessionCache {
  private readonly held = new Map<string, LoadedSession>();
  /** SQLite's count of other connections' commits at the last look. */
  private seen = 0;

  constructor(private readonly db: Db) {}

  /** Other connections' commits as last looked at (a read in the background compares it before keeping what it read). */
  get version(): number {
    return this.seen;
  }

  /** What is held, after dropping all of it if another connection committed since the last look. */
  fresh(): ReadonlyMap<string, LoadedSession> {
    const version = pluck<number>(this.db, 'PRAGMA data_version');
    if (version !== this.seen) {
      this.held.clear();
      this.seen = version;
    }
    return this.held;
  }

  /** Held now, without a look at other connections. */
  has(id: string): boolean {
    return this.held.has(id);
  }

  /** The session when held (after a look), now the one read last. */
  take(id: string): LoadedSession | undefined {
    const cached = this.fresh().get(id);
    if (cached) {
      this.held.delete(id);
      this.held.set(id, cached);
    }
    return cached;
  }

  /** Freezes what was read or written and keeps it, forgetting the sessions read longest ago past the cap. */
  remember(loaded: LoadedSession): LoadedSession {
    deepFreeze(loaded.session);
    this.held.delete(loaded.session.id);
    this.held.set(loaded.session.id, loaded);
    let total = 0;
    for (const s of this.held.values()) total += s.session.messages.length;
    for (const [key, s] of this.held) {
      if (total <= CACHED_MESSAGES || key === loaded.session.id) break;
      this.held.delete(key);
      total -= s.session.messages.length;
    }
    return loaded;
  }

  forget(id: string): void {
    this.held.delete(id);
  }

  clear(): void {
    this.held.clear();
  }
}
