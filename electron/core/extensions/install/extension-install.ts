// Preparing an extension for install: a bounded copy off the host thread, the fixes Lumiverse's Bun
// does not need (an empty package.json, Bun's import.meta.require), the build of src/backend.ts, and
// the storage seed files.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../../shared/errors';
import { rewriteBunRequire } from './bun-require';
import { buildExtensionEntry, type BuildRunner } from './extension-build';
import { frameLabel } from '../../../../shared/frames/frame-origin';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { grantable, readManifest, type LoadedManifest } from './manifest';

export const INSTALL_LIMITS = {
  /** Files and folders together: 20,000 empty folders are as much work as 20,000 files. */
  maxEntries: 5000,
  maxBytes: 100 * 1024 * 1024,
  maxDepth: 32,
};

function tooLarge(message: string): HostFailure {
  return new HostFailure({ code: 'INPUT_TOO_LARGE', message, path: '/folder' });
}

/**
 * Copies `from` into the empty folder `to` with fs.promises (the work runs on libuv's threads, the
 * host's event loop stays free). Symlinks and special files are skipped; more than
 * INSTALL_LIMITS.maxEntries entries, maxBytes bytes or maxDepth levels fail with INPUT_TOO_LARGE.
 */
export async function copyExtensionFolder(from: string, to: string, limits = INSTALL_LIMITS): Promise<{ entries: number; bytes: number }> {
  let entries = 0;
  let bytes = 0;
  const walk = async (src: string, dst: string, depth: number): Promise<void> => {
    if (depth > limits.maxDepth) throw tooLarge(`The extension folder is nested more than ${limits.maxDepth} levels deep.`);
    for (const dirent of await fs.promises.readdir(src, { withFileTypes: true })) {
      if (!dirent.isDirectory() && !dirent.isFile()) continue;
      if (++entries > limits.maxEntries) throw tooLarge(`The extension folder has more than ${limits.maxEntries} files and folders.`);
      const s = path.join(src, dirent.name);
      const d = path.join(dst, dirent.name);
      if (dirent.isDirectory()) {
        await fs.promises.mkdir(d);
        await walk(s, d, depth + 1);
        continue;
      }
      bytes += (await fs.promises.stat(s)).size;
      if (bytes > limits.maxBytes) throw tooLarge(`The extension folder holds more than ${limits.maxBytes / 1024 / 1024} MB.`);
      await fs.promises.copyFile(s, d);
    }
  };
  await walk(from, to, 0);
  return { entries, bytes };
}

/**
 * Bun reads an empty or broken package.json as "no package.json"; Node refuses to load anything
 * beside one. The installed copy gets `{}` instead (there was nothing in it to keep).
 */
async function repairPackageJson(folder: string, progress: (line: string) => void): Promise<void> {
  const file = path.join(folder, 'package.json');
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    return;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return;
  } catch {
    // replaced below
  }
  await fs.promises.writeFile(file, '{}\n');
  progress(`package.json was ${text.trim() === '' ? 'empty' : 'not a JSON object'}; the installed copy has {} instead (Node cannot load an extension beside it).`);
}

/**
 * Makes `staging` (a fresh copy) ready to run: repairs, builds the entry when only src/backend.ts
 * ships, and returns the manifest as it will run.
 */
export async function prepareStaging(staging: string, runner: BuildRunner, progress: (line: string) => void): Promise<LoadedManifest> {
  await repairPackageJson(staging, progress);
  const loaded = readManifest(staging);
  if (loaded.buildSource) await buildExtensionEntry(loaded.folder, loaded.buildSource, loaded.mainPath, progress, runner);
  if (loaded.frontend?.buildSource) await buildExtensionEntry(loaded.folder, loaded.frontend.buildSource, loaded.frontend.path, progress, runner, 'browser');
  await rewriteBunRequire(loaded.folder, progress);
  return loaded.buildSource || loaded.frontend?.buildSource ? readManifest(staging) : loaded;
}

function inside(parent: string, child: string, orSame = false): boolean {
  const relative = path.relative(parent, child);
  return (relative !== '' || orSame) && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * Copies the manifest's storage_seed_files from the installed folder into the extension's storage. As in
 * Lumiverse, `to` is resolved within the storage root: "." is the root itself (a folder's files land in
 * it, a file lands in it under its own name); anything that resolves outside is refused.
 */
export async function seedStorage(loaded: LoadedManifest, storageRoot: string, progress: (line: string) => void): Promise<void> {
  for (const [index, seed] of (loaded.manifest.storageSeedFiles ?? []).entries()) {
    const at = `/storage_seed_files/${index}`;
    const from = path.resolve(loaded.folder, seed.from);
    let to = path.resolve(storageRoot, seed.to ?? seed.from);
    if (!inside(loaded.folder, from)) throw new HostFailure({ code: 'INVALID_MANIFEST', message: `Seed file ${seed.from} is outside the extension folder.`, path: `${at}/from` });
    if (!inside(storageRoot, to, true)) throw new HostFailure({ code: 'INVALID_MANIFEST', message: `Seed destination ${seed.to} is outside the extension's storage.`, path: `${at}/to` });
    const stat = await fs.promises.lstat(from).catch(() => null);
    if (!stat || stat.isSymbolicLink()) {
      if (seed.required) throw new HostFailure({ code: 'INVALID_MANIFEST', message: `Required seed file ${seed.from} is missing.`, path: `${at}/from` });
      continue;
    }
    // Into the root itself: a folder's files merge into it (existing ones kept unless overwrite), a file lands under its name.
    const intoRoot = to === path.resolve(storageRoot);
    if (intoRoot && !stat.isDirectory()) to = path.join(to, path.basename(from));
    if (!seed.overwrite && !(intoRoot && stat.isDirectory()) && fs.existsSync(to)) continue;
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.cp(from, to, { recursive: true, force: seed.overwrite === true, verbatimSymlinks: true, filter: (src) => !fs.lstatSync(src).isSymbolicLink() });
    progress(`Seeded storage with ${seed.from}.`);
  }
}

/**
 * The whole preparation of an install in a staging folder under `userDir`: copy, repair, build,
 * seed the storage. On any failure the staging folder is gone and the error is thrown.
 */
export async function stageInstall(source: LoadedManifest, userDir: string, storageRoot: string, runner: BuildRunner, progress: (line: string) => void): Promise<{ staging: string; prepared: LoadedManifest }> {
  const staging = fs.mkdtempSync(path.join(userDir, `.install-${source.manifest.id}-`));
  try {
    progress(`Copying ${source.manifest.name} ${source.manifest.version}…`);
    await copyExtensionFolder(source.folder, staging);
    const prepared = await prepareStaging(staging, runner, progress);
    await seedStorage(prepared, storageRoot, progress);
    if (prepared.missingBackend) progress(`Its backend ${prepared.missingBackend} is not in the extension, and there is no src/backend.ts to build it from: its frontend runs alone, as in Lumiverse.`);
    if (prepared.unknownPermissions.length) progress(`Ignored permission names Lumiverse does not know: ${prepared.unknownPermissions.join(', ')}.`);
    return { staging, prepared };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Whether `source` may be installed here, and what it is granted: an id already installed is a CONFLICT (a
 * bundled one always, a user's unless replaced); a folder that holds the extensions folder itself is refused.
 */
export function checkInstall(
  source: LoadedManifest,
  existing: { source: 'bundled' | 'user' } | undefined,
  options: { replace?: boolean; grant?: ExtensionPermission[] | 'requested' },
  userDir: string,
  installedIds: Iterable<string> = [],
  /** Names an id's frame origin (a test stands in a collision: finding a real one takes about 2^32 tries). */
  labelOf: (id: string) => string = frameLabel,
): ExtensionPermission[] {
  const { id } = source.manifest;
  // Its frames' origin is named by a short hash of its id: another id with the same name would share that origin.
  const label = labelOf(id);
  const sharing = [...installedIds].find((other) => other !== id && labelOf(other) === label);
  if (sharing !== undefined) {
    throw new HostFailure({ code: 'CONFLICT', message: `Its frames would share an address with "${sharing}"'s (${label}); an extension's frames are its own.`, path: '/identifier' });
  }
  if (existing && (existing.source === 'bundled' || !options.replace)) {
    throw new HostFailure({
      code: 'CONFLICT',
      message: `An extension with id "${id}" is already installed.`,
      ...(existing.source === 'user' ? { hint: 'Install it with replace (the CLI: --replace) to update it; its stored data is kept.' } : {}),
    });
  }
  fs.mkdirSync(userDir, { recursive: true });
  const fromUserDir = path.relative(source.folder, fs.realpathSync(userDir));
  if (!fromUserDir.startsWith('..') && !path.isAbsolute(fromUserDir)) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: "The folder contains the app's own extensions folder.", hint: "Pick the extension's folder itself.", path: '/folder' });
  }
  return options.grant === 'requested' ? [...source.manifest.permissions] : grantable(source.manifest, options.grant ?? []);
}
