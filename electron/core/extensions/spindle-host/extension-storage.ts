// One storage area of an extension (spindle.storage, spindle.userStorage): files under one folder, confined, capped, written atomically.
//
// Paths are relative and normalised first: absolute paths, `..` out of the area, NUL bytes and
// backslashes are refused, and no symlink is followed (a contained worker cannot make one, but an
// installed folder could ship one). Each file is at most maxFileBytes and the area at most
// quotaBytes; writes go one at a time so the quota count stays exact. A file larger than one request or answer
// carries crosses in parts (storage-parts.ts, readPart), as the worker's storage API sends and reads it.
import type { StorageStat } from '../../../../shared/types/spindle';
import fs from 'node:fs';
import path from 'node:path';
import { listFiles } from '../../util/list-files';
import { HostFailure } from '../../../../shared/errors';
import type { StorageOp, StorageParams } from '../../../../shared/spindle/requests';
import { STORAGE_PART_BYTES } from '../../../../shared/protocol/limits';
import { moveIntoPlace, writeFileAtomic } from '../../util/atomic-write';
import { StagedWrites } from './storage-parts';

export const STORAGE_LIMITS = {
  // Lumiverse caps neither; these hold an audio library (Cue imports tracks of up to 30 MB) and long run reports.
  maxFileBytes: 64 * 1024 * 1024,
  quotaBytes: 1024 * 1024 * 1024,
  maxPathChars: 512,
  maxListed: 10_000,
  /** A file larger than this is read in parts (readPart): one answer to the worker stays well inside its frame. */
  oneReadBytes: 4 * 1024 * 1024,
};


function fail(code: string, message: string, pathField = '/path'): never {
  throw new HostFailure({ code, message, path: pathField });
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

export class ExtensionStorage {
  private used: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly parts: StagedWrites;

  constructor(
    private readonly root: string,
    private readonly limits = STORAGE_LIMITS,
  ) {
    this.parts = new StagedWrites(`${root}.parts`, limits.maxFileBytes);
  }

  /** What spindle.storage and spindle.userStorage answer, by operation (params checked by the contract); a refused path rejects. */
  readonly ops: { [K in StorageOp]: (params: StorageParams<K>) => Promise<unknown> } = {
    read: async ({ path: file }) => this.read(this.resolve(file), 'utf8'),
    readBinary: async ({ path: file }) => this.read(this.resolve(file), 'base64'),
    write: async ({ path: file, data }) => this.serial(() => this.write(this.resolve(file), Buffer.from(data, 'utf8'))),
    writeBinary: async ({ path: file, base64 }) => this.serial(() => this.write(this.resolve(file), Buffer.from(base64, 'base64'))),
    readPart: async ({ path: file, offset, length }) => this.readPart(this.resolve(file), offset, length),
    writePart: async ({ path: file, upload, index, base64, last }) => {
      const target = this.resolve(file);
      return this.serial(() => this.parts.append(upload, index, Buffer.from(base64, 'base64'), last, (staged, size) => this.place(target, size, () => moveIntoPlace(staged, target))));
    },
    delete: async ({ path: file }) => this.serial(() => this.remove(this.resolve(file))),
    list: async ({ prefix }) => this.list(prefix === undefined ? this.root : this.resolve(prefix, '/prefix')),
    exists: async ({ path: file }) => this.stat(this.resolve(file)).then((stat) => stat.exists),
    stat: async ({ path: file }) => this.stat(this.resolve(file)),
    mkdir: async ({ path: file }) =>
      this.serial(async () => {
        await fs.promises.mkdir(this.resolve(file), { recursive: true });
        return true;
      }),
    move: async ({ from, to }) => this.serial(() => this.move(this.resolve(from, '/from'), this.resolve(to, '/to'))),
  };

  /** The absolute path of `requested` inside the area; throws PATH_NOT_ALLOWED / INVALID_INPUT. */
  resolve(requested: unknown, field = '/path'): string {
    if (typeof requested !== 'string' || requested.length === 0) fail('INVALID_INPUT', 'A storage path is a non-empty string.', field);
    if (requested.length > this.limits.maxPathChars) fail('INVALID_INPUT', `A storage path is at most ${this.limits.maxPathChars} characters.`, field);
    if (requested.includes('\0')) fail('INVALID_INPUT', 'A storage path cannot contain a NUL byte.', field);
    if (requested.includes('\\')) fail('INVALID_INPUT', 'A storage path uses / between folders, not \\.', field);
    if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested)) fail('PATH_NOT_ALLOWED', `"${requested}" is absolute; storage paths are relative to the extension's storage.`, field);
    const normalised = path.posix.normalize(requested);
    if (normalised === '..' || normalised.startsWith('../')) fail('PATH_NOT_ALLOWED', `"${requested}" leads out of the extension's storage.`, field);
    const target = path.join(this.root, normalised === '.' ? '' : normalised);
    this.refuseSymlinks(target, field);
    return target;
  }

  /** No component between the area's root and `target` may be a symlink. */
  private refuseSymlinks(target: string, field: string): void {
    const relative = path.relative(this.root, target);
    let current = this.root;
    for (const part of relative ? relative.split(path.sep) : []) {
      current = path.join(current, part);
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(current);
      } catch {
        return;
      }
      if (stat.isSymbolicLink()) fail('PATH_NOT_ALLOWED', 'Storage paths do not follow symlinks.', field);
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(file: string, encoding: 'utf8' | 'base64'): Promise<string> {
    const size = await this.fileSize(file);
    if (size > this.limits.oneReadBytes) fail('RESULT_TOO_LARGE', `The file is ${size} bytes; one over ${this.limits.oneReadBytes} is read in parts (readPart).`);
    return fs.promises.readFile(file, encoding);
  }

  /** `length` bytes of the file from `offset` (fewer at its end), as base64. */
  private async readPart(file: string, offset: number, length: number): Promise<string> {
    await this.fileSize(file);
    const handle = await fs.promises.open(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(length, STORAGE_PART_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return buffer.subarray(0, bytesRead).toString('base64');
    } finally {
      await handle.close();
    }
  }

  /** The size of a stored file; NOT_FOUND for none or a folder. */
  private async fileSize(file: string): Promise<number> {
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) fail('NOT_FOUND', 'That storage path is a folder, not a file.');
      return stat.size;
    } catch (err) {
      if (isMissing(err)) fail('NOT_FOUND', 'File not found in storage.');
      throw err;
    }
  }

  private write(file: string, data: Buffer): Promise<true> {
    return this.place(file, data.byteLength, () => writeFileAtomic(file, data));
  }

  /** Puts `size` bytes at `file` with `put` once they fit the file size and the quota (their count kept exact). */
  private async place(file: string, size: number, put: () => Promise<void>): Promise<true> {
    if (size > this.limits.maxFileBytes) {
      fail('INPUT_TOO_LARGE', `A stored file is at most ${this.limits.maxFileBytes} bytes; this one is ${size}.`, '/data');
    }
    const used = await this.usage();
    const before = await fs.promises.stat(file).then((s) => (s.isFile() ? s.size : 0), () => 0);
    const after = used - before + size;
    if (after > this.limits.quotaBytes) {
      fail('QUOTA_EXCEEDED', `The extension's storage would hold ${after} bytes; its quota is ${this.limits.quotaBytes}.`, '/data');
    }
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await put();
    this.used = after;
    return true;
  }

  private async remove(target: string): Promise<true> {
    const freed = await this.sizeOf(target);
    await fs.promises.rm(target, { recursive: true, force: true });
    if (this.used !== null) this.used = Math.max(0, this.used - freed);
    return true;
  }

  private async move(from: string, to: string): Promise<true> {
    try {
      await fs.promises.lstat(from);
    } catch (err) {
      if (isMissing(err)) fail('NOT_FOUND', 'File not found in storage.', '/from');
      throw err;
    }
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.rename(from, to);
    return true;
  }

  private async stat(target: string): Promise<StorageStat> {
    try {
      const stat = await fs.promises.stat(target);
      return { exists: true, isFile: stat.isFile(), isDirectory: stat.isDirectory(), sizeBytes: stat.size, modifiedAt: new Date(stat.mtimeMs).toISOString() };
    } catch (err) {
      if (!isMissing(err)) throw err;
      return { exists: false, isFile: false, isDirectory: false, sizeBytes: 0, modifiedAt: new Date(0).toISOString() };
    }
  }

  /** Files under `dir`, relative to it, sorted (Lumiverse's list: the prefix names a folder). */
  private async list(dir: string): Promise<string[]> {
    return (await listFiles(dir, { max: this.limits.maxListed })).sort();
  }

  private async sizeOf(target: string): Promise<number> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.lstat(target);
    } catch {
      return 0;
    }
    if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
    let total = 0;
    for (const entry of await fs.promises.readdir(target)) total += await this.sizeOf(path.join(target, entry));
    return total;
  }

  private async usage(): Promise<number> {
    if (this.used === null) this.used = await this.sizeOf(this.root);
    return this.used;
  }
}
