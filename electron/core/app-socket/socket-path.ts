// Where a running app listens for the CLI of the same data folder: a socket only this user can reach.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are cut at 104–108 bytes; a longer data folder path gets a short one in a private folder. */
const MAX_SOCKET_PATH = 100;

/** The app's socket for `dataDir` (already resolved): in its runtime folder (0700), else a private temp folder. */
export function appSocketPath(dataDir: string, platform = process.platform): string {
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  if (platform === 'win32') return `\\\\.\\pipe\\council-workbench-${id}`;
  const inFolder = path.join(dataDir, 'runtime', 'app.sock');
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH) return inFolder;
  return path.join(os.tmpdir(), `council-workbench-${process.getuid?.() ?? 'user'}`, `${id}.sock`);
}
