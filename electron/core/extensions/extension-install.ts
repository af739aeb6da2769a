// Copying an extension folder into the data folder: regular files and folders only, bounded, off the host thread.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';

export const INSTALL_LIMITS = {
  /** Files and folders together: 20,000 empty folders are as much work as 20,000 files. */
  maxEntries: 5000,
  maxBytes: 100 * 1024 * 1024,
  maxDepth: 32,
};

function tooLarge(message: string): HostFailure {
  return new HostFailure({ code: 'INPUT_TOO_LARGE', message, path: '/folder' });
}

/**
 * Copies `from` into the empty folder `to` with fs.promises (the work runs on libuv's threads, the
 * host's event loop stays free). Symlinks and special files are skipped; more than
 * INSTALL_LIMITS.maxEntries entries, maxBytes bytes or maxDepth levels fail with INPUT_TOO_LARGE.
 */
export async function copyExtensionFolder(from: string, to: string, limits = INSTALL_LIMITS): Promise<{ entries: number; bytes: number }> {
  let entries = 0;
  let bytes = 0;
  const walk = async (src: string, dst: string, depth: number): Promise<void> => {
    if (depth > limits.maxDepth) throw tooLarge(`The extension folder is nested more than ${limits.maxDepth} levels deep.`);
    for (const dirent of await fs.promises.readdir(src, { withFileTypes: true })) {
      if (!dirent.isDirectory() && !dirent.isFile()) continue;
      if (++entries > limits.maxEntries) throw tooLarge(`The extension folder has more than ${limits.maxEntries} files and folders.`);
      const s = path.join(src, dirent.name);
      const d = path.join(dst, dirent.name);
      if (dirent.isDirectory()) {
        await fs.promises.mkdir(d);
        await walk(s, d, depth + 1);
        continue;
      }
      bytes += (await fs.promises.stat(s)).size;
      if (bytes > limits.maxBytes) throw tooLarge(`The extension folder holds more than ${limits.maxBytes / 1024 / 1024} MB.`);
      await fs.promises.copyFile(s, d);
    }
  };
  await walk(from, to, 0);
  return { entries, bytes };
}
