// Unit tests build only the part they test: a test that needs a whole host (its doors, its services, a worker) is an
// integration test and lives in tests/integration. And tests assert behaviour, not how often the code ran JSON or timers.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** Modules that build a whole host. */
const WHOLE_HOST = /(?:electron\/core\/host|electron\/headless\/node-host|helpers\/node-host|integration\/.*helpers)$/;

/** What a file imports, statically or with import(): read from its syntax, so a path inside a string is no import. */
function importsOf(file: string, source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}
/** Spying on JSON or the timer functions to count calls. */
const COUNTING = /spyOn\((?:JSON|globalThis|global|window),\s*'(?:stringify|parse|setTimeout|setInterval)'\)/;

export function unitScopeProblems(sources: Record<string, string>): string[] {
  return Object.entries(sources).flatMap(([file, source]) => [
    ...(file.startsWith('tests/unit/') && importsOf(file, source).some((spec) => WHOLE_HOST.test(spec)) ? [`${file} builds a whole host`] : []),
    ...(COUNTING.test(source) ? [`${file} counts JSON or timer calls`] : []),
  ]);
}

describe('test scope', () => {
  it('no unit test builds a whole host, and no test counts JSON or timer calls', () => {
    const all = [...files('tests/unit'), ...files('tests/integration'), ...files('tests/renderer')].filter((f) => f !== path.join('tests', 'unit', 'build', 'unit-scope.test.ts'));
    expect(unitScopeProblems(Object.fromEntries(all.map((f) => [f.split(path.sep).join('/'), fs.readFileSync(f, 'utf8')])))).toEqual([]);
  });

  it('the check catches each', () => {
    expect(unitScopeProblems({ 'tests/unit/a.test.ts': "import { testHost } from '../helpers/node-host';" })).toEqual(['tests/unit/a.test.ts builds a whole host']);
    expect(unitScopeProblems({ 'tests/unit/b.test.ts': 'import {\n  createHost,\n} from "../../../electron/core/host";' })).toEqual(['tests/unit/b.test.ts builds a whole host']);
    expect(unitScopeProblems({ 'tests/unit/c.test.ts': "const { testHost } = await import('../../helpers/node-host');" })).toEqual(['tests/unit/c.test.ts builds a whole host']);
    expect(unitScopeProblems({ 'tests/unit/d.test.ts': "const text = \"import { createHost } from '../../electron/core/host';\";" })).toEqual([]);
    expect(unitScopeProblems({ 'tests/integration/a.test.ts': "import { testHost } from '../helpers/node-host';" })).toEqual([]);
    expect(unitScopeProblems({ 'tests/integration/b.test.ts': "vi.spyOn(JSON, 'stringify')" })).toEqual(['tests/integration/b.test.ts counts JSON or timer calls']);
    expect(unitScopeProblems({ 'tests/unit/c.test.ts': "vi.spyOn(globalThis, 'setTimeout')" })).toEqual(['tests/unit/c.test.ts counts JSON or timer calls']);
  });
});
