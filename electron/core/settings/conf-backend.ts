// Settings file backends over conf's JSON store: conf in plain Node, electron-store (conf's subclass) in the
// desktop app. Both write the same file; this is the one implementation they share.
import Conf from 'conf';
import type { SettingsBackend, SettingsBackendFactory } from '../ports';

/** What conf and electron-store both are: a JSON file's path and its whole document. */
export interface JsonFileStore {
  readonly path: string;
  store: Record<string, unknown>;
}

/** The same for both: the file is never cleared or watched, and keys with dots are keys. */
export const STORE_OPTIONS = { clearInvalidConfig: false, watch: false, accessPropertiesByDotNotation: false } as const;

export function storeBackend(store: JsonFileStore): SettingsBackend {
  return {
    path: store.path,
    read: () => structuredClone(store.store),
    write: (doc) => {
      store.store = doc;
    },
  };
}

export const confBackend: SettingsBackendFactory = ({ dataDir, name }) =>
  storeBackend(new Conf<Record<string, unknown>>({ cwd: dataDir, configName: name, ...STORE_OPTIONS }));
