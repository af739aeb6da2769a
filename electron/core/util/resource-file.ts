// A file of the repository's resources/ folder, found from the calling module upward: the same from the source tree
// and from the built doors (out/node, out/main), whose depth differs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function resourceFile(moduleUrl: string, ...parts: string[]): string {
  const relative = path.join('resources', ...parts);
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (let i = 0; i < 6; i++, dir = path.dirname(dir)) if (fs.existsSync(path.join(dir, relative))) return path.join(dir, relative);
  throw new Error(`${relative} is missing from this installation.`);
}
