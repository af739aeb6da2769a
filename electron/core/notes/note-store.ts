// The notes folder on disk: names → files inside the root (symlinks that lead out refused), per-note write queues, atomic writes.
import { writeFileAtomic } from '../util/atomic-write';
import fs from 'node:fs';
import path from 'node:path';
import { listFiles } from '../util/list-files';
import { HostFailure, type HostError } from '../../../shared/errors';
import { parseNoteName, type NoteName } from './note-names';

export interface ResolvedNote extends NoteName {
  file: string;
}

const MAX_NOTE_BYTES = 2 * 1024 * 1024;
const MAX_LISTED = 5000;

function failWith(error: HostError): never {
  throw new HostFailure(error);
}

export class NoteStore {
  /** Per-file tail of the write queue: writes to one note run one at a time, in arrival order. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  private async realRoot(): Promise<string> {
    await fs.promises.mkdir(this.root, { recursive: true });
    return fs.promises.realpath(this.root);
  }

  /**
   * Name → file. The name rules already keep `..` and absolute paths out; this also follows symlinks:
   * the deepest existing part of the path must resolve inside the real root.
   */
  async resolve(raw: unknown, field = '/page', options: { folder?: boolean } = {}): Promise<ResolvedNote> {
    const parsed = parseNoteName(raw, field, options);
    if (!parsed.ok) failWith(parsed.error);
    const root = await this.realRoot();
    const file = path.join(root, ...parsed.value.segments);
    let probe = file;
    for (;;) {
      let real: string | null = null;
      try {
        real = await fs.promises.realpath(probe);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // A dangling symlink has no realpath; refuse it rather than write through it.
        const isLink = await fs.promises.lstat(probe).then((s) => s.isSymbolicLink(), () => false);
        if (isLink) this.outside(parsed.value.name, field);
      }
      if (real !== null) {
        if (real !== root && !real.startsWith(root + path.sep)) this.outside(parsed.value.name, field);
        break;
      }
      const parent = path.dirname(probe);
      if (parent === probe || probe === root) break;
      probe = parent;
    }
    return { ...parsed.value, file };
  }

  private outside(name: string, field: string): never {
    return failWith({
      code: 'PATH_NOT_ALLOWED',
      message: `"${name.slice(0, 200)}" leads outside the notes folder (through a symbolic link).`,
      path: field,
      hint: 'Only notes inside the notes folder can be read or written.',
    });
  }

  async exists(note: ResolvedNote): Promise<boolean> {
    return fs.promises.stat(note.file).then((s) => s.isFile(), () => false);
  }

  /** The note's text, or null when it does not exist. */
  async read(note: ResolvedNote): Promise<string | null> {
    let stat;
    try {
      stat = await fs.promises.stat(note.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (!stat.isFile()) failWith({ code: 'NOTE_NOT_FOUND', message: `"${note.name}" is a folder, not a note.` });
    if (stat.size > MAX_NOTE_BYTES) failWith({ code: 'RESULT_TOO_LARGE', message: `"${note.name}" is larger than ${MAX_NOTE_BYTES} bytes.` });
    return fs.promises.readFile(note.file, 'utf8');
  }

  async readExisting(note: ResolvedNote): Promise<string> {
    const text = await this.read(note);
    if (text === null) failWith({ code: 'NOTE_NOT_FOUND', message: `There is no note "${note.name}".`, hint: 'List pages with list_pages.' });
    return text;
  }

  async stat(note: ResolvedNote): Promise<fs.Stats> {
    return fs.promises.stat(note.file);
  }

  /** Runs `task` after every earlier task queued for the same keys (sorted, so two-note tasks cannot deadlock). */
  async serialized<T>(keys: string[], task: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)].sort();
    const previous = unique.map((k) => this.queues.get(k) ?? Promise.resolve());
    const run = Promise.allSettled(previous).then(task);
    const tail = run.catch(() => undefined);
    for (const k of unique) this.queues.set(k, tail);
    void tail.then(() => {
      for (const k of unique) if (this.queues.get(k) === tail) this.queues.delete(k);
    });
    return run;
  }

  /**
   * Read-modify-write of one note under its queue: `change` gets the current text (null when absent)
   * and returns the new text; the file is replaced atomically (temp file, fsync, rename).
   */
  async update(note: ResolvedNote, change: (current: string | null) => string): Promise<{ before: string | null; after: string }> {
    return this.serialized([note.file], async () => {
      const before = await this.read(note);
      const after = change(before);
      if (Buffer.byteLength(after, 'utf8') > MAX_NOTE_BYTES) {
        failWith({ code: 'INVALID_ARGUMENTS', message: `The note would be larger than ${MAX_NOTE_BYTES} bytes.` });
      }
      await this.writeAtomic(note.file, after);
      return { before, after };
    });
  }

  async writeAtomic(file: string, text: string): Promise<void> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, text, { mode: 0o644 });
  }

  /** Moves a note; fails if the target exists. */
  async move(from: ResolvedNote, to: ResolvedNote): Promise<void> {
    await this.serialized([from.file, to.file], async () => {
      if (!(await this.exists(from))) failWith({ code: 'NOTE_NOT_FOUND', message: `There is no note "${from.name}".` });
      if (await this.exists(to)) failWith({ code: 'NOTE_EXISTS', message: `A note "${to.name}" already exists.`, path: '/newName' });
      await fs.promises.mkdir(path.dirname(to.file), { recursive: true });
      // link + unlink would refuse an existing target atomically; rename after the check is enough here
      // because every writer of either note waits in this queue.
      await fs.promises.rename(from.file, to.file);
    });
  }

  /** Note names under a folder ("" = all), sorted; hidden files, temp files and symlinks are skipped. */
  async list(folder: ResolvedNote | null, recursive: boolean): Promise<string[]> {
    const root = await this.realRoot();
    const start = folder && folder.segments.length ? path.join(root, ...folder.segments) : root;
    const prefix = folder && folder.name ? `${folder.name}/` : '';
    const files = await listFiles(start, { max: MAX_LISTED, recursive, skip: (name) => name.startsWith('.'), keep: (name) => name.toLowerCase().endsWith('.md') });
    return files.map((file) => `${prefix}${file.slice(0, -3)}`).sort();
  }
}
