// `npm run cli` runs the CLI built into out/node (scripts/node-build.mjs), not its TypeScript: a real shell-style
// run of scripts/cli.mjs. A data-only command answers from the folder; `tools list` starts the bundled extensions
// from the built worker runtime; a source newer than the build makes the next command build again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const MANIFEST = path.join(ROOT, 'out', 'node', 'inputs.json');

function cli(args: string[]) {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'cli.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('the built CLI', () => {
  it('answers status from the data folder and lists the bundled extensions’ tools', () => {
    const dataDir = tempDir();
    const status = cli(['status', '--json', '--data-dir', dataDir]);
    expect(status.code, status.err).toBe(0);
    const value = JSON.parse(status.out) as { dataDir: string; toolSourcesStarted?: boolean };
    expect(value.dataDir).toBe(fs.realpathSync(dataDir));
    expect(value.toolSourcesStarted).toBe(false);

    const tools = cli(['tools', 'list', '--json', '--data-dir', dataDir]);
    expect(tools.code, tools.err).toBe(0);
    const names = (JSON.parse(tools.out) as Array<{ qualifiedName: string; source: string }>).filter((t) => t.source === 'extension').map((t) => t.qualifiedName);
    // Each bundled extension registers its tools from out/node/worker.js.
    const bundled = fs.readdirSync(path.join(ROOT, 'resources', 'extensions'));
    for (const id of bundled) expect(names.some((name) => name.startsWith(`${id}:`)), id).toBe(true);
  });

  it('builds again when a source it was built from is newer than the build', () => {
    expect(cli(['status', '--json', '--data-dir', tempDir()]).code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { builtAt: number; inputs: string[] };
    expect(manifest.inputs).toContain(path.join('electron', 'headless', 'cli.ts'));
    // Touch nothing in the tree: mark the build as older than its sources instead.
    fs.writeFileSync(MANIFEST, JSON.stringify({ ...manifest, builtAt: 0 }));
    const again = cli(['status', '--json', '--data-dir', tempDir()]);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('Building the CLI');
    expect((JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { builtAt: number }).builtAt).toBeGreaterThan(0);
  });

  it('a rebuild leaves the compile cache folder alone, however old it is', () => {
    expect(cli(['status', '--json', '--data-dir', tempDir()]).code).toBe(0);
    const cache = path.join(ROOT, 'out', 'node', '.compile-cache');
    fs.mkdirSync(cache, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    fs.utimesSync(cache, twoDaysAgo, twoDaysAgo);
    const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as { builtAt: number };
    fs.writeFileSync(MANIFEST, JSON.stringify({ ...manifest, builtAt: 0 }));
    const again = cli(['status', '--json', '--data-dir', tempDir()]);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('Building the CLI');
    expect(fs.statSync(cache).isDirectory()).toBe(true);
  });

  it('an unknown command is an error document and exit 1, as from source', () => {
    const run = cli(['no-such-command', '--json']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.out) as { error: { code: string } }).error.code).toBe('UNKNOWN_METHOD');
  });
});
