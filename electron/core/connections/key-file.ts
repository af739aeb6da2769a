// Reads a `{ keys: { [profileId]: string } }` file: missing → null; unreadable → kept aside, empty, with a warning.
import fs from 'node:fs';
import type { Logger } from '../ports';

export function readKeyFile(file: string, log: Logger, what: string, afterRead?: () => void): Record<string, string> | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  afterRead?.();
  try {
    const parsed = JSON.parse(text) as { keys?: unknown };
    const keys: Record<string, string> = {};
    if (parsed && typeof parsed.keys === 'object' && parsed.keys !== null) {
      for (const [id, value] of Object.entries(parsed.keys)) if (typeof value === 'string') keys[id] = value;
    }
    return keys;
  } catch {
    // Keep the unreadable file aside rather than overwrite it on the next save.
    const aside = `${file}.corrupt-${Date.now()}`;
    fs.renameSync(file, aside);
    log.warn(`The ${what} could not be read; it was moved to ${aside} and keys must be entered again.`);
    return {};
  }
}
