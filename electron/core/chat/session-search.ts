// Search across sessions (or within one): titles, character names and message texts, any case and accents; each
// hit carries a snippet around the first match in its message, newest sessions first, at most `limit` hits.
import type { ChatSession } from '../../../shared/types/chat';

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

export function searchSessions(sessions: ChatSession[], query: string, limit: number): { hits: SearchHit[]; more: boolean } {
  const needle = fold(query.trim());
  const hits: SearchHit[] = [];
  if (!needle) return { hits, more: false };
  for (const s of sessions) {
    const base = { sessionId: s.id, title: s.title, characterName: s.character.name };
    const named = [s.title, s.character.name].find((t) => fold(t).includes(needle));
    const found: SearchHit[] = named === undefined ? [] : [{ ...base, messageId: null, index: null, role: null, ...snippet(named, fold(named).indexOf(needle), needle.length) }];
    for (let i = 0; i < s.messages.length; i++) {
      const m = s.messages[i]!;
      const at = fold(m.content).indexOf(needle);
      if (at >= 0) found.push({ ...base, messageId: m.id, index: i, role: m.role, ...snippet(m.content, at, needle.length) });
      if (hits.length + found.length > limit) break;
    }
    hits.push(...found);
    if (hits.length > limit) return { hits: hits.slice(0, limit), more: true };
  }
  return { hits, more: false };
}
