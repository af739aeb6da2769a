// Finding extensions: every folder of a directory, with its manifest or why it has none.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure, type HostError } from '../../../../shared/errors';
import { EXTENSION_ID_PATTERN, readManifest, type LoadedManifest } from './manifest';
import { sortByName } from '../../util/by-name';

export interface FoundExtension {
  /** The manifest's id, or one made from the folder name when the manifest is unusable. */
  id: string;
  folder: string;
  loaded: LoadedManifest | null;
  error: HostError | null;
}

/** The extension folders of `dir`, sorted by name; hidden folders are skipped. */
export function scanExtensions(dir: string): FoundExtension[] {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders = sortByName(
    names.filter((dirent) => dirent.isDirectory() && !dirent.name.startsWith('.')),
    (dirent) => dirent.name,
  );
  return folders.map((dirent) => {
    const folder = path.join(dir, dirent.name);
    try {
      const loaded = readManifest(folder);
      return { id: loaded.manifest.id, folder, loaded, error: null };
    } catch (err) {
      const error = err instanceof HostFailure ? err.error : { code: 'INVALID_MANIFEST', message: (err as Error).message };
      const id = EXTENSION_ID_PATTERN.test(dirent.name) ? dirent.name : `invalid-${dirent.name.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 40) || 'folder'}`;
      return { id, folder, loaded: null, error };
    }
  });
}
