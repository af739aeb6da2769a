// The CLI as `npm run cli` runs it: built into out/node from the current sources (scripts/node-build.mjs rebuilds
// only what changed). Tests that start many CLI processes use it: a built command starts in a fraction of the time
// TypeScript through tsx takes, so twenty at once measure the settings lock, not the compiler.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Brings out/node up to date with the sources; returns the built CLI's entry. */
export function builtCli(): string {
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'node-build.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(`The CLI build failed: ${build.stderr || build.stdout}`);
  return path.join(ROOT, 'out', 'node', 'cli.js');
}
