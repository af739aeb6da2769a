// CLI benchmark: how long a command takes from the shell to its answer, as `npm run cli` runs it (scripts/cli.mjs,
// the CLI built into out/node), for commands that only read the data folder and for `tools list` (which starts the
// bundled extensions), beside a bare `node -e 0` measured in the same run. npm's own start (~0.3 s) is left out.
// Targets (issue 35): data-only ≤ 0.3 s and ≤ 2.5× node; tools list ≤ 1 s.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cleanupTempDirs, tempDir } from '../helpers/temp-dir';
import { median, round, table } from './stats';

const ROUNDS = 5;
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'scripts', 'cli.mjs');

/** Wall-clock seconds of one run of `command args`, which must succeed. */
function timed(command: string, args: string[]): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${run.status}): ${run.stderr.slice(0, 300)}`);
  return seconds;
}

export async function cliBenchmark(opts: { json: boolean }): Promise<unknown> {
  const dataDir = tempDir('cw-bench-cli-');
  try {
    const cli = (...args: string[]) => () => timed(process.execPath, [CLI, ...args, '--data-dir', dataDir]);
    const cases: Array<{ name: string; run: () => number; target: string; limit: number | null }> = [
      { name: 'node -e 0 (baseline)', run: () => timed(process.execPath, ['-e', '0']), target: '', limit: null },
      { name: 'status', run: cli('status'), target: '≤ 0.3 s, ≤ 2.5× node', limit: 0.3 },
      { name: 'packs list', run: cli('packs', 'list'), target: '≤ 0.3 s', limit: 0.3 },
      { name: 'sessions list', run: cli('sessions', 'list'), target: '≤ 0.3 s', limit: 0.3 },
      { name: 'tools list (3 bundled extensions)', run: cli('tools', 'list'), target: '≤ 1 s', limit: 1 },
    ];
    // The first run builds out/node when a source changed, and warms the file and compile caches; it is not counted.
    for (const c of cases) c.run();
    const seconds = cases.map((c) => median(Array.from({ length: ROUNDS }, () => c.run())));
    const node = seconds[0]!;
    const rows = cases.map((c, i) => ({
      command: c.name,
      'median s': round(seconds[i]!, 2),
      '× node': round(seconds[i]! / node, 1),
      target: c.target,
      met: c.limit === null ? '' : seconds[i]! <= c.limit ? 'yes' : 'no',
    }));
    if (!opts.json) console.log(table(rows));
    return { rounds: ROUNDS, rows };
  } finally {
    cleanupTempDirs();
  }
}
