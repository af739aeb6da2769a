// Unpacking an extension .zip for install, bounded: entry count (folders too), total size, compression
// ratio (a decompression bomb), no paths out of the folder, no symlinks. The manifest may sit at the
// root or in the one folder a GitHub download wraps everything in.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { HostFailure } from '../../../../shared/errors';
import { INSTALL_LIMITS } from './extension-install';
import { MANIFEST_FILES } from './manifest';

/** Highest uncompressed / compressed ratio a large entry may have; real code stays far below it. */
const MAX_RATIO = 200;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function refuse(message: string): never {
  throw new HostFailure({ code: 'INVALID_INPUT', message, path: '/zip' });
}

function tooLarge(message: string): never {
  throw new HostFailure({ code: 'INPUT_TOO_LARGE', message, path: '/zip' });
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) reject(new HostFailure({ code: 'INVALID_INPUT', message: `Not a readable .zip file (${err?.message ?? 'unknown error'}).`, path: '/zip' }));
      else resolve(zip);
    });
  });
}

/** The relative path an entry may be written to, or a refusal naming it. */
function safeName(name: string): string {
  if (name.includes('\0') || name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) refuse(`The zip holds an entry with an unsafe path: ${JSON.stringify(name.slice(0, 200))}.`);
  const normalised = path.posix.normalize(name);
  if (normalised === '..' || normalised.startsWith('../')) refuse(`The zip holds an entry that leads out of its folder: ${JSON.stringify(name.slice(0, 200))}.`);
  return normalised;
}

/** Extracts `file` into the empty folder `to`; returns the folder that holds the manifest. */
export async function unpackExtensionZip(file: string, to: string, limits = INSTALL_LIMITS): Promise<string> {
  const zip = await openZip(file);
  if (zip.entryCount > limits.maxEntries) tooLarge(`The zip holds ${zip.entryCount} entries; at most ${limits.maxEntries} files and folders are installed.`);
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (err: unknown) => {
      zip.close();
      // yauzl's own checks (a `..` or absolute entry name, a truncated archive) come as plain Errors.
      reject(err instanceof HostFailure ? err : new HostFailure({ code: 'INVALID_INPUT', message: `The zip is malformed or holds an unsafe path (${(err as Error).message}).`, path: '/zip' }));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        const name = safeName(entry.fileName);
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) refuse(`The zip holds a symbolic link (${name}); extensions are installed without links.`);
        if (name.split('/').length > limits.maxDepth) tooLarge(`The zip is nested more than ${limits.maxDepth} levels deep.`);
        const target = path.join(to, name);
        if (entry.fileName.endsWith('/')) {
          await fs.promises.mkdir(target, { recursive: true });
          zip.readEntry();
          return;
        }
        total += entry.uncompressedSize;
        if (total > limits.maxBytes) tooLarge(`The zip unpacks to more than ${limits.maxBytes / 1024 / 1024} MB.`);
        if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize / Math.max(1, entry.compressedSize) > MAX_RATIO) {
          tooLarge(`${name} expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times; that is a decompression bomb, not an extension.`);
        }
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const stream = await new Promise<NodeJS.ReadableStream>((ok, ko) => zip.openReadStream(entry, (err, s) => (err || !s ? ko(err ?? new Error('unreadable entry')) : ok(s))));
        await new Promise<void>((ok, ko) => {
          const out = fs.createWriteStream(target, { flags: 'wx' });
          stream.on('error', ko);
          out.on('error', ko);
          out.on('finish', () => ok());
          stream.pipe(out);
        });
        zip.readEntry();
      })().catch(fail);
    });
    zip.readEntry();
  });
  return manifestRoot(to);
}

/** The unpacked folder, or the single folder inside it, whichever has a manifest. */
function manifestRoot(folder: string): string {
  const hasManifest = (dir: string) => MANIFEST_FILES.some((name) => fs.existsSync(path.join(dir, name)));
  if (hasManifest(folder)) return folder;
  const children = fs.readdirSync(folder, { withFileTypes: true }).filter((d) => !d.name.startsWith('.') && d.name !== '__MACOSX');
  if (children.length === 1 && children[0]!.isDirectory() && hasManifest(path.join(folder, children[0]!.name))) return path.join(folder, children[0]!.name);
  refuse(`The zip has no ${MANIFEST_FILES.join(' / ')} at its root or in its one top folder.`);
}

/** Runs `install` on `source` itself (a folder), or on a .zip unpacked into a staging folder under `userDir` (removed afterwards). */
export async function withExtensionFolder<T>(source: string, userDir: string, progress: (line: string) => void, install: (folder: string) => Promise<T>): Promise<T> {
  if (!source.toLowerCase().endsWith('.zip') || !fs.statSync(source, { throwIfNoEntry: false })?.isFile()) return install(source);
  fs.mkdirSync(userDir, { recursive: true });
  const unpacked = fs.mkdtempSync(path.join(userDir, '.install-zip-'));
  try {
    progress(`Unpacking ${path.basename(source)}…`);
    return await install(await unpackExtensionZip(source, unpacked));
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
}

/**
 * Runs `use` on an uploaded .zip written to a staging file under `userDir` (this user's only, removed afterwards, and
 * swept at start like the other `.install-` leftovers): the window of browser mode cannot name a path on the host.
 */
export async function withUploadedZip<T>(upload: { fileName: string; bytes: Buffer }, userDir: string, use: (zipPath: string) => Promise<T>): Promise<T> {
  if (!upload.fileName.toLowerCase().endsWith('.zip')) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `"${upload.fileName.slice(0, 80)}" is not a .zip: upload the extension as the .zip GitHub serves (or its folder zipped).`, path: '/upload/fileName' });
  }
  fs.mkdirSync(userDir, { recursive: true });
  const staged = path.join(userDir, `.install-upload-${randomUUID()}.zip`);
  fs.writeFileSync(staged, upload.bytes, { mode: 0o600 });
  try {
    return await use(staged);
  } finally {
    fs.rmSync(staged, { force: true });
  }
}
