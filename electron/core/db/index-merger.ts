// Merges the full-text index's segments in slices, a turn of the host's thread each. FTS5 merges on its own inside
// the writes that fill it (automerge), in lumps of 64 pages per level: a step of a long import or delete held the
// host's thread 15–22 ms whenever one fell in it. The database has automerge off (chat-db.ts) and this merges after
// the writes instead, asking for 16 pages a slice (FTS5 never splits a term's list, so a slice may write a little
// more), until nothing is left to merge. What FTS5 still does inside a write is its crisis merge of a level that
// reaches 16 segments: level 0's tiny ones (it writes a segment per statement), and higher levels only if these
// slices fall behind, which a long write prevents by waiting on them between its steps.
import type { Db } from './chat-db';
import type { Logger } from '../ports';

/** The checkpoint thread as a slice sees it (db/checkpointer.ts). */
export interface CheckpointGate {
  readonly running: boolean;
  /** Resolves once no checkpoint runs. */
  settled(): Promise<void>;
}

const NO_CHECKPOINTS: CheckpointGate = { running: false, settled: () => Promise.resolve() };

/** Pages asked of each slice: 1–2 ms of work measured on 2 shared cores. */
export const MERGE_PAGES = 16;

export class IndexMerger {
  private scheduled = false;
  private stopped = false;
  private idle: Array<() => void> = [];
  private readonly merge;
  private readonly changes;

  constructor(
    private readonly db: Db,
    /** A write transaction of the store's connection (its commit reported to the checkpointer). */
    private readonly transaction: (work: () => void) => void,
    private readonly log: Logger,
    /**
     * A slice never writes while a checkpoint runs: SQLite reuses the log from its start only when a checkpoint
     * copied all of it, which never happens while slices keep adding to it.
     */
    private readonly checkpoints: CheckpointGate = NO_CHECKPOINTS,
  ) {
    this.merge = db.prepare(`INSERT INTO messages_text (messages_text, rank) VALUES ('merge', ${MERGE_PAGES})`);
    this.changes = db.prepare('SELECT total_changes()').raw(true);
  }

  /** After a commit that may have added a segment: merging goes on in the turns that follow. */
  committed(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    this.next();
  }

  /** Resolves once nothing is left to merge, or merging stopped (a long write waits on it between its steps). */
  settled(): Promise<void> {
    return this.scheduled ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /** No more slices (the store is closing); what is left is merged after a later commit. */
  stop(): void {
    this.stopped = true;
    this.done();
  }

  private slice(): void {
    if (this.stopped) return;
    let merged = false;
    try {
      // SQLite's documented test: a merge that did any work changes two rows or more.
      const before = this.count();
      this.transaction(() => void this.merge.run());
      merged = this.count() - before >= 2;
    } catch (err) {
      this.log.warn(`sessions: merging the search index stopped (${(err as Error).message}); the next change resumes it`);
    }
    if (merged && !this.stopped) this.next();
    else this.done();
  }

  /** The next slice, a turn from now and once no checkpoint runs. */
  private next(): void {
    setImmediate(() => this.whenNoCheckpoint());
  }

  /**
   * Asked again when a wait ends: whoever was waiting before this slice (a write) may have started another
   * checkpoint by the time its turn comes.
   */
  private whenNoCheckpoint(): void {
    if (this.checkpoints.running && !this.stopped) void this.checkpoints.settled().then(() => this.whenNoCheckpoint());
    else this.slice();
  }

  private count(): number {
    return (this.changes.get() as number[])[0]!;
  }

  private done(): void {
    this.scheduled = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
