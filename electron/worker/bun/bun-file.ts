// Bun.file and Bun.write within an extension's rules: a path inside the extension's own folder is read
// from disk (the worker may read it; never write it), a relative path is a file of its storage
// (spindle.storage, kept by the host), and anything else is PATH_NOT_ALLOWED.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');
import type { SpindleStorage } from '../spindle/storage';
import { inside } from '../folder-paths';

export interface FileRules {
  /** The extension's folder (absolute). */
  folder: string;
  storage: SpindleStorage;
}

function notAllowed(where: string, why: string): Error {
  return Object.assign(new Error(`Bun.file(${JSON.stringify(where)}): ${why}`), { code: 'PATH_NOT_ALLOWED' });
}

/** Where a BunFile lives; a path it may not reach fails when the file is read or written, as Bun's files are lazy. */
type Place = { kind: 'folder'; file: string } | { kind: 'storage'; file: string } | { kind: 'refused'; file: string; error: Error };

const OUTSIDE = "only the extension's own folder (read) and its storage (relative paths) are reachable here.";

function place(rules: FileRules, target: string | URL): Place {
  const where = target instanceof URL ? target.href : String(target);
  let file: string;
  try {
    // The platform's reading of a file: URL (a drive letter on Windows; an encoded separator or a host refused).
    file = target instanceof URL ? fileURLToPath(target) : where;
  } catch {
    return { kind: 'refused', file: where, error: notAllowed(where, OUTSIDE) };
  }
  if (!path.isAbsolute(file)) return { kind: 'storage', file };
  if (path.resolve(file) !== path.resolve(rules.folder) && inside(rules.folder, path.resolve(file))) return { kind: 'folder', file };
  return { kind: 'refused', file, error: notAllowed(where, OUTSIDE) };
}

/** The file of the extension's folder as it really is: a link out of the folder is refused; a file not there, ENOENT. */
function realFile(rules: FileRules, file: string): string {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT' });
  }
  if (!inside(fs.realpathSync(rules.folder), real)) throw notAllowed(file, OUTSIDE);
  return real;
}

async function bytesOf(data: unknown): Promise<Uint8Array> {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data && typeof (data as Blob).arrayBuffer === 'function') return new Uint8Array(await (data as Blob).arrayBuffer());
  throw Object.assign(new TypeError('Bun.write: data must be a string, bytes, a Blob, a Response or a BunFile.'), { code: 'INVALID_INPUT' });
}

/** A lazy file, with the members of Bun's BunFile an extension reads. */
export class WorkbenchBunFile {
  readonly name: string;
  readonly type: string;

  constructor(
    private readonly rules: FileRules,
    private readonly target: Place,
    options: { type?: string } = {},
  ) {
    this.name = target.file;
    this.type = options.type ?? 'text/plain;charset=utf-8';
  }

  /** Bytes on disk, known at once only for the extension's own files. */
  get size(): number {
    if (this.target.kind !== 'folder') return 0;
    try {
      return fs.statSync(realFile(this.rules, this.target.file)).size;
    } catch {
      return 0;
    }
  }

  async bytes(): Promise<Uint8Array> {
    if (this.target.kind === 'refused') throw this.target.error;
    if (this.target.kind === 'folder') return new Uint8Array(await fs.promises.readFile(realFile(this.rules, this.target.file)));
    return this.rules.storage.readBinary(this.target.file);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async exists(): Promise<boolean> {
    if (this.target.kind === 'refused') throw this.target.error;
    if (this.target.kind === 'storage') return this.rules.storage.exists(this.target.file);
    try {
      return (await fs.promises.stat(realFile(this.rules, this.target.file))).isFile();
    } catch (err) {
      if ((err as { code?: string }).code === 'PATH_NOT_ALLOWED') throw err;
      return false;
    }
  }

  async write(data: unknown): Promise<number> {
    return writeTo(this.rules, this.target, data);
  }

  async delete(): Promise<void> {
    if (this.target.kind === 'refused') throw this.target.error;
    if (this.target.kind !== 'storage') throw notAllowed(this.name, "the extension's own folder is read-only.");
    await this.rules.storage.delete(this.target.file);
  }
}

async function writeTo(rules: FileRules, target: Place, data: unknown): Promise<number> {
  if (target.kind === 'refused') throw target.error;
  if (target.kind !== 'storage') throw notAllowed(target.file, "the extension's own folder is read-only; write to its storage with a relative path.");
  const bytes = await bytesOf(data instanceof WorkbenchBunFile ? await data.bytes() : data);
  await rules.storage.writeBinary(target.file, bytes);
  return bytes.byteLength;
}

export function bunFile(rules: FileRules): { file: (target: string | URL, options?: { type?: string }) => WorkbenchBunFile; write: (dest: unknown, data: unknown) => Promise<number> } {
  return {
    file: (target, options) => new WorkbenchBunFile(rules, place(rules, target), options),
    write: async (dest, data) => writeTo(rules, dest instanceof WorkbenchBunFile ? place(rules, dest.name) : place(rules, dest as string | URL), data),
  };
}
