// The tsconfig an extension's build uses, read here and handed to esbuild whole (tsconfigRaw). esbuild is never
// given a tsconfig path, so it reads no tsconfig itself: an `extends` can reach only files inside the folder,
// whatever JSON tricks it is written with (a byte-order mark, a key given twice, a folder for a file), and one
// that points anywhere else is left out with a note, as Bun builds without a base it cannot find.
import fs from 'node:fs';
import path from 'node:path';
import { inside, realInside } from './folder-paths';

type Json = Record<string, unknown>;

/** How deep `extends` may chain (TypeScript sets no limit; real configs use two or three). */
const MAX_DEPTH = 8;

/** The real path of a regular file inside `root`, else null. */
function fileInside(root: string, file: string): string | null {
  const real = realInside(root, file);
  try {
    return real !== null && fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** JSON with comments, trailing commas and a byte-order mark, as tsconfig files are written. */
export function parseJsonc(text: string): Json {
  const json = text
    .replace(/^\uFEFF/, '')
    .replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, literal: string | undefined) => literal ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('it is not a JSON object');
  return value as Json;
}

/** Where an `extends` leads, when that is a file inside the folder: a path from `dir`, or a package in the folder's node_modules. */
function baseFile(root: string, dir: string, base: string): string | null {
  if (base.startsWith('file:')) return null;
  const written = path.isAbsolute(base) || base.startsWith('.') ? path.resolve(dir, base) : path.join(root, 'node_modules', base);
  if (!inside(root, written)) return null;
  return fileInside(root, written) ?? fileInside(root, `${written}.json`) ?? fileInside(root, path.join(written, 'tsconfig.json'));
}

/** compilerOptions of one file over those of its bases; baseUrl (or, without one, where paths are read from) made absolute. */
function compilerOptions(root: string, file: string, notes: string[], seen: Set<string>): Json {
  if (seen.size >= MAX_DEPTH || seen.has(file)) {
    notes.push(`${path.relative(root, file)}: its extends go in a loop or deeper than ${MAX_DEPTH}; built without the rest.`);
    return {};
  }
  seen.add(file);
  const config = parseJsonc(fs.readFileSync(file, 'utf8'));
  const dir = path.dirname(file);
  let merged: Json = {};
  const bases = Array.isArray(config.extends) ? config.extends : config.extends === undefined ? [] : [config.extends];
  for (const base of bases) {
    if (typeof base !== 'string') continue;
    const found = baseFile(root, dir, base);
    if (found === null) notes.push(`${path.relative(root, file)} extends "${base}", which is not a file inside the extension's folder; built without it.`);
    else merged = { ...merged, ...compilerOptions(root, found, notes, seen) };
  }
  const own = typeof config.compilerOptions === 'object' && config.compilerOptions !== null ? { ...(config.compilerOptions as Json) } : {};
  if (typeof own.baseUrl === 'string') own.baseUrl = path.resolve(dir, own.baseUrl);
  else if (own.paths !== undefined && merged.baseUrl === undefined) own.baseUrl = dir;
  return { ...merged, ...own };
}

/**
 * The folder's tsconfig.json as esbuild's tsconfigRaw: its compilerOptions over those of the bases it extends
 * inside the folder. None, an empty one or one that cannot be read builds without it (said in `notes`), as Bun does.
 */
export function folderTsconfig(root: string, notes: string[]): string {
  const file = path.join(root, 'tsconfig.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return '{}';
  }
  if (text.trim() === '') {
    notes.push('tsconfig.json is empty; built without it, as Bun does.');
    return '{}';
  }
  try {
    return JSON.stringify({ compilerOptions: compilerOptions(root, file, notes, new Set()) });
  } catch (err) {
    notes.push(`tsconfig.json could not be read (${(err as Error).message}); built without it, as Bun does.`);
    return '{}';
  }
}
