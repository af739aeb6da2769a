// The process's starting environment as Linux keeps it: a block of `NAME=value\0` in the process's own
// memory, which /proc/<pid>/environ shows to every other process of the same user for as long as the
// process lives — deleting a variable from process.env (unsetenv) leaves those bytes where they were.
// Overwriting them in place, through /proc/self/mem, is the one way to take a key back out of it.
import fs from 'node:fs';

/** The block's address range, fields 50 and 51 of /proc/self/stat (after the command name in parentheses). */
function blockRange(): { start: number; end: number } | null {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (the state).
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && end > start ? { start, end } : null;
}

/**
 * Zeroes the values of `names` in this process's environment block (Linux; elsewhere nothing to do).
 * Returns how many values were overwritten. Best effort: a kernel that refuses writes to /proc/self/mem
 * leaves the block as it was, and the caller says so.
 */
export function scrubEnvironBlock(names: readonly string[]): number {
  if (process.platform !== 'linux' || names.length === 0) return 0;
  const wanted = new Set(names);
  let scrubbed = 0;
  let fd: number | null = null;
  try {
    const range = blockRange();
    if (!range) return 0;
    const block = fs.readFileSync('/proc/self/environ');
    for (let at = 0; at < block.length; ) {
      const end = block.indexOf(0, at);
      const stop = end === -1 ? block.length : end;
      const equals = block.indexOf(0x3d, at);
      if (equals > at && equals < stop && wanted.has(block.toString('latin1', at, equals)) && stop > equals + 1) {
        fd ??= fs.openSync('/proc/self/mem', 'r+');
        fs.writeSync(fd, Buffer.alloc(stop - equals - 1), 0, stop - equals - 1, range.start + equals + 1);
        scrubbed++;
      }
      at = stop + 1;
    }
  } catch {
    // Not allowed here (a hardened kernel): the block keeps its values.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
  return scrubbed;
}
