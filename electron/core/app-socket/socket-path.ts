// Where a running app listens for the CLI of the same data folder: a socket only this user can reach.
import os from 'node:os';
import path from 'node:path';

/** Unix socket paths are cut at 104–108 bytes; a longer data folder path gets a short one in a private folder. */
const MAX_SOCKET_PATH = 100;

/** The app's socket for `dataDir` (already resolved): in its runtime folder (0700), else a private temp folder. */
export function appSocketPath(dataDir: string, platform = process.platform): string {
  if (platform === 'win32') return `\\\\.\\pipe\\council-workbench-${folderId(dataDir)}`;
  const inFolder = path.join(dataDir, 'runtime', 'app.sock');
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH) return inFolder;
  return path.join(os.tmpdir(), `council-workbench-${process.getuid?.() ?? 'user'}`, `${folderId(dataDir)}.sock`);
}

/** A short name for the folder. node:crypto is taken only here: every CLI command finds the socket, and loading it costs ~8 ms. */
function folderId(dataDir: string): string {
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
}
