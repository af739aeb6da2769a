// CLI benchmark: how long a command takes from the shell to its answer, as `npm run cli` runs it (scripts/cli.mjs,
// the CLI built into out/node), for commands that only read the data folder and for `tools list` (which starts the
// bundled extensions), beside a bare `node -e 0` measured in the same run. npm's own start (~0.3 s) is left out.
// Targets (issue 35): data-only ≤ 0.3 s and ≤ 2.5× node; tools list ≤ 1 s.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
    const cases: Array<{ name: string; run: () => number; target: string; limit: number | null; ratio?: number }> = [
      { name: 'node -e 0 (baseline)', run: () => timed(process.execPath, ['-e', '0']), target: '', limit: null },
      { name: 'status', run: cli('status'), target: '≤ 0.3 s, ≤ 2.5× node', limit: 0.3, ratio: 2.5 },
      { name: 'packs list', run: cli('packs', 'list'), target: '≤ 0.3 s', limit: 0.3 },
      { name: 'sessions list', run: cli('sessions', 'list'), target: '≤ 0.3 s', limit: 0.3 },
      { name: 'council show', run: cli('council', 'show'), target: '≤ 0.3 s', limit: 0.3 },
      { name: 'tools list (3 bundled extensions)', run: cli('tools', 'list'), target: '≤ 1 s', limit: 1 },
    ];
    // The first run builds out/node when a source changed, and warms the file and compile caches; it is not counted.
    for (const c of cases) c.run();
    const seconds = cases.map((c) => median(Array.from({ length: ROUNDS }, () => c.run())));
    // The same commands while browser mode runs on the folder: the CLI hands them to the app over its socket.
    const app = await startBrowserMode(dataDir);
    try {
      for (const c of cases.slice(1)) {
        const viaApp = { ...c, name: `${c.name} (app running)` };
        viaApp.run();
        cases.push(viaApp);
        seconds.push(median(Array.from({ length: ROUNDS }, () => viaApp.run())));
      }
    } finally {
      app.kill('SIGTERM');
    }
    const node = seconds[0]!;
    const rows = cases.map((c, i) => ({
      command: c.name,
      'median s': round(seconds[i]!, 2),
      '× node': round(seconds[i]! / node, 1),
      target: c.target,
      met: c.limit === null ? '' : seconds[i]! <= c.limit && (c.ratio === undefined || seconds[i]! <= c.ratio * node) ? 'yes' : 'no',
    }));
    if (!opts.json) console.log(table(rows));
    return { rounds: ROUNDS, rows };
  } finally {
    cleanupTempDirs();
  }
}

/** Browser mode on `dataDir` (the built door, or `script` such as scripts/start.mjs), once it says it is ready; killed by the caller. */
export async function startBrowserMode(dataDir: string, script = path.join(ROOT, 'out', 'node', 'headless.js')): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script, '--port', '0', '--no-open', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`browser mode did not start: ${output.slice(0, 300)}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited (${code}): ${output.slice(0, 300)}`));
    });
  });
  return child;
}
