// The data folder is the person's alone: chats, keys and logs are nobody else's on a shared machine. Everything this
// process (and the workers it starts) creates from now on is private (umask 077: folders 0700, files 0600); a folder
// that was open to others (one an older version made, or made by hand) is closed, with everything in it, once.
import fs from 'node:fs';
import path from 'node:path';

const OTHERS = 0o077;

/** Takes group and other access off `dir` and, when `dir` itself was open, off everything below it. */
export function makeDataDirPrivate(dir: string, platform = process.platform): { tightened: number } {
  // Windows folders take their owner-only access from the user's profile, not from mode bits.
  if (platform === 'win32') return { tightened: 0 };
  process.umask(OTHERS);
  const mode = fs.statSync(dir).mode;
  if ((mode & OTHERS) === 0) return { tightened: 0 };
  let tightened = 0;
  const tighten = (target: string, current: number) => {
    // The owner's bits stay (an extension's executables keep theirs); nobody else keeps any.
    fs.chmodSync(target, current & 0o7700 & ~OTHERS);
    tightened++;
  };
  tighten(dir, mode);
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue; // its target is not ours to change
      const full = path.join(folder, entry.name);
      const current = fs.lstatSync(full).mode;
      if (current & OTHERS) tighten(full, current);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return { tightened };
}
