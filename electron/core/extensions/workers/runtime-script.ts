// The worker runtime as one plain JavaScript file a contained worker can run.
//
// The desktop app ships it built (out/main/worker.js). From source (dev, tests, browser mode under
// tsx) the TypeScript runtime is bundled with esbuild: tsx's loader runs its hooks on a worker
// thread, which Node's permission model forbids, and a contained worker gets no threads. The bundle is
// written to a private folder of the data folder's, never the shared temp folder, where another local
// user could plant one.
import { createHash } from 'node:crypto';
import { writeFileAtomicSync } from '../../util/atomic-write';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The runtime's source file (electron/worker/runtime.ts). */
export function workerRuntimeSource(): string {
  return fileURLToPath(new URL('../../../worker/runtime.ts', import.meta.url));
}

const built = new Map<string, string>();
let fallbackDir: string | null = null;

/**
 * `dir` made ready to hold runtime bundles: created 0700, refused when it is a link, another user's, or
 * not a folder (a planted bundle there would run in every worker), and closed to others when it was not.
 */
export function privateRuntimeDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const owner = process.getuid?.();
  if (!stat.isDirectory() || (owner !== undefined && stat.uid !== owner)) {
    throw new Error(`The worker runtime folder ${dir} is not a folder of this user's; move it away and start again.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}

/**
 * A JavaScript file for `entry`: the entry itself when it is JavaScript, else a bundle written once per
 * content into the private folder `dir` (named by its hash, so processes share it and never see half a
 * file). Without a `dir`, a fresh private temp folder of this process's.
 */
export function runnableRuntime(entry: string, dir?: string): string {
  if (!entry.endsWith('.ts')) return entry;
  const folder = dir ? privateRuntimeDir(dir) : (fallbackDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'council-workbench-runtime-')));
  const key = `${folder}\0${entry}`;
  const cached = built.get(key);
  if (cached && fs.existsSync(cached)) return cached;
  // Required here: a built door (out/node) runs its built runtime and never loads esbuild for it.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent' });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = path.join(folder, `${path.basename(entry, '.ts')}-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    writeFileAtomicSync(file, code);
  }
  built.set(key, file);
  return file;
}
