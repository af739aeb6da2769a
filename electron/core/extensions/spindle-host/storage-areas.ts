// spindle.storage and spindle.userStorage: each extension's two file areas in its data folder (`storage`,
// `user-local`), opened on first use. The rest of the folder is the host's own files for it; anything else there
// predates the areas (an extension that wrote straight into its folder before workers were contained) and moves into
// its storage the first time that opens.
import fs from 'node:fs';
import path from 'node:path';
import { STORAGE_OPS, type StorageOp } from '../../../../shared/spindle/requests';
import { ExtensionStorage } from './extension-storage';
import { FRONTEND_SETTINGS_FILE } from './frontend-settings';
import { PAGE_SETTINGS_FILE } from './page-settings';
import type { HandlersOf } from './handlers';

const AREAS = { storage: 'storage', userStorage: 'user-local' } as const;
type Area = keyof typeof AREAS;
/** What the host keeps in an extension's data folder besides its areas. */
const HOST_FILES = new Set<string>([...Object.values(AREAS), ...Object.values(AREAS).map((area) => `${area}.parts`), 'ephemeral', 'ephemeral.json', 'variables.json', 'enclave-keys.json', FRONTEND_SETTINGS_FILE, PAGE_SETTINGS_FILE, 'images', 'uploads']);

export class StorageAreas {
  private readonly areas = new Map<string, ExtensionStorage>();

  constructor(private readonly dataRoot: string) {}

  /** spindle.<area>.*: each operation on the calling extension's own area. */
  handlers<A extends Area>(area: A): HandlersOf<A> {
    const ops = Object.keys(STORAGE_OPS) as StorageOp[];
    return Object.fromEntries(
      ops.map((op) => [`${area}.${op}`, (params: never, origin: { extensionId: string }) => (this.area(origin.extensionId, area).ops[op] as (params: never) => Promise<unknown>)(params)]),
    ) as unknown as HandlersOf<A>;
  }

  /** The extension was removed: its areas are opened afresh if it comes back. */
  forget(extensionId: string): void {
    for (const key of [...this.areas.keys()]) if (key.startsWith(`${extensionId}\0`)) this.areas.delete(key);
  }

  private area(extensionId: string, area: Area): ExtensionStorage {
    const key = `${extensionId}\0${area}`;
    let storage = this.areas.get(key);
    if (!storage) {
      const folder = path.join(this.dataRoot, extensionId);
      const root = path.join(folder, AREAS[area]);
      if (area === 'storage') adoptEarlierFiles(folder, root);
      fs.mkdirSync(root, { recursive: true });
      storage = new ExtensionStorage(root);
      this.areas.set(key, storage);
    }
    return storage;
  }
}

/** Files an extension wrote straight into its data folder (before workers were contained) move into its storage. */
function adoptEarlierFiles(folder: string, root: string): void {
  if (fs.existsSync(root) || !fs.existsSync(folder)) return;
  const earlier = fs.readdirSync(folder).filter((name) => !HOST_FILES.has(name));
  fs.mkdirSync(root, { recursive: true });
  for (const name of earlier) fs.renameSync(path.join(folder, name), path.join(root, name));
}
