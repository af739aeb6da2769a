// The worker runtime as one JavaScript file a contained process can run, and the files it reads.
//
// From source the runtime is TypeScript. A loader such as tsx cannot run in a contained worker: it
// compiles through esbuild's service, a child process the permission model forbids. So the host
// bundles the source once with esbuild (a development dependency, present whenever the source runs)
// into a file named by its content, and the worker runs that. The desktop app runs the runtime
// electron-vite built (out/main/worker.js and the chunks beside it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The runtime's source file, for running from source (dev, tests, headless under tsx). */
export function workerRuntimeSource(): string {
  return fileURLToPath(new URL('../../worker/runtime.ts', import.meta.url));
}

interface EsbuildApi {
  buildSync(options: Record<string, unknown>): { outputFiles: Array<{ text: string }> };
}

const bundled = new Map<string, string>();

function bundle(source: string): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as EsbuildApi;
  const { outputFiles } = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const text = outputFiles[0]!.text;
  const dir = path.join(os.tmpdir(), `council-workbench-runtime-${os.userInfo().uid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `worker-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    // Several hosts may bundle at once: each writes its own temp file and renames it into place.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o600 });
    fs.renameSync(temp, file);
  }
  return file;
}

export interface RuntimeScript {
  /** The file the worker process runs. */
  file: string;
  /** What the worker must be able to read to run it. */
  files: string[];
}

/** A TypeScript entry is bundled (once per process and source); a built one runs as it is, with its chunks. */
export function runtimeScript(entry: string): RuntimeScript {
  if (!entry.endsWith('.ts')) return { file: entry, files: [path.dirname(entry)] };
  let file = bundled.get(entry);
  if (!file) {
    file = bundle(entry);
    bundled.set(entry, file);
  }
  return { file, files: [file] };
}
