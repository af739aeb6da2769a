// Runs the benchmarks' TypeScript compiled as the app build compiles it: esbuild without `keepNames`.
// tsx keeps names by wrapping every function the code creates in a call that sets its `name`; on a
// tool call's path that is a measurable share of the cost, and the shipped main bundle has none of it.
import { readFile } from 'node:fs/promises';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { transform } from 'esbuild';

// `node --import` runs this file on the main thread; Node then loads it again as the hooks below.
if (isMainThread) register(import.meta.url);

const TS = /\.tsx?$/;
const UNRESOLVED = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);

/** The project's imports leave out `.ts` and `/index.ts` (as bundlers allow): try those when the plain path does not resolve. */
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const relative = specifier.startsWith('.') || specifier.startsWith('/');
    if (!UNRESOLVED.has(error?.code) || !relative || !context.parentURL || !TS.test(context.parentURL)) throw error;
    for (const suffix of ['.ts', '.tsx', '/index.ts']) {
      try {
        return await next(specifier + suffix, context);
      } catch {
        // not this one
      }
    }
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !TS.test(url)) return next(url, context);
  const file = fileURLToPath(url);
  const { code } = await transform(await readFile(file, 'utf8'), {
    loader: file.endsWith('x') ? 'tsx' : 'ts',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    sourcefile: file,
    sourcemap: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
