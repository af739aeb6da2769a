// Safe mode: an extension that failed to start three times in a row (its own crash, or the host's) starts disabled.
//
// A host that dies while an extension starts cannot record anything afterwards, so a mark is written
// before every start and cleared once the worker runs (or stops on purpose). A mark found when the
// host starts is a start the host did not survive. Everything lives in one small file,
// <data-dir>/extension-starts.json, holding only extensions with a mark or a failure count.
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../ports';

/** Failed starts in a row after which an extension starts disabled. */
export const SAFE_MODE_AFTER = 3;
export const START_RECORD_FILE = 'extension-starts.json';

interface StartState {
  /** Starts in a row that ended before the worker ran. */
  failed: number;
  /** A start is under way (or the host died during it). */
  starting?: true;
}

type Records = Record<string, StartState>;

/** Without a prototype: an extension id such as `constructor` or `__proto__` is just a key. */
function emptyRecords(): Records {
  return Object.create(null) as Records;
}

export class StartRecords {
  private readonly file: string;

  constructor(
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.file = path.join(dataDir, START_RECORD_FILE);
  }

  /** At host start: each mark left behind is a start the host did not survive. Returns those ids. */
  recoverInterrupted(): string[] {
    const records = this.read();
    const interrupted = Object.keys(records).filter((id) => records[id]!.starting);
    if (interrupted.length === 0) return [];
    for (const id of interrupted) records[id] = { failed: records[id]!.failed + 1 };
    this.write(records);
    return interrupted;
  }

  /** Failed starts in a row so far. */
  failures(id: string): number {
    return this.read()[id]?.failed ?? 0;
  }

  inSafeMode(id: string): boolean {
    return this.failures(id) >= SAFE_MODE_AFTER;
  }

  /** Written to disk before the worker is launched: if the host dies now, the next start knows. */
  beforeStart(id: string): void {
    this.update(id, (state) => ({ failed: state?.failed ?? 0, starting: true }));
  }

  /** The worker runs: the failures in a row are over. */
  started(id: string): void {
    this.update(id, () => undefined);
  }

  /** The worker ended before it ran, and nobody stopped it. */
  failedStart(id: string): void {
    this.update(id, (state) => ({ failed: (state?.failed ?? 0) + 1 }));
  }

  /** Stopped on purpose while starting: neither a success nor a failure. */
  startAbandoned(id: string): void {
    this.update(id, (state) => (state && state.failed > 0 ? { failed: state.failed } : undefined));
  }

  /** The user enabled or removed it: a fresh start. */
  clear(id: string): void {
    this.update(id, () => undefined);
  }

  private update(id: string, next: (state: StartState | undefined) => StartState | undefined): void {
    const records = this.read();
    const before = records[id];
    const after = next(before);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    if (after) records[id] = after;
    else delete records[id];
    this.write(records);
  }

  private read(): Records {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return emptyRecords();
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      const records = emptyRecords();
      if (typeof parsed !== 'object' || parsed === null) return records;
      for (const [id, state] of Object.entries(parsed)) {
        const failed = (state as { failed?: unknown }).failed;
        if (typeof failed !== 'number' || !Number.isInteger(failed) || failed < 0) continue;
        records[id] = (state as { starting?: unknown }).starting === true ? { failed, starting: true } : { failed };
      }
      return records;
    } catch {
      this.log.warn(`extensions: ${this.file} is not readable JSON; starting with no record of failed starts`);
      return emptyRecords();
    }
  }

  private write(records: Records): void {
    // A rename is atomic, and what is written survives the death of this process (the case that matters here).
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, `${JSON.stringify(records)}\n`);
      fs.renameSync(temp, this.file);
    } catch (err) {
      fs.rmSync(temp, { force: true });
      this.log.warn(`extensions: could not record an extension start in ${this.file}: ${(err as Error).message}`);
    }
  }
}
