// Settings file backend for the desktop app: electron-store, over the same implementation as conf's in plain Node.
import Store from 'electron-store';
import { STORE_OPTIONS, storeBackend } from '../core/settings/conf-backend';
import type { SettingsBackendFactory } from '../core/ports';

export const electronStoreBackend: SettingsBackendFactory = ({ dataDir, name }) =>
  storeBackend(new Store<Record<string, unknown>>({ cwd: dataDir, name, ...STORE_OPTIONS }));
