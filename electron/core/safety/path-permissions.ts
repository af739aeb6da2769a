// Path permissions (seed 003): canonicalize the path arguments a tool declares, then check them against prefix lists.
//
// A path is normalized before any check — backslashes become slashes, `.`/`..` are resolved the POSIX
// way — so `Journal/../../etc` cannot pass as "inside Journal". Relative paths are relative to the
// notes root and may never climb out of it; absolute paths pass only under an allowed absolute prefix;
// URL-like values (`file:`, `http:`, `javascript:`, drive letters) and NUL/control characters never pass.
// The normalized value replaces the argument, so what was checked is what the tool receives (and what
// an approval shows): the kernel resolves `link/..` through a symlink, posix.normalize does not.
import path from 'node:path';
import type { HostError, Result } from '../../../shared/errors';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';

export interface NormalizedPath {
  kind: 'relative' | 'absolute';
  /** Relative: no leading `./`, no trailing `/`, "" for the root itself. Absolute: posix-normalized. */
  path: string;
}

/** One set of prefix lists a call must satisfy (a council member, the Workbench). Absent list = unrestricted. */
export interface PathScope {
  label: string;
  allowedReadPaths?: readonly string[] | undefined;
  allowedWritePaths?: readonly string[] | undefined;
}

const MAX_PATH_CHARS = 4096;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function denied(message: string, pathField: string, hint?: string): { ok: false; error: HostError } {
  return { ok: false, error: { code: 'PATH_NOT_ALLOWED', message, path: pathField, ...(hint ? { hint } : {}) } };
}

export function normalizeToolPath(raw: unknown, field = ''): Result<NormalizedPath> {
  if (typeof raw !== 'string') return denied(`Path argument ${field} must be a string.`, field);
  if (raw.length > MAX_PATH_CHARS) return denied(`Path argument ${field} is longer than ${MAX_PATH_CHARS} characters.`, field);
  if (CONTROL.test(raw)) return denied(`Path argument ${field} contains a NUL or control character.`, field);
  const slashed = raw.replace(/\\/g, '/');
  if (URL_LIKE.test(slashed)) {
    return denied(`Path argument ${field} looks like a URL or a drive path (${JSON.stringify(slashed.slice(0, 40))}); only paths are allowed.`, field);
  }
  if (slashed.startsWith('/')) {
    let normalized = path.posix.normalize(slashed);
    if (normalized.length > 1 && normalized.endsWith('/')) normalized = normalized.slice(0, -1);
    return { ok: true, value: { kind: 'absolute', path: normalized } };
  }
  let normalized = path.posix.normalize(slashed === '' ? '.' : slashed);
  if (normalized === '..' || normalized.startsWith('../')) {
    return denied(`Path argument ${field} climbs out of the notes folder ("${raw.slice(0, 200)}").`, field, 'Use a path inside the notes folder.');
  }
  if (normalized === '.' || normalized === './') normalized = '';
  if (normalized.startsWith('./')) normalized = normalized.slice(2);
  if (normalized.endsWith('/')) normalized = normalized.slice(0, -1);
  return { ok: true, value: { kind: 'relative', path: normalized } };
}

/** Invalid prefixes (URL-like, escaping) are ignored: they can only narrow, never widen, access. */
function normalizePrefixes(list: readonly string[]): NormalizedPath[] {
  const out: NormalizedPath[] = [];
  for (const item of list) {
    const n = normalizeToolPath(item);
    if (n.ok) out.push(n.value);
  }
  return out;
}

/** Segment-aware: prefix `Journal` covers `Journal` and `Journal/x`, not `Journal-private`. */
function covers(prefix: NormalizedPath, target: NormalizedPath): boolean {
  if (prefix.kind !== target.kind) return false;
  if (prefix.path === '' || prefix.path === '/') return true;
  return target.path === prefix.path || target.path.startsWith(`${prefix.path}/`);
}

function allowedBy(list: readonly string[] | undefined, target: NormalizedPath): boolean {
  // No list: relative paths (inside the notes root) are fine; an absolute path needs an explicit prefix.
  if (list === undefined) return target.kind === 'relative';
  return normalizePrefixes(list).some((prefix) => covers(prefix, target));
}

function paramNames(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Checks every declared path argument against every scope; a write path needs read and write access.
 * Returns the arguments with those values normalized (a fresh object; the input is not changed).
 */
export function checkToolPaths(
  definition: Pick<ToolRegistrationDTO, 'read_path_param' | 'write_path_param'>,
  args: Record<string, unknown>,
  scopes: readonly PathScope[],
): Result<Record<string, unknown>> {
  const reads = paramNames(definition.read_path_param);
  const writes = paramNames(definition.write_path_param);
  if (reads.length === 0 && writes.length === 0) return { ok: true, value: args };
  const out: Record<string, unknown> = { ...args };
  const check = (param: string, write: boolean): HostError | null => {
    const value = args[param];
    if (value === undefined) return null;
    const items = Array.isArray(value) ? value : [value];
    const normalizedItems: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const field = Array.isArray(value) ? `/${param}/${i}` : `/${param}`;
      const n = normalizeToolPath(items[i], field);
      if (!n.ok) return n.error;
      for (const scope of scopes) {
        const readOk = allowedBy(scope.allowedReadPaths, n.value);
        const writeOk = !write || allowedBy(scope.allowedWritePaths, n.value);
        if (!readOk || !writeOk) {
          const shown = n.value.kind === 'relative' ? n.value.path || '(the notes folder)' : n.value.path;
          return {
            code: 'PATH_NOT_ALLOWED',
            message: `${scope.label} may not ${write ? (readOk ? 'write' : 'read or write') : 'read'} "${shown.slice(0, 300)}".`,
            path: field,
            hint:
              n.value.kind === 'absolute'
                ? 'Absolute paths need an allowed absolute prefix; use a path relative to the notes folder.'
                : `Use a path under one of the allowed ${write && readOk ? 'write' : 'read'} prefixes.`,
          };
        }
      }
      normalizedItems.push(n.value.path);
    }
    out[param] = Array.isArray(value) ? normalizedItems : normalizedItems[0];
    return null;
  };
  for (const param of writes) {
    const error = check(param, true);
    if (error) return { ok: false, error };
  }
  for (const param of reads) {
    if (writes.includes(param)) continue;
    const error = check(param, false);
    if (error) return { ok: false, error };
  }
  return { ok: true, value: out };
}
