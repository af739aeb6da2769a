// The plain-Node doors (the CLI, browser mode) built with esbuild into out/node/, so no TypeScript compiler runs
// when a command starts. Rebuilt only when a source it was built from changed (or the installed packages did).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoBuiltinNamespaces, builtinImportsFor } from './builtin-imports.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(ROOT, 'out', 'node');
const MANIFEST = path.join(OUT_DIR, 'inputs.json');
/** What a build depends on besides its sources: the packages installed, and this script. */
const ALWAYS = ['package-lock.json', 'scripts/node-build.mjs', 'scripts/builtin-imports.mjs'];

/** True when out/node/ holds a build newer than every file it was made from. */
export function isFresh() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch {
    return false;
  }
  for (const file of [...ALWAYS, ...manifest.inputs]) {
    let stat;
    try {
      stat = fs.statSync(path.join(ROOT, file));
    } catch {
      return false;
    }
    if (stat.mtimeMs > manifest.builtAt) return false;
  }
  return true;
}

/** Builds the doors: entries share chunks; the worker runtime and the build runner are single files, as a contained process reads only its script. */
export async function buildNodeDoors() {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: OUT_DIR,
    metafile: true,
    logLevel: 'error',
    // Packages are built in too (loading hundreds of package files cost a command more than its work); esbuild and
    // node-llama-cpp stay outside: they run native builds that load from beside their package.
    external: ['esbuild', 'node-llama-cpp'],
    // A bundled CommonJS package may call require(); an ES module has none of its own.
    banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
    define: { __COUNCIL_NODE_BUILD__: 'true' },
    sourcemap: 'linked',
    // Written by us, each file atomically: a process already running from out/node never reads half a file.
    write: false,
  };
  const doorsOptions = {
    ...common,
    entryPoints: { cli: path.join(ROOT, 'electron/headless/cli.ts'), headless: path.join(ROOT, 'electron/headless/main.ts') },
    splitting: true,
    // Chunks sit beside the entries: every module's import.meta.dirname is out/node (electron/headless/built-paths.ts).
    chunkNames: '[name]-[hash]',
  };
  // The worker runtime takes its builtins itself (process.getBuiltinModule, before its lockdown): no plugin there.
  const doors = await build({ ...doorsOptions, plugins: [await builtinImportsFor(build, doorsOptions)] });
  assertNoBuiltinNamespaces(doors.outputFiles);
  // A worker under the permission model may read its own script only: everything it runs is in that one file.
  const workers = await build({
    ...common,
    entryPoints: { worker: path.join(ROOT, 'electron/worker/runtime.ts'), 'build-runner': path.join(ROOT, 'electron/worker/build-runner.ts') },
  });
  // The local model engine: one file (node-llama-cpp is imported from its package).
  const engine = await build({ ...common, entryPoints: { engine: path.join(ROOT, 'electron/local-model/engine-main.ts') } });
  const written = new Set();
  for (const file of [...doors.outputFiles, ...workers.outputFiles, ...engine.outputFiles]) {
    writeAtomic(file.path, file.contents);
    written.add(file.path);
  }
  pruneChunks(written);
  const inputs = [...new Set([doors, workers, engine].flatMap((result) => Object.keys(result.metafile.inputs)))]
    .filter((file) => !file.includes('node_modules') && !file.startsWith('node-builtin:'))
    .map((file) => path.relative(ROOT, path.resolve(ROOT, file)));
  writeAtomic(MANIFEST, JSON.stringify({ builtAt: startedAt, inputs }));
}

function writeAtomic(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

/**
 * Chunks are named by their content, so a rebuild leaves the ones a running process may still import. Those no
 * build has written for a day are removed; folders (Node's compile cache, .compile-cache) are not a build's.
 */
function pruneChunks(written) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const entry of fs.readdirSync(OUT_DIR, { withFileTypes: true })) {
    const file = path.join(OUT_DIR, entry.name);
    if (!entry.isFile() || file === MANIFEST || written.has(file)) continue;
    if (fs.statSync(file).mtimeMs < dayAgo) fs.rmSync(file, { force: true });
  }
}

/** Builds when anything changed since the last build; `note` hears a line when it does. */
export async function ensureNodeDoorsBuilt(note = () => {}) {
  if (isFresh()) return;
  note('Building the CLI and browser mode (out/node)…');
  await buildNodeDoors();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildNodeDoors();
