// Where a door built into out/node/ (scripts/node-build.mjs) finds what the source tree finds beside its modules:
// the built worker runtime and build runner, and the repository's bundled extensions and packs.
import path from 'node:path';

/** Defined (true) by scripts/node-build.mjs; absent when the door runs from its TypeScript source. */
declare const __COUNCIL_NODE_BUILD__: boolean | undefined;

export interface BuiltPaths {
  workerEntry?: string;
  engineEntry?: string;
  bundledExtensionsDir?: string;
}

/** The built door's paths, or none from source (each module then finds its own). */
export function builtPaths(): BuiltPaths {
  if (typeof __COUNCIL_NODE_BUILD__ === 'undefined') return {};
  // out/node/ is two folders below the repository, as electron/headless/ is.
  return {
    workerEntry: path.join(import.meta.dirname, 'worker.js'),
    engineEntry: path.join(import.meta.dirname, 'engine.js'),
    bundledExtensionsDir: path.join(import.meta.dirname, '..', '..', 'resources', 'extensions'),
  };
}

/** Where the built doors keep Node's compile cache (beside the build, as scripts/cli.mjs does); none from source. */
export function compileCacheDir(): string | undefined {
  if (typeof __COUNCIL_NODE_BUILD__ === 'undefined') return undefined;
  return path.join(import.meta.dirname, '.compile-cache');
}
