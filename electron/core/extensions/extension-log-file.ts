// Extension logs on disk, so what an extension did in an earlier process (a CLI `chat` turn, the app last
// week) can still be read: `<data-dir>/logs/extensions/<id>.log`, one JSON line per entry with the run
// (one host's life) that wrote it, rotated to `<id>.log.1` past a size cap, so each extension keeps at
// most twice that. Writes are appended in batches off the caller's path, at most one batch per FLUSH_MS (a
// busy extension's call lines cost a few file operations a second, not a few per call); several processes on
// one data folder append to the same file, and a reader tells their lines from its own by the run.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sanitizeLogLine, type ExtensionLogEntry } from './extension-log';

export const LOG_FILE_MAX_BYTES = 512 * 1024;
/** How long lines wait to be written together (the host flushes what is left before it exits). */
export const FLUSH_MS = 100;

interface Line {
  at: number;
  level: ExtensionLogEntry['level'];
  source: ExtensionLogEntry['source'];
  text: string;
  run: string;
}

function parse(text: string): Line[] {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    try {
      const line = JSON.parse(raw) as Line;
      if (typeof line.at === 'number' && typeof line.text === 'string' && typeof line.run === 'string') lines.push(line);
    } catch {
      // A line cut short by a kill mid-write: skipped.
    }
  }
  return lines;
}

export class ExtensionLogFiles {
  private readonly queued = new Map<string, string[]>();
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private folder: Promise<unknown> | null = null;
  /** This host's run: its own lines are read from memory, not from the file. */
  private readonly run = randomUUID();

  constructor(
    private readonly dir: string,
    private readonly maxBytes = LOG_FILE_MAX_BYTES,
  ) {}

  private file(id: string): string {
    return path.join(this.dir, `${id}.log`);
  }

  append(id: string, entry: ExtensionLogEntry): void {
    const line: Line = { at: entry.at, level: entry.level, source: entry.source, text: entry.text, run: this.run };
    if (this.closed) return this.appendNow(id, `${JSON.stringify(line)}\n`);
    const queue = this.queued.get(id) ?? [];
    queue.push(`${JSON.stringify(line)}\n`);
    this.queued.set(id, queue);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      void this.flush();
    }, FLUSH_MS).unref();
  }

  /**
   * Writes what is queued and stops batching: a line that comes after (a worker's last words as the host closes) is
   * written at once, into the folder as it is, so nothing writes into a data folder once its host has gone.
   */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private appendNow(id: string, text: string): void {
    try {
      fs.appendFileSync(this.file(id), text, { mode: 0o600 });
    } catch {
      // The folder is gone (or the disk full): the host has closed, so the line goes nowhere.
    }
  }

  /** Writes what is queued; resolves when it is on disk (the host awaits it before exiting). */
  flush(): Promise<void> {
    const batches = [...this.queued];
    this.queued.clear();
    this.flushing = this.flushing.then(async () => {
      if (batches.length === 0) return;
      // Made once per host; a folder removed under a running host is made again at the next failed write.
      await (this.folder ??= fs.promises.mkdir(this.dir, { recursive: true }));
      for (const [id, lines] of batches) await this.write(id, lines.join(''));
    });
    return this.flushing.catch(() => undefined);
  }

  private async write(id: string, text: string): Promise<void> {
    const file = this.file(id);
    try {
      const size = (await fs.promises.stat(file).catch(() => null))?.size ?? 0;
      if (size + text.length > this.maxBytes) await fs.promises.rename(file, `${file}.1`).catch(() => undefined);
      await fs.promises.appendFile(file, text, { mode: 0o600 });
    } catch {
      // A log that cannot be written (a full disk) never stops the extension.
      this.folder = null;
    }
  }

  /** Entries other runs wrote (an earlier start, a CLI beside the app), oldest first. */
  async others(id: string): Promise<ExtensionLogEntry[]> {
    const file = this.file(id);
    const texts = await Promise.all([`${file}.1`, file].map((f) => fs.promises.readFile(f, 'utf8').catch(() => '')));
    return texts
      .flatMap(parse)
      .filter((line) => line.run !== this.run)
      .map((line) => ({ seq: 0, at: line.at, level: line.level, source: line.source, text: sanitizeLogLine(line.text) }));
  }

  async remove(id: string): Promise<void> {
    await this.flush();
    for (const f of [this.file(id), `${this.file(id)}.1`]) await fs.promises.rm(f, { force: true });
  }
}
