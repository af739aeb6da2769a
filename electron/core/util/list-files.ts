// The regular files under a folder, as '/'-separated paths relative to it, for stores that list what they hold.
import fs from 'node:fs';
import path from 'node:path';

export interface ListFilesOptions {
  /** Stop after this many (the listing is then partial, never unbounded). */
  max: number;
  /** Into sub-folders too (default true). */
  recursive?: boolean;
  /** Names to pass over, files and folders alike (hidden files, temp files…). */
  skip?: (name: string) => boolean;
  /** Files to keep (default: every file). */
  keep?: (name: string) => boolean;
}

/** Unreadable folders and anything not a plain file or folder (symlinks, sockets) are passed over; unsorted. */
export async function listFiles(root: string, options: ListFilesOptions): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= options.max) return;
      if (options.skip?.(entry.name)) continue;
      const name = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (options.recursive !== false) await walk(path.join(folder, entry.name), name);
      } else if (entry.isFile() && (options.keep?.(entry.name) ?? true)) found.push(name);
    }
  };
  await walk(root, '');
  return found;
}
