// The worker runtime as one plain JavaScript file a contained worker can run.
//
// The desktop app ships it built (out/main/worker.js). From source (dev, tests, browser mode under
// tsx) the TypeScript runtime is bundled with esbuild: tsx's loader runs its hooks on a worker
// thread, which Node's permission model forbids, and a contained worker gets no threads.
import { createHash } from 'node:crypto';
import { writeFileAtomicSync } from '../util/atomic-write';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** The runtime's source file (electron/worker/runtime.ts). */
export function workerRuntimeSource(): string {
  return fileURLToPath(new URL('../../worker/runtime.ts', import.meta.url));
}

const built = new Map<string, string>();

/**
 * A JavaScript file for `entry`: the entry itself when it is JavaScript, else a bundle written once
 * per content into the temp folder (named by its hash, so processes share it and never see half a file).
 */
export function runnableRuntime(entry: string): string {
  if (!entry.endsWith('.ts')) return entry;
  const cached = built.get(entry);
  if (cached && fs.existsSync(cached)) return cached;
  const result = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent' });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'council-workbench-runtime');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `worker-${hash}.mjs`);
  if (!fs.existsSync(file)) {
    writeFileAtomicSync(file, code);
  }
  built.set(entry, file);
  return file;
}
