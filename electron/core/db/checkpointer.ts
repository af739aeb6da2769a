// Copies the write-ahead log back into the database from a thread of its own. SQLite does it on the writer's
// thread by default, and its fsyncs held the host's thread for 20–30 ms every few hundred messages; from here a
// change costs the host only its own commit. If the thread cannot run, SQLite's own checkpoints are turned back on.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../ports';
import type { Db } from './chat-db';

/** Log size past which a checkpoint is asked for (SQLite's own default is 1,000 pages, ~4 MB). */
const WAL_LIMIT = 4 * 1024 * 1024;

// CommonJS, evaluated in the worker: it opens its own connection to the same file and checkpoints when told.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.file);
db.exec('PRAGMA busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); process.exit(0); }
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); parentPort.postMessage({ ok: true }); }
  catch (err) { parentPort.postMessage({ ok: false, message: String(err && err.message) }); }
});
`;

export class Checkpointer {
  /** Started at the first checkpoint: a store that only reads (the CLI's) never starts one. */
  private worker: Worker | null = null;
  private failed = false;
  private busy = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly db: Db,
    private readonly file: string,
    private readonly log: Logger,
  ) {
    // Once checkpointed, the log is reused from its start but keeps its size on disk: truncated when it is reset,
    // its size again says how much waits to be copied.
    db.exec(`PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = ${WAL_LIMIT / 4}`);
  }

  /** After a commit: asks for a checkpoint once the log has grown past its limit and none is running. */
  committed(): void {
    if (this.failed || this.busy) return;
    let size = 0;
    try {
      size = fs.statSync(`${this.file}-wal`).size;
    } catch {
      return;
    }
    if (size < WAL_LIMIT) return;
    const worker = this.worker ?? this.start();
    if (!worker) return;
    this.busy = true;
    // Held while it works (a process exits after a checkpoint it began, never in the middle of waiting for it).
    worker.ref();
    worker.postMessage('checkpoint');
  }

  /** A checkpoint is being made. */
  get running(): boolean {
    return this.busy;
  }

  /** Resolves once no checkpoint is running (the store's close, tests). */
  settled(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  /** Ends the thread; null when none was started, else a promise for its end (its connection closed). */
  close(): Promise<void> | null {
    const worker = this.worker;
    this.worker = null;
    this.failed = true;
    if (!worker) return null;
    return new Promise((resolve) => {
      worker.once('exit', () => resolve());
      worker.ref();
      worker.postMessage('close');
    });
  }

  private start(): Worker | null {
    try {
      const worker = new Worker(SOURCE, { eval: true, workerData: { file: this.file, libsql: createRequire(import.meta.url).resolve('libsql') } });
      worker.unref();
      worker.on('message', (answer: { ok: boolean; message?: string }) => {
        this.done();
        if (!answer.ok) this.log.warn(`sessions: a checkpoint failed (${answer.message}); the next commit asks again`);
      });
      worker.on('error', (err) => this.fallBack(err));
      // Gone with no error (killed from outside): waiting on it would never end, so SQLite takes over as on an error.
      worker.on('exit', (code) => {
        if (this.worker === worker) this.fallBack(new Error(`it exited with code ${code}`));
        else if (this.busy) this.done();
      });
      this.worker = worker;
      return worker;
    } catch (err) {
      this.fallBack(err as Error);
      return null;
    }
  }

  private done(): void {
    this.busy = false;
    this.worker?.unref();
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private fallBack(err: Error): void {
    this.log.warn(`sessions: the checkpoint thread stopped (${err.message}); SQLite checkpoints on the host's thread again`);
    this.worker = null;
    this.failed = true;
    this.done();
    try {
      this.db.exec('PRAGMA wal_autocheckpoint = 1000');
    } catch {
      // The database is closed already: nothing to checkpoint.
    }
  }
}
