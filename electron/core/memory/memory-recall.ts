// Recall over a saved chat: the messages that share the most words with a query, ranked by BM25 within the chat,
// read a page of rows at a time with the host's thread free between pages (a 10,000-message chat is about twenty
// short steps). The chats' full-text index is not used here: its matches are counted across every chat, so a word
// common in the database costs every chat's messages, and one chat's rows joined to it cost a lookup each. No
// embeddings are computed: the ranking is by words, and says so (no vector distance).
import type { Db } from '../db/chat-db';
import { nextTurn } from '../util/next-turn';

export interface RecalledMessage {
  id: string;
  role: string;
  content: string;
  /** Its place in the chat, from 0. */
  index: number;
  createdAt: number;
  /** Relevance in (0, 1], the best hit 1; 0 for a hit by recency alone. */
  relevance: number;
}

/** Words too common to tell one message from another. */
const STOP = new Set(
  'the and for are but not you your yours with this that these those was were been being have has had does did from they them their there then than what when where which while who whom whose why how all any can could should would will shall may might must into onto over under about above below after before again just also only very more most some such own same too out off our ours she her hers him his its itself myself yourself himself herself themselves ourselves each few both here now one two get got let lets say said like'
    .split(' '),
);
const MAX_TERMS = 24;
/** Rows read and scored per step (about a millisecond or two of the host's thread). */
const PAGE = 150;
const K1 = 1.2;
const B = 0.75;
const ASCII = /^[\x20-\x7e\s]*$/;

/** Lower case, without accents: how words (and names) are compared. */
export const fold = (text: string) => (ASCII.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Any of `phrases` (folded) as whole words, the longest tried first; for matchAll over folded text. */
export function wordPattern(phrases: readonly string[]): RegExp {
  const alternatives = [...phrases].sort((a, b) => b.length - a.length).map(escape);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}
const words = (text: string) => fold(text).match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [];

/** The query's words worth looking for (three characters or more, not the commonest), the longest first. */
export function queryTerms(text: string): string[] {
  const kept = [...new Set(words(text).filter((w) => [...w].length >= 3 && !STOP.has(w)))];
  return kept.sort((a, b) => b.length - a.length).slice(0, MAX_TERMS);
}

type Row = [id: string, role: string, content: string, seq: number, createdAt: number | null, hidden: number | null];

export class MemoryRecall {
  private readonly sql;

  constructor(db: Db) {
    const p = (text: string) => db.prepare(text).raw(true);
    // Hidden messages are read (each message's place counts them) and left out after.
    const columns = "id, role, content, seq, json_extract(doc, '$.createdAt'), json_extract(doc, '$.hidden')";
    this.sql = {
      count: p('SELECT COUNT(*) FROM messages WHERE session_id = ?'),
      after: p(`SELECT ${columns} FROM messages WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`),
      at: p(`SELECT ${columns} FROM messages WHERE session_id = ? AND seq = ?`),
      recent: p(`SELECT ${columns} FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`),
      window: p(`SELECT ${columns} FROM messages WHERE session_id = ? ORDER BY seq LIMIT ? OFFSET ?`),
    };
  }

  /** How many messages the saved chat has (0 for a chat the database does not hold). */
  count(chatId: string): number {
    return (this.sql.count.get(chatId) as [number])[0];
  }

  /**
   * The `limit` messages of the chat that best match `text` by BM25 over its words (the chat's own messages are
   * the collection), none of `exclude`, none hidden and none of its last `skipLast` (those are in the live history
   * already). Empty when the text has no word worth looking for.
   */
  async search(chatId: string, text: string, limit: number, options: { exclude?: ReadonlySet<string>; skipLast?: number } = {}): Promise<RecalledMessage[]> {
    const terms = queryTerms(text);
    const end = this.count(chatId) - (options.skipLast ?? 0);
    if (!terms.length || limit <= 0 || end <= 0) return [];
    const slot = new Map(terms.map((t, i) => [t, i]));
    // One pass over each message for all the terms, as whole words; only the matches make strings (little garbage).
    const pattern = wordPattern(terms);
    const df = new Array<number>(terms.length).fill(0);
    // What a matching message leaves for scoring, in flat arrays of numbers: its text is read again only for the
    // best few, so a scan where every message matches keeps no strings alive (the collector's pauses stay short).
    const hits = { index: [] as number[], seq: [] as number[], length: [] as number[], tf: [] as number[] };
    let docs = 0;
    let totalLength = 0;
    for (let index = 0, seq = Number.MIN_SAFE_INTEGER; index < end; ) {
      const rows = this.sql.after.all(chatId, seq, Math.min(PAGE, end - index)) as Row[];
      if (!rows.length) break;
      for (const row of rows) {
        const at = index++;
        if (row[5] === 1 || options.exclude?.has(row[0])) continue;
        docs++;
        // Length in characters: BM25 needs a length, the same measure for every message.
        totalLength += row[2].length;
        let base = -1;
        for (const match of fold(row[2]).matchAll(pattern)) {
          if (base < 0) {
            base = hits.tf.length;
            for (let i = 0; i < terms.length; i++) hits.tf.push(0);
            hits.index.push(at);
            hits.seq.push(row[3]);
            hits.length.push(row[2].length);
          }
          const i = slot.get(match[0])!;
          if (hits.tf[base + i]!++ === 0) df[i] = df[i]! + 1;
        }
      }
      seq = rows[rows.length - 1]![3];
      if (index < end) await nextTurn();
    }
    // Scored after the scan (BM25 needs every message's count); only the best `limit` are kept, never all sorted.
    const average = totalLength / Math.max(1, docs);
    const idf = df.map((n) => Math.log(1 + (docs - n + 0.5) / (n + 0.5)));
    const best: Array<{ hit: number; score: number }> = [];
    const newer = (a: number, b: number) => hits.index[a]! > hits.index[b]!;
    for (let hit = 0; hit < hits.index.length; hit++) {
      let score = 0;
      for (let i = 0; i < terms.length; i++) {
        const tf = hits.tf[hit * terms.length + i]!;
        if (tf) score += (idf[i]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * hits.length[hit]!) / average));
      }
      // Ties go to the newer message (each hit is newer than the ones before it).
      const last = best[best.length - 1];
      if (best.length >= limit && last && score < last.score) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1]!.score < score || (best[at - 1]!.score === score && newer(hit, best[at - 1]!.hit)))) at--;
      best.splice(at, 0, { hit, score });
      if (best.length > limit) best.pop();
    }
    const top = best[0]?.score ?? 0;
    return best.flatMap(({ hit, score }) => {
      const row = this.sql.at.get(chatId, hits.seq[hit]!) as Row | undefined;
      return row ? [{ ...message(row, hits.index[hit]!), relevance: top > 0 ? Math.max(0.01, score / top) : 1 }] : [];
    });
  }

  /** The last `limit` messages before the last `skipLast`, oldest first, hidden ones left out: recall by recency. */
  recent(chatId: string, limit: number, skipLast = 0): RecalledMessage[] {
    const total = this.count(chatId);
    const rows = this.sql.recent.all(chatId, Math.max(0, limit), Math.max(0, skipLast)) as Row[];
    return shown(rows.reverse(), Math.max(0, total - skipLast - rows.length));
  }

  /** The chat's messages from `offset`, oldest first, hidden ones left out (its chunks, listed). */
  slice(chatId: string, offset: number, limit: number): RecalledMessage[] {
    return shown(this.sql.window.all(chatId, limit, offset) as Row[], offset);
  }
}

const message = (row: Row, index: number): RecalledMessage => ({ id: row[0], role: row[1], content: row[2], index, createdAt: typeof row[4] === 'number' ? row[4] : 0, relevance: 0 });

/** Rows in order from place `first`, less the hidden ones. */
function shown(rows: Row[], first: number): RecalledMessage[] {
  return rows.flatMap((row, i) => (row[5] === 1 ? [] : [message(row, first + i)]));
}
