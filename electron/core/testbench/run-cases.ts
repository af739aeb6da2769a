// An extension's cases, one after another: each run is compared with its saved snapshot (or saves it: the first
// run, or --update), and checked against its own expectations.
import fs from 'node:fs';
import path from 'node:path';
import { CaseFileError, checkExpectations, readCase } from './case-file';
import { CaseSetupError, runCase, type Forward, type StartHost } from './run-case';
import { compareSnapshot, stableJson } from './snapshot';

export interface CaseResult {
  name: string;
  file: string;
  snapshot: string;
  ms: number;
  /** passed; failed (a diff or an expectation); written (first run) or updated (--update); error (could not run). */
  status: 'passed' | 'failed' | 'written' | 'updated' | 'error';
  where?: string[];
  diff?: string;
  failures?: string[];
  error?: { message: string; field?: string };
}

export interface RunCasesOptions {
  extensionDir: string;
  caseFiles: string[];
  /** Take what this run did as the snapshot. */
  update: boolean;
  /** CI: a case without its snapshot fails instead of writing one (a snapshot never committed, a renamed case). */
  ci?: boolean;
  startHost: StartHost;
  /** Record each case's answers from a real model into its cassette. */
  record?: Forward;
  progress?: (line: string) => void;
}

export async function runCases(options: RunCasesOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const names = new Map<string, string>();
  for (const file of options.caseFiles) {
    const started = performance.now();
    const base = { file, name: path.basename(file, '.case.json'), snapshot: '' };
    try {
      const testCase = readCase(file);
      const other = names.get(testCase.name);
      if (other) throw new CaseFileError(file, `the case is not valid: ${path.basename(other)} has the name "${testCase.name}" too (each names its own snapshot).`, '/name');
      names.set(testCase.name, file);
      const snapshot = path.join(path.dirname(file), '__snapshots__', `${testCase.name}.snap.json`);
      options.progress?.(`… ${testCase.name}`);
      const { snapshot: run, cassette } = await runCase({ extensionDir: options.extensionDir, caseFile: file, testCase, startHost: options.startHost, ...(options.record ? { record: options.record } : {}) });
      const result: CaseResult = { ...base, name: testCase.name, snapshot, ms: 0, status: 'passed' };
      const failures = [...checkExpectations(testCase, run), ...(cassette?.notes ?? [])];
      const saved = fs.existsSync(snapshot) ? fs.readFileSync(snapshot, 'utf8') : null;
      if (saved === null && options.ci) {
        failures.push(`no snapshot ${path.relative(options.extensionDir, snapshot)}: run without --ci to write it, and commit it`);
      } else if (saved === null || options.update) {
        const text = stableJson(run);
        if (saved !== text) {
          fs.mkdirSync(path.dirname(snapshot), { recursive: true });
          fs.writeFileSync(snapshot, text);
          result.status = saved === null ? 'written' : 'updated';
        }
      } else {
        const difference = compareSnapshot(saved, run, path.basename(snapshot));
        if (difference) Object.assign(result, { status: 'failed', where: difference.where, diff: difference.diff });
      }
      if (cassette?.diff) result.diff = `${result.diff ?? ''}${cassette.diff}`;
      if (failures.length) Object.assign(result, { status: 'failed', failures });
      results.push({ ...result, ms: Math.round(performance.now() - started) });
    } catch (err) {
      const error =
        err instanceof CaseFileError
          ? { message: `${path.basename(err.file)}: ${err.message}`, ...(err.field ? { field: err.field } : {}) }
          : err instanceof CaseSetupError
            ? { message: err.message, ...(err.error.path ? { field: err.error.path } : {}) }
            : { message: (err as Error).message };
      results.push({ ...base, ms: Math.round(performance.now() - started), status: 'error', error });
    }
  }
  return results;
}
