// Settings file backend for plain Node: conf (electron-store is built on it and writes the same JSON).
import Conf from 'conf';
import type { SettingsBackend, SettingsBackendFactory } from '../ports';

export const confBackend: SettingsBackendFactory = ({ dataDir, name }): SettingsBackend => {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: name,
    clearInvalidConfig: false,
    watch: false,
    accessPropertiesByDotNotation: false,
  });
  return {
    path: conf.path,
    read: () => structuredClone(conf.store),
    write: (doc) => {
      conf.store = doc;
    },
  };
};
