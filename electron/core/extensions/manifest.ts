// Reads and checks an extension's spindle.json; every problem is INVALID_MANIFEST with the field's path.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import { EXTENSION_PERMISSIONS, type ExtensionManifest, type ExtensionPermission } from '../../../shared/types/spindle';

export const MANIFEST_FILE = 'spindle.json';
export const EXTENSION_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{1,63}$/;
const VERSION_PATTERN = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:[-+][0-9A-Za-z.+-]{1,64})?$/;
const MAX_MANIFEST_BYTES = 64 * 1024;
const MAIN_EXTENSIONS = ['.js', '.mjs', '.cjs'];
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export interface LoadedManifest {
  manifest: ExtensionManifest;
  /** Real path of the extension folder. */
  folder: string;
  /** Absolute path of `main`, inside `folder`. */
  mainPath: string;
}

function invalid(message: string, fieldPath: string, hint?: string): never {
  throw new HostFailure({ code: 'INVALID_MANIFEST', message, path: fieldPath, ...(hint ? { hint } : {}) });
}

function requireText(doc: Record<string, unknown>, field: string, max: number, options: { allowEmpty?: boolean } = {}): string {
  const value = doc[field];
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

function checkMain(folder: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') invalid('"main" must be the relative path of a .js file.', '/main');
  if (value.length > 256 || value.includes('\0')) invalid('"main" is not a usable path.', '/main');
  if (path.isAbsolute(value) || path.win32.isAbsolute(value) || /^[a-zA-Z]:/.test(value)) {
    invalid('"main" must be relative to the extension folder.', '/main');
  }
  const resolved = path.resolve(folder, value);
  if (!isInside(folder, resolved)) invalid('"main" points outside the extension folder.', '/main', 'Keep the entry file inside the folder; ".." is not allowed.');
  if (!MAIN_EXTENSIONS.includes(path.extname(resolved).toLowerCase())) {
    invalid('"main" must be a plain JavaScript file (.js, .mjs or .cjs).', '/main');
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolved);
  } catch {
    invalid(`"main" file ${value} does not exist.`, '/main');
  }
  if (!stat.isFile()) invalid(`"main" (${value}) is not a file.`, '/main');
  // A symlink must not lead out of the folder either.
  if (!isInside(folder, fs.realpathSync(resolved))) invalid('"main" resolves outside the extension folder.', '/main');
  return resolved;
}

function checkPermissions(value: unknown): ExtensionPermission[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) invalid('"permissions" must be an array.', '/permissions');
  const permissions: ExtensionPermission[] = [];
  value.forEach((item, index) => {
    if (typeof item !== 'string' || !EXTENSION_PERMISSIONS.includes(item as ExtensionPermission)) {
      invalid(
        `Unknown permission ${JSON.stringify(item)}.`,
        `/permissions/${index}`,
        `Known permissions: ${EXTENSION_PERMISSIONS.join(', ')}.`,
      );
    }
    if (!permissions.includes(item as ExtensionPermission)) permissions.push(item as ExtensionPermission);
  });
  return permissions;
}

/** Checks a parsed spindle.json against the folder it came from. */
export function validateManifest(raw: unknown, folder: string): LoadedManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) invalid(`${MANIFEST_FILE} must hold a JSON object.`, '');
  const doc = raw as Record<string, unknown>;
  const id = doc.id;
  if (typeof id !== 'string' || !EXTENSION_ID_PATTERN.test(id)) {
    invalid('"id" must be 2–64 characters of a-z, 0-9 and "-", starting with a letter or digit.', '/id');
  }
  const name = requireText(doc, 'name', 100);
  const version = requireText(doc, 'version', 80);
  if (!VERSION_PATTERN.test(version)) invalid('"version" must look like 1.2.3.', '/version');
  const description = requireText(doc, 'description', 1000, { allowEmpty: true });
  const mainPath = checkMain(folder, doc.main);
  const permissions = checkPermissions(doc.permissions);
  return {
    manifest: { id, name: name.trim(), version, description, main: doc.main as string, permissions },
    folder,
    mainPath,
  };
}

/** Reads `<folder>/spindle.json`. Throws HostFailure(INVALID_MANIFEST) with the offending field's path. */
export function readManifest(folder: string): LoadedManifest {
  let realFolder: string;
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    invalid(`Extension folder ${folder} does not exist.`, '');
  }
  const file = path.join(realFolder, MANIFEST_FILE);
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) invalid(`${MANIFEST_FILE} is not a file.`, '');
    if (stat.size > MAX_MANIFEST_BYTES) invalid(`${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES} bytes.`, '');
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof HostFailure) throw err;
    invalid(`No ${MANIFEST_FILE} in ${folder}.`, '', 'An extension folder needs a spindle.json with id, name, version, description, main and permissions.');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    invalid(`${MANIFEST_FILE} is not valid JSON (${(err as Error).message}).`, '');
  }
  return validateManifest(raw, realFolder);
}
