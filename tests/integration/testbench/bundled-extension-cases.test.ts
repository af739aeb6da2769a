// The bundled extensions' own cases (resources/extensions/<id>/tests), run as an author runs them in CI: each
// passes against its committed snapshot — a change to an extension or to the turn it takes part in shows here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli-run';

const BUNDLED = path.resolve(import.meta.dirname, '../../../resources/extensions');

describe('the bundled extensions pass their own cases', () => {
  const extensions = fs.readdirSync(BUNDLED).filter((name) => fs.existsSync(path.join(BUNDLED, name, 'spindle.json')));

  it('there are three, each with cases and snapshots', () => {
    expect(extensions.sort()).toEqual(['dice-and-stats', 'knowledge-base', 'scratchpad']);
    for (const name of extensions) {
      const tests = path.join(BUNDLED, name, 'tests');
      const cases = fs.readdirSync(tests).filter((f) => f.endsWith('.case.json'));
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) expect(fs.existsSync(path.join(tests, '__snapshots__', `${JSON.parse(fs.readFileSync(path.join(tests, c), 'utf8')).name}.snap.json`))).toBe(true);
    }
  });

  it.each(['dice-and-stats', 'knowledge-base', 'scratchpad'])('%s', async (name) => {
    const run = await cli(['extensions', 'test', path.join(BUNDLED, name), '--json']);
    const summary = JSON.parse(run.out) as { cases: Array<{ name: string; status: string; diff?: string; failures?: string[] }> };
    expect(summary.cases.map((c) => [c.name, c.status, c.failures ?? [], c.diff ?? ''])).toEqual(summary.cases.map((c) => [c.name, 'passed', [], '']));
    expect(run.code).toBe(0);
  });
});
