// Workbench sessions on disk: one JSON file per session in <dataDir>/sessions/, atomic writes, validated reads and imports.
import fs from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic-write';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { ChatSessionSchema, SESSION_FORMAT, SESSION_VERSION, type ChatSession, type ChatSessionSummary } from '../../../shared/types/chat';
import { describeAjvError, lazyValidator } from '../contract/validators';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';

const validateSession = lazyValidator<ChatSession>(ChatSessionSchema);
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface SessionStoreOptions {
  dataDir: string;
  clock?: Clock;
  log?: Logger;
  newId?: () => string;
}

/** Checks an unknown value as a session document; the error names the offending field. */
export function checkSession(value: unknown): ChatSession {
  if (validateSession(value)) {
    // The shown swipe must be one of them (a hand-edited file could say otherwise).
    const bad = value.messages.findIndex((m) => m.swipes !== undefined && (m.swipeId ?? 0) >= m.swipes.length);
    if (bad >= 0) throw new HostFailure({ code: 'INVALID_INPUT', message: 'The session is not valid: a message shows a swipe it does not have.', path: `/messages/${bad}/swipeId` });
    return value;
  }
  const { message, path: field } = describeAjvError(validateSession.errors?.[0], 'invalid');
  throw new HostFailure({ code: 'INVALID_INPUT', message: `The session is not valid: ${message}`, path: field });
}

export class SessionStore {
  readonly dir: string;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly newId: () => string;

  constructor(options: SessionStoreOptions) {
    this.dir = path.join(options.dataDir, 'sessions');
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silentLogger;
    this.newId = options.newId ?? (() => randomUUID());
    fs.mkdirSync(this.dir, { recursive: true });
  }

  list(): ChatSession[] {
    const out: ChatSession[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -5);
      if (!ID.test(id)) continue;
      try {
        out.push(this.get(id));
      } catch (err) {
        this.log.warn(`session ${name} could not be read: ${err instanceof HostFailure ? err.error.message : (err as Error).message}`);
      }
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  has(id: string): boolean {
    return ID.test(id) && fs.existsSync(this.file(id));
  }

  get(id: string): ChatSession {
    if (!ID.test(id)) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Invalid session id.', path: '/sessionId' });
    let text: string;
    try {
      text = fs.readFileSync(this.file(id), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HostFailure({ code: 'NOT_FOUND', message: `There is no session ${id}.`, path: '/sessionId' });
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The session file ${id}.json is not valid JSON.` });
    }
    return checkSession(parsed);
  }

  create(init: Partial<Pick<ChatSession, 'title' | 'character' | 'persona' | 'worldInfo'>> = {}): ChatSession {
    const now = this.clock.now();
    const session: ChatSession = {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      id: this.newId(),
      title: init.title ?? 'New chat',
      createdAt: now,
      updatedAt: now,
      character: init.character ?? { name: 'Assistant', description: '', personality: '', scenario: '' },
      persona: init.persona ?? { name: 'User', description: '' },
      worldInfo: init.worldInfo ?? [],
      messages: [],
    };
    this.write(checkSession(session));
    return session;
  }

  /** Reads the latest copy, applies the change and writes it back atomically. */
  mutate(id: string, change: (session: ChatSession) => ChatSession | void): ChatSession {
    const current = this.get(id);
    const next = change(current) ?? current;
    next.updatedAt = this.clock.now();
    this.write(checkSession(next));
    return next;
  }

  delete(id: string): boolean {
    if (!this.has(id)) return false;
    fs.rmSync(this.file(id), { force: true });
    fs.rmSync(this.avatarFile(id), { force: true });
    return true;
  }

  /** Keeps the character's picture beside the session (large images stay out of the JSON every turn rewrites). */
  setAvatar(id: string, png: Buffer): ChatSession {
    this.writeAvatar(id, png);
    return this.mutate(id, (s) => ({ ...s, avatar: { type: 'image/png', bytes: png.length } }));
  }

  /** The picture's file alone (a restore writes the session document as it was). */
  writeAvatar(id: string, png: Buffer): void {
    writeFileAtomicSync(this.avatarFile(id), png);
  }

  /** The picture's bytes, or null when the session has none (or its file is gone). */
  avatar(id: string): Buffer | null {
    if (!this.get(id).avatar) return null;
    try {
      return fs.readFileSync(this.avatarFile(id));
    } catch {
      return null;
    }
  }

  /** Adds a session from an exported document; a taken id gets a fresh one. */
  import(json: string): ChatSession {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The file is not valid JSON (${(err as Error).message}).`, path: '/json' });
    }
    const { avatar: _pictureNotInTheFile, ...session } = checkSession(parsed);
    const copy: ChatSession = { ...session, id: this.has(session.id) ? this.newId() : session.id };
    this.write(copy);
    return copy;
  }

  export(id: string): { fileName: string; json: string } {
    const session = this.get(id);
    const safe = session.title.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-').slice(0, 60) || 'session';
    return { fileName: `${safe}-${session.id.slice(0, 8)}.json`, json: JSON.stringify(session, null, 2) };
  }

  write(session: ChatSession): void {
    const file = this.file(session.id);
    try {
      writeFileAtomicSync(file, JSON.stringify(session));
    } catch (err) {
      throw new HostFailure({
        code: 'SETTINGS_WRITE_FAILED',
        message: `Could not save the session (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
        hint: 'Check that the data folder is writable and the disk is not full.',
      });
    }
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private avatarFile(id: string): string {
    return path.join(this.dir, `${id}.avatar.png`);
  }
}

export function summaryOf(session: ChatSession, busy: boolean): ChatSessionSummary {
  return {
    id: session.id,
    title: session.title,
    characterName: session.character.name,
    messageCount: session.messages.length,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    busy,
  };
}

/** A session title from its first message: the first line, cut at a word near 48 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0]!.replace(/\s+/g, ' ');
  if (line.length <= 48) return line;
  const cut = line.slice(0, 48);
  const space = cut.lastIndexOf(' ');
  return `${space > 24 ? cut.slice(0, space) : cut}…`;
}
