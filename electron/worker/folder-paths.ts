// Whether a path lies inside an extension's folder, as the contained build judges every file it is asked to read.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

export function inside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The file's real path when it lies inside `root`, else null (missing, unreadable and outside look the same). */
export function realInside(root: string, file: string): string | null {
  try {
    const real = fs.realpathSync(file);
    return inside(root, real) ? real : null;
  } catch {
    return null;
  }
}
