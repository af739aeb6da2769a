// Persists each extension's enabled flag and granted permissions in settings.extensions.
import type { SettingsStore } from '../settings/settings-store';
import type { ExtensionStateStore } from './extension-manager';

export function settingsExtensionState(settings: SettingsStore): ExtensionStateStore {
  return {
    // Own entries only: an extension named `constructor` or `toString` must not find Object.prototype's.
    getState: (id) => {
      const all = settings.get().extensions;
      return Object.hasOwn(all, id) ? all[id] : undefined;
    },
    setState: async (id, state) => {
      await settings.update((current) => ({ ...current, extensions: { ...current.extensions, [id]: { enabled: state.enabled, granted: [...state.granted], ...(state.unrequested?.length ? { unrequested: [...state.unrequested] } : {}), ...(state.trusted ? { trusted: true } : {}) } } }));
    },
    removeState: async (id) => {
      await settings.update((current) => {
        const { [id]: _removed, ...rest } = current.extensions;
        return { ...current, extensions: rest };
      });
    },
  };
}
