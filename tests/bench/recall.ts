// Memory recall (spindle.memories.cortex.query and chatMemory.get) on the 10,000-message chat among 200 chats, beside
// a 10-message chat, and beside the same ranking asked of the database's full-text index in one statement (what it
// was first written as): the time each takes, and the longest the host's thread is held.
import { SessionStore } from '../../electron/core/chat/session-store';
import { MemoryCortex } from '../../electron/core/memory/memory-cortex';
import { queryTerms } from '../../electron/core/memory/memory-recall';
import { cleanupTempDirs } from '../helpers/temp-dir';
import { folder, holds, session } from './sessions';
import { median, round, table } from './stats';

const ROUNDS = 7;
/** Words every message of the benchmark's chats holds, and one a single message of the long chat holds. */
const COMMON = 'the harbor lights and the storm';
const RARE = 'turn 9999 lighthouse';

async function measure(work: () => Promise<unknown>): Promise<{ total: number; turn: number }> {
  await work();
  const totals: number[] = [];
  const turns: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const held = await holds(work);
    totals.push(performance.now() - started);
    turns.push(held.at(-1)!);
  }
  return { total: median(totals), turn: median(turns) };
}

export async function recallBenchmark(opts: { json: boolean }): Promise<unknown> {
  try {
    const dataDir = await folder([session('long', 10_000, 'The long one'), session('small', 10), ...Array.from({ length: 198 }, (_, i) => session(`c${i}`, 151))]);
    const store = new SessionStore({ dataDir });
    const cortex = new MemoryCortex({ db: store.db, clock: { now: () => Date.now() } });
    // The same ranking in one statement over the full-text index (BM25 across every chat's matches, then this chat's).
    const fts = store.db.prepare(
      'SELECT m.id, bm25(messages_text) AS r FROM messages_text JOIN messages m ON m.rowid = messages_text.rowid WHERE messages_text MATCH ? AND m.session_id = ? ORDER BY r LIMIT 10',
    );
    const viaIndex = (text: string, id: string) => async () => fts.all(queryTerms(text).map((t) => `"${t}"`).join(' OR '), id);
    const rows: Array<Record<string, string | number>> = [];
    const row = (what: string, value: { total: number; turn: number }, baseline: { total: number; turn: number }, baselineName: string) =>
      rows.push({
        measure: what,
        value: `${round(value.total, 2)} ms, turn ${round(value.turn, 2)} ms`,
        baseline: `${round(baseline.total, 2)} ms, turn ${round(baseline.turn, 2)} ms (${baselineName})`,
        target: "the host's thread held a few ms at most",
        met: value.turn <= 5 ? 'yes' : 'no',
      });
    for (const [words, text] of [
      ['words every message holds', COMMON],
      ['a rare word', RARE],
    ] as const) {
      const long = await measure(() => cortex.query({ chatId: 'long', queryText: text, topK: 10 }));
      row(`cortex.query, ${words}: the 10,000-message chat`, long, await measure(() => cortex.query({ chatId: 'small', queryText: text, topK: 10 })), 'the 10-message chat');
      row(`cortex.query, ${words}: the 10,000-message chat, beside the full-text index`, long, await measure(viaIndex(text, 'long')), 'the index, one statement');
      row(`cortex.query, ${words}: the 10-message chat, beside the full-text index`, await measure(() => cortex.query({ chatId: 'small', queryText: text, topK: 10 })), await measure(viaIndex(text, 'small')), 'the index, one statement');
    }
    row('chatMemory.get (the last six messages as the query): the 10,000-message chat', await measure(() => cortex.chatMemory('long')), await measure(() => cortex.chatMemory('small')), 'the 10-message chat');
    await store.close();
    if (!opts.json) console.log(table(rows));
    return { rounds: ROUNDS, rows };
  } finally {
    cleanupTempDirs();
  }
}
