// Bun's `import.meta.require` in a published bundle (`var __require = import.meta.require;` is how Bun
// bundles CommonJS packages such as yaml). Node's import.meta has no require, and nothing can add one to
// a module it did not compile, so the installed copy says what Bun means: a require for that module,
// from Node's createRequire. The published files are never touched; only the installed copy changes.
import fs from 'node:fs';
import path from 'node:path';

const BUN_REQUIRE = /\bimport\.meta\.require\b/g;
const NODE_REQUIRE = 'globalThis.process.getBuiltinModule("node:module").createRequire(import.meta.url)';
const SCRIPT = /\.(?:m|c)?js$/i;
/** A script larger than this is no backend bundle; it is left as it is. */
const MAX_SCRIPT_BYTES = 32 * 1024 * 1024;

async function scripts(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await fs.promises.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && SCRIPT.test(entry.name) && !entry.parentPath.split(path.sep).includes('node_modules')) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

/** Rewrites `import.meta.require` in the installed copy's scripts; returns the files changed (relative). */
export async function rewriteBunRequire(folder: string, progress: (line: string) => void): Promise<string[]> {
  const changed: string[] = [];
  for (const file of await scripts(folder)) {
    if ((await fs.promises.stat(file)).size > MAX_SCRIPT_BYTES) continue;
    const text = await fs.promises.readFile(file, 'utf8');
    if (!BUN_REQUIRE.test(text)) continue;
    BUN_REQUIRE.lastIndex = 0;
    await fs.promises.writeFile(file, text.replace(BUN_REQUIRE, NODE_REQUIRE));
    changed.push(path.relative(folder, file));
  }
  if (changed.length) progress(`${changed.join(', ')} ${changed.length === 1 ? 'uses' : 'use'} Bun's import.meta.require; the installed copy uses Node's createRequire in its place.`);
  return changed;
}
