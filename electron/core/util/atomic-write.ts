// The one way the core replaces a file: a temp file beside it, fsync, rename over, fsync the folder.
//
// A kill at any moment leaves the old file or the new one, never half of either. Temp files are
// named `<name>.<pid>.<random>.tmp`, so a leftover from a killed process is recognisable
// (isLeftoverTemp) and two writers never share one.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the new file (e.g. 0o600 for secrets), set before any byte is written and whatever the umask. */
  mode?: number;
}

function tempName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Whether `name` is a temp file this module left beside `base` (a process was killed mid-write). */
export function isLeftoverTemp(base: string, name: string): boolean {
  return name.startsWith(`${base}.`) && /\.\d+\.[0-9a-f]{8}\.tmp$/.test(name);
}

function syncFolder(folder: string): void {
  // Windows cannot open a folder for fsync; its rename is durable enough.
  if (process.platform === 'win32') return;
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse a folder fsync; the rename already happened.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** syncFolder off the event loop: a folder fsync can take milliseconds on a busy disk, and the main process must not wait. */
async function syncFolderAsync(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // As in syncFolder: the rename already happened.
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temp = tempName(file);
  let fd: number | undefined;
  try {
    // 'wx': a fresh file, never one planted at the temp name (the random part makes a clash a refusal, not a share).
    fd = fs.openSync(temp, 'wx', options.mode ?? 0o666);
    if (options.mode !== undefined && process.platform !== 'win32') fs.fchmodSync(fd, options.mode);
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  syncFolder(path.dirname(file));
}

/** Asynchronous writes not finished yet: a closing host waits for them (writesSettled), so quitting loses nothing. */
const inFlight = new Set<Promise<void>>();

/** Resolves once every asynchronous atomic write started so far (and any started while waiting) has finished. */
export async function writesSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const write = writeAtomically(file, data, options);
  const tracked = write.catch(() => undefined);
  inFlight.add(tracked);
  void tracked.then(() => inFlight.delete(tracked));
  return write;
}

/** A finished file written elsewhere (on the same disk) put at `file` the same way: synced, renamed over, folder synced. */
export async function moveIntoPlace(from: string, file: string): Promise<void> {
  const handle = await fs.promises.open(from, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(from, file);
  await syncFolderAsync(path.dirname(file));
}

async function writeAtomically(file: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
  const temp = tempName(file);
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(temp, 'wx', options.mode ?? 0o666);
    if (options.mode !== undefined && process.platform !== 'win32') await handle.chmod(options.mode);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.promises.rename(temp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw err;
  }
  await syncFolderAsync(path.dirname(file));
}
