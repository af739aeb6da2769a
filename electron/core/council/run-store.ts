// Council runs on disk: <dataDir>/runs/<runId>.json, newest first, pruned past a cap; a run as a JSON Lines trace.
import fs from 'node:fs';
import { writeFileAtomic } from '../util/atomic-write';
import path from 'node:path';
import { fail } from '../../../shared/errors';
import type { CouncilRun, RunSummary } from '../../../shared/types/council';
import type { Logger } from '../ports';
import { summarizeRun } from '../../../shared/run-summary';

export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;
const MAX_RUNS = 500;

export class RunStore {
  readonly dir: string;
  private index: RunSummary[] | null = null;
  private writes: Promise<void> = Promise.resolve();
  /** Runs saved recently: readable at once, while their file is still being written. */
  private readonly recent = new Map<string, CouncilRun>();

  constructor(dataDir: string, private readonly log: Logger) {
    this.dir = path.join(dataDir, 'runs');
  }

  private loadIndex(): RunSummary[] {
    if (this.index) return this.index;
    const out: RunSummary[] = [];
    for (const name of this.readNames()) {
      if (!name.endsWith('.json')) continue;
      try {
        out.push(summarizeRun(JSON.parse(fs.readFileSync(path.join(this.dir, name), 'utf8')) as CouncilRun));
      } catch (err) {
        this.log.warn(`runs: ${name} unreadable: ${(err as Error).message}`);
      }
    }
    this.index = out.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
    return this.index;
  }

  /** The folder's entries (none before the first run); a folder that cannot be read is an error the Runs list shows (it is read again next time). */
  private readNames(): string[] {
    try {
      return fs.readdirSync(this.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
      if (code === 'ENOENT') return [];
      return fail('RUNS_UNREADABLE', `The council runs folder ${this.dir} cannot be read (${code}).`, {
        hint: code === 'ENOTDIR' ? 'A file stands where the folder goes: move it away, and runs are listed and saved again.' : 'Check that it is a folder you can read and write.',
      });
    }
  }

  /** Writes in the background, one at a time; the run is listed at once. */
  save(run: CouncilRun): Promise<void> {
    const index = this.loadIndex();
    const at = index.findIndex((r) => r.id === run.id);
    if (at >= 0) index.splice(at, 1);
    index.unshift(summarizeRun(run));
    const pruned = index.splice(MAX_RUNS);
    this.recent.set(run.id, run);
    while (this.recent.size > 50) this.recent.delete(this.recent.keys().next().value!);
    for (const old of pruned) this.recent.delete(old.id);
    this.writes = this.writes.then(async () => {
      try {
        await fs.promises.mkdir(this.dir, { recursive: true });
        // Serialized here, after the first await: the caller already has its run (a 300-result run is about 100 KB of JSON).
        await writeFileAtomic(this.file(run.id), JSON.stringify(run));
        for (const old of pruned) await fs.promises.rm(this.file(old.id), { force: true });
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

  /** Takes a run away (a restore that failed half-way puts the folder back as it was). */
  async remove(id: string): Promise<void> {
    await this.writes;
    this.recent.delete(id);
    const index = this.loadIndex();
    const at = index.findIndex((r) => r.id === id);
    if (at >= 0) index.splice(at, 1);
    await fs.promises.rm(this.file(id), { force: true });
  }

  list(limit = 100, chatId?: string): RunSummary[] {
    const all = this.loadIndex();
    return (chatId === undefined ? all : all.filter((r) => r.chatId === chatId)).slice(0, limit);
  }

  get(id: string): CouncilRun {
    if (!RUN_ID_PATTERN.test(id)) fail('INVALID_INPUT', 'Not a run id.', { path: '/runId' });
    const cached = this.recent.get(id);
    if (cached) return structuredClone(cached);
    try {
      return JSON.parse(fs.readFileSync(this.file(id), 'utf8')) as CouncilRun;
    } catch {
      return fail('NOT_FOUND', `No run "${id}".`, { path: '/runId' });
    }
  }

  /** Loads a run if it exists (history, regen reuse), without throwing. */
  tryGet(id: string): CouncilRun | null {
    try {
      return this.get(id);
    } catch {
      return null;
    }
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
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
