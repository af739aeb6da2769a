// Council runs in the chats' database (a row each: its summary for the Runs list, and the run), newest first,
// pruned past a cap; a run as a JSON Lines trace. Runs from before the database (runs/<id>.json) move in at start.
import path from 'node:path';
import { fail } from '../../../shared/errors';
import type { CouncilRun, RunSummary } from '../../../shared/types/council';
import type { Logger } from '../ports';
import { summarizeRun } from '../../../shared/run-summary';
import { CHATS_DB_FILE, transaction, type Db } from '../db/chat-db';
import { migrateJsonFiles, RUNS_JSON_BACKUP_DIR } from '../db/json-files';

export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_RUNS = 500;

export class RunStore {
  private index: RunSummary[] | null = null;
  private writes: Promise<void> = Promise.resolve();
  /** Runs saved recently: readable at once, while their row is still to be written. */
  private readonly recent = new Map<string, CouncilRun>();
  private readonly file: string;

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly log: Logger,
    /** After each commit (the database's checkpoints follow what is written). */
    private readonly committed: () => void = () => undefined,
  ) {
    this.file = path.join(dataDir, CHATS_DB_FILE);
    try {
      this.moveJsonRuns(dataDir);
    } catch (err) {
      // The files stay where they are; the Runs list says what is wrong with the database.
      log.warn(`council runs: runs from before the database were not moved in (${(err as Error).message})`);
    }
  }

  private moveJsonRuns(dataDir: string): void {
    const db = this.db;
    migrateJsonFiles<CouncilRun>({
      dir: path.join(dataDir, 'runs'),
      backup: path.join(dataDir, RUNS_JSON_BACKUP_DIR),
      what: 'council run',
      db,
      log: this.log,
      check: (value) => {
        const run = value as CouncilRun;
        if (typeof run?.id !== 'string' || !RUN_ID_PATTERN.test(run.id) || typeof run.startedAt !== 'number') throw new Error('not a council run');
        // What saving it reads: a file it would fail on stays where it is, and the others still move.
        summarizeRun(run);
        return run;
      },
      idOf: (run) => run.id,
      has: (id) => db.prepare('SELECT 1 FROM runs WHERE id = ?').raw(true).get(id) !== undefined,
      save: (run) => this.insert(run),
    });
  }

  /** The Runs list, read once from the database and kept in step after; a database that cannot be read says so (and is read again next time). */
  private loadIndex(): RunSummary[] {
    if (this.index) return this.index;
    let rows: Array<[string]>;
    try {
      rows = this.db.prepare('SELECT summary FROM runs ORDER BY started_at DESC, id DESC').raw(true).all() as Array<[string]>;
    } catch (err) {
      return fail('RUNS_UNREADABLE', `The council runs in ${this.file} cannot be read (${(err as Error).message}).`, {
        hint: 'The chats database may be damaged: close Council Workbench and restore a backup, or move the file away to start with an empty one.',
      });
    }
    this.index = rows.map(([summary]) => JSON.parse(summary) as RunSummary);
    return this.index;
  }

  /** Writes after the caller has its run (a 300-result run is about 100 KB of JSON), one at a time; listed at once. */
  save(run: CouncilRun): Promise<void> {
    const index = this.loadIndex();
    const at = index.findIndex((r) => r.id === run.id);
    if (at >= 0) index.splice(at, 1);
    index.unshift(summarizeRun(run));
    const pruned = index.splice(MAX_RUNS);
    this.recent.set(run.id, run);
    while (this.recent.size > 50) this.recent.delete(this.recent.keys().next().value!);
    for (const old of pruned) this.recent.delete(old.id);
    this.writes = this.writes.then(() => {
      try {
        transaction(this.db, () => {
          this.insert(run);
          const drop = this.db.prepare('DELETE FROM runs WHERE id = ?');
          for (const old of pruned) drop.run(old.id);
        });
        this.committed();
      } catch (err) {
        this.log.error(`runs: could not save ${run.id}: ${(err as Error).message}`);
      }
    });
    return this.writes;
  }

  flush(): Promise<void> {
    return this.writes;
  }

  /** Every stored run, oldest first (a backup's copy). */
  all(): CouncilRun[] {
    return this.list(MAX_RUNS).map((r) => this.get(r.id)).reverse();
  }

  /** Takes a run away (a restore that failed half-way puts the runs back as they were). */
  async remove(id: string): Promise<void> {
    await this.writes;
    this.recent.delete(id);
    const index = this.loadIndex();
    const at = index.findIndex((r) => r.id === id);
    if (at >= 0) index.splice(at, 1);
    this.db.prepare('DELETE FROM runs WHERE id = ?').run(id);
  }

  list(limit = 100, chatId?: string): RunSummary[] {
    const all = this.loadIndex();
    return (chatId === undefined ? all : all.filter((r) => r.chatId === chatId)).slice(0, limit);
  }

  get(id: string): CouncilRun {
    if (!RUN_ID_PATTERN.test(id)) fail('INVALID_INPUT', 'Not a run id.', { path: '/runId' });
    const cached = this.recent.get(id);
    if (cached) return structuredClone(cached);
    const row = this.db.prepare('SELECT doc FROM runs WHERE id = ?').raw(true).get(id) as [string] | undefined;
    return row ? (JSON.parse(row[0]) as CouncilRun) : fail('NOT_FOUND', `No run "${id}".`, { path: '/runId' });
  }

  /** Loads a run if it exists (history, regen reuse), without throwing. */
  tryGet(id: string): CouncilRun | null {
    try {
      return this.get(id);
    } catch {
      return null;
    }
  }

  private insert(run: CouncilRun): void {
    this.db
      .prepare('INSERT INTO runs (id, started_at, chat_id, summary, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET started_at = excluded.started_at, chat_id = excluded.chat_id, summary = excluded.summary, doc = excluded.doc')
      .run(run.id, run.startedAt, run.chatId ?? null, JSON.stringify(summarizeRun(run)), JSON.stringify(run));
  }
}

/** One JSON object per line: the run, each roll, each tool's start and end (timeline order), the block. */
export function runTrace(run: CouncilRun): string {
  const lines: unknown[] = [
    { type: 'run.started', runId: run.id, at: run.startedAt, seed: run.seed, mode: run.mode, timeoutMs: run.timeoutMs, retryOf: run.retryOf, chatId: run.chatId },
  ];
  for (const roll of run.rolls) lines.push({ type: 'roll', ...roll });
  if (run.fallbackUsed) lines.push({ type: 'fallback', memberId: run.rolls.find((r) => r.reason === 'fallback')?.memberId ?? null });
  const events: Array<{ t: number; line: Record<string, unknown> }> = [];
  for (const r of run.results) {
    events.push({ t: r.startedAt, line: { type: 'tool.started', t: r.startedAt, memberId: r.memberId, toolName: r.toolName } });
    events.push({ t: r.startedAt + r.durationMs, line: { type: 'tool.finished', t: r.startedAt + r.durationMs, ...r } });
  }
  events.sort((a, b) => a.t - b.t);
  for (const e of events) lines.push(e.line);
  lines.push({ type: 'run.finished', runId: run.id, status: run.status, totalDurationMs: run.totalDurationMs, counts: run.counts, note: run.note, deliberationBlock: run.deliberationBlock, historyBlock: run.historyBlock });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
