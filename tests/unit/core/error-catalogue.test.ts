// One error catalogue: every code the Workbench itself writes into an error (a `code:` / `errorCode:` literal, a
// `fail('…')`) is listed in shared/errors.ts, and every notice code in shared/notices.ts. A code written anywhere
// else fails here, naming the file. (Extension tools may still answer codes of their own: those pass through.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../shared/errors';
import { NOTICE_CODES } from '../../../shared/notices';

/** Node's own error codes, set on Error objects the way Node sets them (not host errors). */
const NODE_STYLE = new Set(['ERR_ACCESS_DENIED', 'ENOENT', 'ELOCKED', 'MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);
const ROOTS = ['electron', 'shared', 'renderer/src'];
const WRITTEN = /(?:\bcode|\berrorCode)\s*:\s*'([A-Z][A-Z0-9_]+)'|\bfail\(\s*'([A-Z][A-Z0-9_]+)'/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the error catalogue', () => {
  const known = new Set<string>([...ERROR_CODES, ...NOTICE_CODES, ...NODE_STYLE]);
  const written = new Map<string, string>();
  for (const file of ROOTS.flatMap(sources)) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(WRITTEN)) written.set(match[1] ?? match[2]!, file);
  }

  it('lists every code the source writes', () => {
    expect(written.size).toBeGreaterThan(40);
    const unknown = [...written].filter(([code]) => !known.has(code)).map(([code, file]) => `${code} (${file})`);
    expect(unknown).toEqual([]);
  });

  it('lists each code once, and error and notice codes do not overlap', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(NOTICE_CODES.filter((c) => (ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
  });
});
