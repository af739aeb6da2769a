// Personas of their own, as Lumiverse keeps them (spindle.personas.create): a Workbench chat holds one persona of its
// own, so a persona an extension makes is kept here, listed beside the chats' own, and becomes a chat's persona when
// it is switched to (Story Engine makes its player's persona and switches to it). Rows in the chats' database.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';

export interface PersonaDoc {
  name: string;
  description: string;
  title: string;
  folder: string;
  metadata: Record<string, unknown>;
}

export interface LibraryPersona extends PersonaDoc {
  id: string;
  created_at: number;
  updated_at: number;
}

/** Personas kept at most, and one's metadata as JSON. */
export const PERSONA_LIMITS = { maxPersonas: 1000, maxMetadataChars: 256 * 1024 };

type Row = [string, number, number, string];
const fromRow = ([id, created, updated, doc]: Row): LibraryPersona => ({ id, ...(JSON.parse(doc) as PersonaDoc), created_at: created, updated_at: updated });

export class PersonaLibrary extends DbStore {
  private readonly sql;

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text);
    this.sql = {
      all: p('SELECT id, created_at, updated_at, doc FROM personas ORDER BY created_at, rowid').raw(true),
      one: p('SELECT id, created_at, updated_at, doc FROM personas WHERE id = ?').raw(true),
      count: p('SELECT COUNT(*) FROM personas').raw(true),
      insert: p('INSERT INTO personas (id, created_at, updated_at, doc) VALUES (?, ?, ?, ?)'),
      write: p('UPDATE personas SET updated_at = ?, doc = ? WHERE id = ?'),
      remove: p('DELETE FROM personas WHERE id = ?'),
    };
  }

  list(): LibraryPersona[] {
    return (this.sql.all.all() as Row[]).map(fromRow);
  }

  get(id: string): LibraryPersona | null {
    const row = this.sql.one.get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  create(input: Partial<PersonaDoc> & { name: string }): LibraryPersona {
    const id = randomUUID();
    const now = this.seconds();
    const doc = checked({ name: input.name, description: input.description ?? '', title: input.title ?? '', folder: input.folder ?? '', metadata: input.metadata ?? {} });
    this.write(() => {
      if ((this.sql.count.get() as [number])[0] >= PERSONA_LIMITS.maxPersonas) fail('QUOTA_EXCEEDED', `At most ${PERSONA_LIMITS.maxPersonas} personas are kept.`);
      this.sql.insert.run(id, now, now, JSON.stringify(doc));
    });
    return this.get(id)!;
  }

  update(id: string, patch: Partial<PersonaDoc>): LibraryPersona {
    const current = this.get(id) ?? fail('NOT_FOUND', `No persona ${id}.`, { path: '/personaId' });
    const { id: _id, created_at: _created, updated_at: _updated, ...doc } = current;
    const next = checked({ ...doc, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) });
    this.write(() => this.sql.write.run(this.seconds(), JSON.stringify(next), id));
    return this.get(id)!;
  }

  delete(id: string): boolean {
    return this.write(() => Number(this.sql.remove.run(id).changes) > 0);
  }
}

/** A persona's fields within what a chat's persona holds; its metadata within its cap. */
function checked(doc: PersonaDoc): PersonaDoc {
  if (!doc.name.trim()) fail('INVALID_INPUT', 'Persona name is required', { path: '/input/name' });
  if (doc.name.length > SESSION_LIMITS.name) fail('INPUT_TOO_LARGE', `A persona's name is at most ${SESSION_LIMITS.name} characters.`, { path: '/input/name' });
  if (doc.description.length > SESSION_LIMITS.text) fail('INPUT_TOO_LARGE', `A persona's description is at most ${SESSION_LIMITS.text} characters.`, { path: '/input/description' });
  if (JSON.stringify(doc.metadata).length > PERSONA_LIMITS.maxMetadataChars) fail('INPUT_TOO_LARGE', `A persona's metadata is at most ${PERSONA_LIMITS.maxMetadataChars} characters as JSON.`, { path: '/input/metadata' });
  return doc;
}
