// Finding and reading an extension's test cases: `<dir>/tests/*.case.json` unless files are named, each checked
// against the published schema (the error names the field), and the checks a case asks for beside its snapshot.
import fs from 'node:fs';
import path from 'node:path';
import { ExtensionTestCaseSchema, type ExtensionTestCase, type TextOrPatternValue } from '../../../shared/types/extension-test';
import { compiledValidator, describeAjvError } from '../contract/validators';
import type { CaseSnapshot } from './run-case';

const validateCase = compiledValidator<ExtensionTestCase>(ExtensionTestCaseSchema);

/** A case file that cannot be used: `path` is the offending field (JSON pointer) or the file itself. */
export class CaseFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export function findCases(extensionDir: string, named: string[]): string[] {
  if (named.length) return named.map((file) => path.resolve(file));
  const dir = path.join(extensionDir, 'tests');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.case.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function readCase(file: string): ExtensionTestCase {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CaseFileError(file, `cannot read the case: ${(err as Error).message}`, '');
  }
  if (!validateCase(value)) {
    const { message, path: field } = describeAjvError(validateCase.errors?.[0], 'invalid');
    throw new CaseFileError(file, `the case is not valid: ${message}`, field || '/');
  }
  for (const [i, pattern] of patterns(value)) {
    try {
      new RegExp(pattern.regex, pattern.flags);
    } catch (err) {
      throw new CaseFileError(file, `the case is not valid: ${(err as Error).message}`, i);
    }
  }
  return value;
}

function patterns(c: ExtensionTestCase): Array<[string, { regex: string; flags?: string }]> {
  const out: Array<[string, { regex: string; flags?: string }]> = [];
  if (c.expect?.reply && typeof c.expect.reply !== 'string') out.push(['/expect/reply/regex', c.expect.reply]);
  if (c.expect?.stage && typeof c.expect.stage.text !== 'string') out.push(['/expect/stage/text/regex', c.expect.stage.text]);
  return out;
}

function matches(text: string, wanted: TextOrPatternValue): boolean {
  return typeof wanted === 'string' ? text.includes(wanted) : new RegExp(wanted.regex, wanted.flags).test(text);
}

const describeWanted = (wanted: TextOrPatternValue) => (typeof wanted === 'string' ? JSON.stringify(wanted) : `/${wanted.regex}/${wanted.flags ?? ''}`);

/** The case's own checks (`expect`) against what the run did: one line per check that failed. */
export function checkExpectations(c: ExtensionTestCase, run: CaseSnapshot): string[] {
  const failed: string[] = [];
  const { reply, calls, stage } = c.expect ?? {};
  if (reply !== undefined && !matches(run.reply.text, reply)) failed.push(`expect.reply: the reply does not match ${describeWanted(reply)}; it was ${JSON.stringify(run.reply.text.slice(0, 300))}`);
  if (calls !== undefined) {
    const made = run.toolCalls.map((t) => t.name);
    if (JSON.stringify(made) !== JSON.stringify(calls)) failed.push(`expect.calls: the calls were [${made.join(', ')}], not [${calls.join(', ')}]`);
  }
  if (stage !== undefined) {
    const ran = run.stages.filter((s) => s.stage === stage.name);
    if (!ran.length) failed.push(`expect.stage: no stage "${stage.name}" ran (stages: ${run.stages.map((s) => s.stage).join(', ')})`);
    else if (!ran.some((s) => matches(s.prompt ?? '', stage.text))) failed.push(`expect.stage: the prompt after stage "${stage.name}" does not match ${describeWanted(stage.text)}`);
  }
  return failed;
}
