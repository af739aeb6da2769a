// Safe mode: an extension whose start failed three times in a row — its worker died before it was
// ready, or the host itself died while it was starting — is held disabled at the next host start.
//
// A marker is on disk before a worker is launched and cleared once it is ready, so a host that dies
// mid-start finds the marker on its next start and counts it. One small file, written atomically.
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../ports';
import { writeFileAtomicSync } from '../../util/atomic-write';

export const SAFE_MODE_FILE = 'extension-starts.json';
/** Failed starts in a row that hold an extension disabled. */
export const SAFE_MODE_LIMIT = 3;
/**
 * Clearing a marker waits this long so that workers becoming ready together cost one write, not a synchronous
 * write and fsync each on the host's thread while the others start. A host that dies in that window counts one
 * start too many, which takes three in a row to matter.
 */
const CLEAR_DELAY_MS = 250;

interface StartRecord {
  starting: boolean;
  failures: number;
}

export class SafeMode {
  private readonly file: string;
  private readonly records = new Map<string, StartRecord>();
  private pendingSave: ReturnType<typeof setTimeout> | null = null;
  /** Extensions held back at this start, with how many starts they failed. */
  readonly held = new Map<string, number>();

  constructor(dataDir: string, private readonly log: Logger) {
    this.file = path.join(dataDir, SAFE_MODE_FILE);
    this.load();
  }

  /** Whether the extension failed too many starts in a row to be started now. */
  holds(id: string): boolean {
    return (this.records.get(id)?.failures ?? 0) >= SAFE_MODE_LIMIT;
  }

  /** Records that these workers are about to start (written before any is launched). */
  starting(ids: string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.records.set(id, { starting: true, failures: this.records.get(id)?.failures ?? 0 });
    this.save();
  }

  /** Starts recorded by starting() that never happened (the host stopped before launching them). */
  notStarting(ids: string[]): void {
    let changed = false;
    for (const id of ids) {
      const record = this.records.get(id);
      if (!record?.starting) continue;
      if (record.failures === 0) this.records.delete(id);
      else this.records.set(id, { starting: false, failures: record.failures });
      changed = true;
    }
    if (changed) this.save();
  }

  ready(id: string): void {
    const record = this.records.get(id);
    if (!record || (!record.starting && record.failures === 0)) return;
    this.records.delete(id);
    this.pendingSave ??= setTimeout(() => this.save(), CLEAR_DELAY_MS).unref();
  }

  /** Writes what waits (the host is stopping). */
  flush(): void {
    if (this.pendingSave) this.save();
  }

  /** The worker died before it was ready. Returns the failures in a row. */
  failedToStart(id: string): number {
    const failures = (this.records.get(id)?.failures ?? 0) + 1;
    this.records.set(id, { starting: false, failures });
    this.save();
    return failures;
  }

  /** A person enabled or restarted it: a fresh count. */
  reset(id: string): void {
    if (!this.records.delete(id)) return;
    this.held.delete(id);
    this.save();
  }

  private load(): void {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch {
      return;
    }
    if (typeof raw !== 'object' || raw === null) return;
    let crashedHost = false;
    for (const [id, value] of Object.entries(raw as Record<string, unknown>)) {
      const record = value as Partial<StartRecord>;
      if (typeof record !== 'object' || record === null || typeof record.failures !== 'number') continue;
      // Still starting when the last host ended: that host died during this extension's start.
      const failures = Math.max(0, Math.floor(record.failures)) + (record.starting === true ? 1 : 0);
      crashedHost ||= record.starting === true;
      this.records.set(id, { starting: false, failures });
      if (failures >= SAFE_MODE_LIMIT) this.held.set(id, failures);
    }
    if (crashedHost) this.save();
  }

  private save(): void {
    if (this.pendingSave) clearTimeout(this.pendingSave);
    this.pendingSave = null;
    const doc: Record<string, StartRecord> = Object.create(null) as Record<string, StartRecord>;
    for (const [id, record] of this.records) doc[id] = record;
    try {
      writeFileAtomicSync(this.file, `${JSON.stringify(doc, null, 2)}\n`);
    } catch (err) {
      this.log.warn(`extensions: could not write ${SAFE_MODE_FILE}`, (err as Error).message);
    }
  }
}
