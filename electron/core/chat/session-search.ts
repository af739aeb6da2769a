// Search across sessions (or within one): titles, character names and message texts, any case and accents; each
// hit carries a snippet around the first match in its message, newest sessions first, at most `limit` hits. The
// database's trigram index finds the messages; only those are read.
import { nextTurn } from '../util/next-turn';
import type { SessionStore } from './session-store';

export interface SearchHit {
  sessionId: string;
  title: string;
  characterName: string;
  /** null: the title or character name matched. */
  messageId: string | null;
  index: number | null;
  role: 'user' | 'assistant' | null;
  before: string;
  match: string;
  after: string;
}

const SNIPPET = 60;
// Printable ASCII and the usual whitespace: lower case alone folds it, keeping every index.
const ASCII = /^[\t\n\r\x20-\x7e]*$/;

/** Lower case without accents, each character kept in place (so an index in it is an index in the text). */
function fold(text: string): string {
  // Most text is ASCII, where lower case alone is enough (and length-preserving).
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    // Keep lengths aligned: a character whose folded form is not one code unit long is kept as it was.
    out += base.length === ch.length ? base : ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch;
  }
  return out;
}

function snippet(text: string, at: number, length: number): Pick<SearchHit, 'before' | 'match' | 'after'> {
  const start = Math.max(0, at - SNIPPET);
  const end = Math.min(text.length, at + length + SNIPPET);
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return { before: (start > 0 ? '…' : '') + flat(text.slice(start, at)), match: text.slice(at, at + length), after: flat(text.slice(at + length, end)) + (end < text.length ? '…' : '') };
}

/** The FTS5 phrase for a substring (the trigram index matches any three characters or more, any case and accents). */
const phrase = (needle: string) => `"${needle.replace(/"/g, '""')}"`;

/** Rows read per step of a scan for a needle too short for the index (about a millisecond of folding). */
const SCAN_STEP = 500;

/**
 * The messages holding a needle under 3 characters (the trigram index finds none that short): every message is
 * folded and looked in, a step of rows at a time with the host's thread free between steps.
 */
async function scanFor(db: SessionStore['db'], needle: string): Promise<Array<[number, string, number]>> {
  const step = db.prepare('SELECT rowid, session_id, seq, content FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?').raw(true);
  const found: Array<[number, string, number]> = [];
  for (let after = 0; ; ) {
    const rows = step.all(after, SCAN_STEP) as Array<[number, string, number, string]>;
    for (const [rowid, session, seq, content] of rows) if (fold(content).includes(needle)) found.push([rowid, session, seq]);
    if (rows.length < SCAN_STEP) return found;
    after = rows[rows.length - 1]![0];
    await nextTurn();
  }
}

export async function searchSessions(store: Pick<SessionStore, 'db' | 'summaries'>, query: string, limit: number, sessionId?: string): Promise<{ hits: SearchHit[]; more: boolean }> {
  const { db } = store;
  const typed = query.trim();
  const needle = fold(typed);
  const hits: SearchHit[] = [];
  if (!needle) return { hits, more: false };
  const sessions = store.summaries().filter((s) => sessionId === undefined || s.id === sessionId);
  const order = new Map(sessions.map((s, i) => [s.id, i]));
  // The messages that may match, in the order hits are listed: the index finds them, the fold below confirms each.
  const candidates =
    // The index folds case and Latin accents itself, and not every mark the fold drops (й, ё, ή): it is asked with
    // the text as typed, and the fold below confirms.
    [...typed].length >= 3
      ? (db.prepare('SELECT m.rowid, m.session_id, m.seq FROM messages_text JOIN messages m ON m.rowid = messages_text.rowid WHERE messages_text MATCH ?').raw(true).all(phrase(typed)) as Array<[number, string, number]>)
      : await scanFor(db, needle);
  const bySession = new Map<string, Array<[number, number]>>();
  for (const [rowid, session, seq] of candidates) {
    if (!order.has(session)) continue;
    const list = bySession.get(session) ?? bySession.set(session, []).get(session)!;
    list.push([seq, rowid]);
  }
  const message = db.prepare('SELECT id, role, content FROM messages WHERE rowid = ?').raw(true);
  const position = db.prepare('SELECT count(*) FROM messages WHERE session_id = ? AND seq < ?').raw(true);
  for (const s of sessions) {
    const base = { sessionId: s.id, title: s.title, characterName: s.characterName };
    const named = [s.title, s.characterName].find((t) => fold(t).includes(needle));
    if (named !== undefined) hits.push({ ...base, messageId: null, index: null, role: null, ...snippet(named, fold(named).indexOf(needle), needle.length) });
    for (const [seq, rowid] of (bySession.get(s.id) ?? []).sort((a, b) => a[0] - b[0])) {
      if (hits.length > limit) break;
      // A scan's row may have gone (deleted between its steps): confirmed against what is saved now.
      const row = message.get(rowid) as [string, 'user' | 'assistant', string] | undefined;
      if (!row) continue;
      const [id, role, content] = row;
      const at = fold(content).indexOf(needle);
      if (at < 0) continue;
      const index = (position.get(s.id, seq) as [number])[0];
      hits.push({ ...base, messageId: id, index, role, ...snippet(content, at, needle.length) });
    }
    if (hits.length > limit) return { hits: hits.slice(0, limit), more: true };
  }
  return { hits, more: false };
}
