// Where an extension's frontend module is (Lumiverse's entry_frontend, default dist/frontend.js), and what builds it.
//
// Lumiverse serves the file as it is and imports it as an ES module; when the folder ships only
// src/frontend.ts it builds it (`bun build src/frontend.ts --target browser`). Published manifests also
// point entry_frontend at src/frontend.ts while shipping dist/frontend.js: that bundle is used.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../../shared/errors';

export interface FrontendEntry {
  /** The module the frames import (absolute, inside the folder; it may not exist yet: see buildSource). */
  path: string;
  /** TypeScript to build it from at install, or null. */
  buildSource: string | null;
}

const DEFAULT_FRONTEND = 'dist/frontend.js';
const TS = /\.(?:m|c)?tsx?$/i;
const SCRIPT = /\.(?:m|c)?js$/i;

function inside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The frontend of a folder with this entry_frontend (undefined: the default), or null when it has none. */
export function frontendEntry(folder: string, declared: string | undefined): FrontendEntry | null {
  const value = declared ?? DEFAULT_FRONTEND;
  const resolved = path.resolve(folder, value);
  if (path.isAbsolute(value) || !inside(folder, resolved)) {
    throw new HostFailure({ code: 'INVALID_MANIFEST', message: '"entry_frontend" points outside the extension folder.', path: '/entry_frontend' });
  }
  const exists = (file: string) => fs.existsSync(file) && fs.statSync(file).isFile();
  if (TS.test(resolved)) {
    const shipped = path.join(folder, DEFAULT_FRONTEND);
    if (exists(shipped)) return { path: shipped, buildSource: null };
    const built = resolved.replace(TS, '.workbench.mjs');
    if (exists(built)) return { path: built, buildSource: null };
    return exists(resolved) ? { path: built, buildSource: resolved } : null;
  }
  if (!SCRIPT.test(resolved)) throw new HostFailure({ code: 'INVALID_MANIFEST', message: '"entry_frontend" must be a JavaScript or TypeScript file.', path: '/entry_frontend' });
  if (exists(resolved)) return { path: resolved, buildSource: null };
  const source = path.join(folder, 'src', 'frontend.ts');
  return exists(source) ? { path: resolved, buildSource: source } : null;
}
