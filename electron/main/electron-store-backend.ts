// Settings file backend for the desktop app: electron-store, which writes the same JSON file as conf.
import Store from 'electron-store';
import type { SettingsBackend, SettingsBackendFactory } from '../core/ports';

export const electronStoreBackend: SettingsBackendFactory = ({ dataDir, name }): SettingsBackend => {
  const store = new Store<Record<string, unknown>>({
    cwd: dataDir,
    name,
    clearInvalidConfig: false,
    watch: false,
    accessPropertiesByDotNotation: false,
  });
  return {
    path: store.path,
    read: () => structuredClone(store.store),
    write: (doc) => {
      store.store = doc;
    },
  };
};
