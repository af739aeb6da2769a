// docs/security-cases.md stays true: every adversarial case it lists (security.md §8, B1–B9 of containment round two, F1–F8 of extension frontends, round three) is named by a test title
// that starts with its id ("R15: …", "S3, S5: …"), and every test file it cites exists.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const table = fs.readFileSync(path.join(ROOT, 'docs', 'security-cases.md'), 'utf8');
const caseIds = [...table.matchAll(/^\| ([RAWSXCBFENKTDGH]\d{1,2}) \|/gm)].map((m) => m[1]!);

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(full);
    return /\.(test|spec)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Ids a title names at its start: `it('R1, R2: …'`, `it.each(…)('S8: %s …'`, `describe("W5: …"`. */
function namedIds(): Set<string> {
  const ids = new Set<string>();
  const title = /\b(?:it|test|describe)(?:\.(?:each|runIf|skipIf)\([\s\S]*?\))?\(\s*['"`]((?:[RAWSXCBFENKTDGH]\d{1,2}, )*[RAWSXCBFENKTDGH]\d{1,2}): /g;
  for (const file of testFiles(path.join(ROOT, 'tests'))) {
    for (const match of fs.readFileSync(file, 'utf8').matchAll(title)) for (const id of match[1]!.split(', ')) ids.add(id);
  }
  return ids;
}

describe('the security cases table', () => {
  it('lists the 63 cases of security.md §8, the 9 of containment round two, the 8 of extension frontends, the 10 of round three, the 7 of regex scripts and the 1 of HTML in messages once each', () => {
    expect(caseIds).toHaveLength(98);
    expect(new Set(caseIds).size).toBe(98);
  });

  it('every case is named at the start of at least one test title', () => {
    const named = namedIds();
    expect(caseIds.filter((id) => !named.has(id))).toEqual([]);
  });

  it('every test file it cites exists', () => {
    const cited = new Set([...table.matchAll(/`(tests\/[^`\s]+\.(?:test|spec)\.tsx?)`/g)].map((m) => m[1]!));
    expect(cited.size).toBeGreaterThan(30);
    expect([...cited].filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
