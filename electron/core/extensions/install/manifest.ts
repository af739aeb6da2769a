// Reads and checks an extension's manifest, in the Workbench's form or Lumiverse's; every problem is
// INVALID_MANIFEST with the field's path.
//
// Lumiverse's manifest (spindle.json, spindlefile or spindlefile.json, the first found): identifier
// (^[a-z][a-z0-9_]*$), name, version, author, permissions; optional github, homepage, description,
// entry_backend (default dist/backend.js), entry_frontend, minimum_lumiverse_version,
// storage_seed_files, requested_capabilities, interceptorTimeoutMs; other keys ignored. Ours:
// id, name, version, description, main, permissions. A key written twice is refused.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../../shared/errors';
import { EXTENSION_PERMISSIONS, PERMISSIONS_NOT_AVAILABLE_HERE, type ExtensionManifest, type ExtensionPermission } from '../../../../shared/types/spindle';
import { frontendEntry, type FrontendEntry } from './frontend-entry';
import { DuplicateKeyError, parseStrictJson } from './strict-json';

export const MANIFEST_FILES = ['spindle.json', 'spindlefile', 'spindlefile.json'] as const;
export const MANIFEST_FILE = MANIFEST_FILES[0];
/** Ours (`knowledge-base`) and Lumiverse's identifiers (`lumia_tools`). */
export const EXTENSION_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{1,63}$/;
const LUMIVERSE_IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const MAX_MANIFEST_BYTES = 64 * 1024;
const ENTRY_EXTENSIONS = ['.js', '.mjs', '.cjs'];
/** A TypeScript entry, which Lumiverse (Bun) runs directly: the Workbench builds it at install. */
const TS_ENTRY = /\.(?:m|c)?tsx?$/i;
/** Where Lumiverse builds an entry from when the folder ships no build. */
export const BUILD_SOURCES = ['src/backend.ts', 'src/backend.js'];
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export interface LoadedManifest {
  manifest: ExtensionManifest;
  /** Real path of the extension folder. */
  folder: string;
  /** The manifest file it was read from. */
  file: string;
  /** Absolute path of the entry, inside `folder` (it may not exist yet: see `buildSource`). */
  mainPath: string;
  /** The entry is missing and this source (src/backend.ts) can build it. */
  buildSource: string | null;
  /** Permission names it asks for that no version of Lumiverse knows (ignored, as Lumiverse does). */
  unknownPermissions: string[];
  /** Its frontend module (Lumiverse's entry_frontend), or null when it has none. */
  frontend: FrontendEntry | null;
  /** The backend entry its manifest names that is not in the folder (its frontend runs alone). */
  missingBackend?: string;
}

function invalid(message: string, fieldPath: string, hint?: string): never {
  throw new HostFailure({ code: 'INVALID_MANIFEST', message, path: fieldPath, ...(hint ? { hint } : {}) });
}

function text(doc: Record<string, unknown>, field: string, max: number, options: { allowEmpty?: boolean; optional?: boolean } = {}): string | undefined {
  const value = doc[field];
  if (value === undefined && options.optional) return undefined;
  if (typeof value !== 'string') invalid(`"${field}" must be a string.`, `/${field}`);
  if (!options.allowEmpty && value.trim() === '') invalid(`"${field}" must not be empty.`, `/${field}`);
  if (value.length > max) invalid(`"${field}" is longer than ${max} characters.`, `/${field}`);
  if (CONTROL.test(value)) invalid(`"${field}" contains control characters.`, `/${field}`);
  return value;
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The entry's absolute path: relative, inside the folder (a symlink too), a JavaScript (or, to build, TypeScript) file. */
function checkEntry(folder: string, value: unknown, field: string): { entry: string; exists: boolean } {
  const at = `/${field}`;
  if (typeof value !== 'string' || value.trim() === '') invalid(`"${field}" must be the relative path of a .js file.`, at);
  if (value.length > 256 || value.includes('\0')) invalid(`"${field}" is not a usable path.`, at);
  if (path.isAbsolute(value) || path.win32.isAbsolute(value) || /^[a-zA-Z]:/.test(value)) invalid(`"${field}" must be relative to the extension folder.`, at);
  const resolved = path.resolve(folder, value);
  if (!isInside(folder, resolved)) invalid(`"${field}" points outside the extension folder.`, at, 'Keep the entry file inside the folder; ".." is not allowed.');
  if (!ENTRY_EXTENSIONS.includes(path.extname(resolved).toLowerCase()) && !TS_ENTRY.test(resolved)) invalid(`"${field}" must be a JavaScript or TypeScript file (.js, .mjs, .cjs, .ts).`, at);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
  } catch {
    return { entry: resolved, exists: false };
  }
  if (!stat.isFile()) invalid(`"${field}" (${value}) is not a file.`, at);
  // A symlink must not lead out of the folder either.
  if (!isInside(folder, fs.realpathSync(resolved))) invalid(`"${field}" resolves outside the extension folder.`, at);
  return { entry: resolved, exists: true };
}

function checkPermissions(value: unknown, lenient: boolean): { permissions: ExtensionPermission[]; unknown: string[] } {
  if (value === undefined) return { permissions: [], unknown: [] };
  if (!Array.isArray(value)) invalid('"permissions" must be an array.', '/permissions');
  const permissions: ExtensionPermission[] = [];
  const unknown: string[] = [];
  value.forEach((item, index) => {
    if (typeof item === 'string' && EXTENSION_PERMISSIONS.includes(item as ExtensionPermission)) {
      if (!permissions.includes(item as ExtensionPermission)) permissions.push(item as ExtensionPermission);
      return;
    }
    if (lenient && typeof item === 'string' && item.length <= 64) {
      unknown.push(item);
      return;
    }
    invalid(`Unknown permission ${JSON.stringify(item)}.`, `/permissions/${index}`, `Known permissions: ${EXTENSION_PERMISSIONS.join(', ')}.`);
  });
  return { permissions, unknown };
}

function lumiverseExtras(doc: Record<string, unknown>): Partial<ExtensionManifest> {
  const extras: Partial<ExtensionManifest> = {};
  const author = text(doc, 'author', 200, { allowEmpty: true, optional: true });
  const github = text(doc, 'github', 500, { allowEmpty: true, optional: true });
  const homepage = text(doc, 'homepage', 500, { allowEmpty: true, optional: true });
  const frontend = text(doc, 'entry_frontend', 256, { optional: true });
  const minimum = text(doc, 'minimum_lumiverse_version', 40, { optional: true });
  if (author !== undefined) extras.author = author;
  if (github) extras.github = github;
  if (homepage) extras.homepage = homepage;
  if (frontend) extras.entryFrontend = frontend;
  if (minimum) extras.minimumLumiverseVersion = minimum;
  const caps = doc.requested_capabilities;
  if (caps !== undefined) {
    if (!Array.isArray(caps) || caps.some((c) => typeof c !== 'string')) invalid('"requested_capabilities" must be an array of names.', '/requested_capabilities');
    extras.requestedCapabilities = caps as string[];
  }
  const seeds = doc.storage_seed_files;
  if (seeds !== undefined) {
    if (!Array.isArray(seeds)) invalid('"storage_seed_files" must be an array.', '/storage_seed_files');
    extras.storageSeedFiles = seeds.map((seed, i) => {
      const at = `/storage_seed_files/${i}`;
      if (typeof seed !== 'object' || seed === null || typeof (seed as { from?: unknown }).from !== 'string') invalid('A seed file is { from, to?, overwrite?, required? }.', at);
      const s = seed as { from: string; to?: unknown; overwrite?: unknown; required?: unknown };
      return { from: s.from, ...(typeof s.to === 'string' ? { to: s.to } : {}), ...(s.overwrite === true ? { overwrite: true } : {}), ...(s.required === true ? { required: true } : {}) };
    });
  }
  const timeout = doc.interceptorTimeoutMs;
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !Number.isFinite(timeout)) invalid('"interceptorTimeoutMs" must be a number of milliseconds.', '/interceptorTimeoutMs');
    extras.interceptorTimeoutMs = Math.min(300_000, Math.max(1000, Math.round(timeout)));
  }
  return extras;
}

/**
 * A TypeScript entry runs as the bundle built from it at install, beside it (so paths relative to the
 * module stay right): `src/backend.ts` → `src/backend.workbench.mjs`.
 */
function typeScriptEntry(source: { entry: string; exists: boolean }): { entry: string; exists: boolean; buildSource: string | null } {
  const built = source.entry.replace(TS_ENTRY, '.workbench.mjs');
  const exists = fs.existsSync(built);
  return { entry: built, exists, buildSource: exists || !source.exists ? null : source.entry };
}

/** Checks a parsed manifest against the folder it came from. */
export function validateManifest(raw: unknown, folder: string, file = path.join(folder, MANIFEST_FILE)): LoadedManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) invalid(`${path.basename(file)} must hold a JSON object.`, '');
  const doc = raw as Record<string, unknown>;
  const lumiverse = 'identifier' in doc;
  const idField = lumiverse ? 'identifier' : 'id';
  const id = doc[idField];
  if (lumiverse ? typeof id !== 'string' || !LUMIVERSE_IDENTIFIER.test(id) || id.length > 64 : typeof id !== 'string' || !EXTENSION_ID_PATTERN.test(id)) {
    invalid(
      lumiverse ? '"identifier" must be lower case letters, digits and "_", starting with a letter (at most 64).' : '"id" must be 2–64 characters of a-z, 0-9, "-" and "_", starting with a letter or digit.',
      `/${idField}`,
    );
  }
  const name = text(doc, 'name', 100)!;
  // Lumiverse asks only for a non-empty version: "6.7.6.7" and "2024-05-beta" are published versions.
  const version = text(doc, 'version', 80)!.trim();
  if (lumiverse) text(doc, 'author', 200, { allowEmpty: true });
  const description = text(doc, 'description', 1000, { allowEmpty: true, optional: lumiverse }) ?? '';
  const entryField = lumiverse ? 'entry_backend' : 'main';
  const entryValue = lumiverse ? (doc.entry_backend ?? 'dist/backend.js') : doc.main;
  const checked = checkEntry(folder, entryValue, entryField);
  const { entry, exists, buildSource } = TS_ENTRY.test(checked.entry) ? typeScriptEntry(checked) : { ...checked, buildSource: checked.exists ? null : (BUILD_SOURCES.map((s) => path.join(folder, s)).find((s) => fs.existsSync(s)) ?? null) };
  const extras = lumiverse ? lumiverseExtras(doc) : {};
  const frontend = lumiverse ? frontendEntry(folder, extras.entryFrontend) : null;
  // Lumiverse runs a manifest's frontend alone when it has no backend to run (none at the entry, named or default, and
  // none to build): its manager answers a missing backend entry with null and starts the frontend.
  const frontendOnly = lumiverse && !exists && !buildSource && frontend !== null;
  if (!exists && !buildSource && !frontendOnly) {
    invalid(`"${entryField}" file ${String(entryValue)} does not exist${lumiverse ? ', and there is no src/backend.ts to build it from (nor a frontend to run alone)' : ''}.`, `/${entryField}`);
  }
  const { permissions, unknown } = checkPermissions(doc.permissions, lumiverse);
  const main = frontendOnly ? '' : path.relative(folder, entry).split(path.sep).join('/');
  const manifest: ExtensionManifest = { id: id as string, name: name.trim(), version, description, main, permissions, format: lumiverse ? 'lumiverse' : 'workbench', ...extras };
  const missingBackend = frontendOnly && doc.entry_backend !== undefined ? { missingBackend: String(doc.entry_backend) } : {};
  return { manifest, folder, file, mainPath: frontendOnly ? '' : entry, buildSource, unknownPermissions: unknown, frontend, ...missingBackend };
}

/** JSON.parse's complaint with the line and column of its position (Node 20 gives only the offset). */
function jsonProblem(text: string, message: string): string {
  const bare = message.replace(/ \(line \d+ column \d+\)$/, '');
  const at = /at position (\d+)/.exec(bare);
  if (!at) return bare;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `${bare} (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
}

/** The manifest file of a folder: the first of spindle.json, spindlefile, spindlefile.json. */
function manifestFile(folder: string): string | null {
  for (const name of MANIFEST_FILES) {
    const file = path.join(folder, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** Reads a folder's manifest. Throws HostFailure(INVALID_MANIFEST) with the offending field's path. */
export function readManifest(folder: string): LoadedManifest {
  let realFolder: string;
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    invalid(`Extension folder ${folder} does not exist.`, '');
  }
  const file = manifestFile(realFolder);
  if (!file) invalid(`No ${MANIFEST_FILES.join(', ')} in ${folder}.`, '', 'An extension folder needs a spindle.json (Lumiverse: identifier, name, version, author, permissions).');
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) invalid(`${path.basename(file)} is not a file.`, '');
    if (stat.size > MAX_MANIFEST_BYTES) invalid(`${path.basename(file)} is larger than ${MAX_MANIFEST_BYTES} bytes.`, '');
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof HostFailure) throw err;
    invalid(`${path.basename(file)} in ${folder} cannot be read.`, '');
  }
  let raw: unknown;
  try {
    raw = parseStrictJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    if (err instanceof DuplicateKeyError) invalid(`${path.basename(file)}: ${err.message} Which one is meant is unclear, so it is refused.`, `${err.at}/${err.key}`);
    invalid(`${path.basename(file)} is not valid JSON: ${jsonProblem(text, (err as Error).message)}.`, '', 'Check the file with a JSON validator; spindle.json is plain JSON (no comments, no trailing commas).');
  }
  return validateManifest(raw, realFolder, file);
}

/**
 * The permissions of `permissions` an extension may be granted: known names it asks for, or any known name when the
 * person grants one its manifest does not ask for (`unrequested`); INVALID_INPUT with the index otherwise.
 */
export function grantable(manifest: ExtensionManifest, permissions: readonly string[], options: { unrequested?: boolean } = {}): ExtensionPermission[] {
  permissions.forEach((permission, index) => {
    if (!EXTENSION_PERMISSIONS.includes(permission as ExtensionPermission)) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `Unknown permission ${JSON.stringify(permission)}.`, path: `/permissions/${index}` });
    }
    // What the Workbench does not have is granted only as asked for (it does nothing here either way).
    if (options.unrequested && PERMISSIONS_NOT_AVAILABLE_HERE.includes(permission as ExtensionPermission) && !manifest.permissions.includes(permission as ExtensionPermission)) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The ${permission} permission is not available here.`, path: `/permissions/${index}` });
    }
    if (!options.unrequested && !manifest.permissions.includes(permission as ExtensionPermission)) {
      throw new HostFailure({
        code: 'INVALID_INPUT',
        message: `Extension "${manifest.id}" does not request the ${permission} permission.`,
        path: `/permissions/${index}`,
        hint: "To grant it anyway, use its card's Other permissions (or --unrequested on the command line).",
      });
    }
  });
  return [...new Set(permissions as ExtensionPermission[])];
}
