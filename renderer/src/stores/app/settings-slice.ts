// Settings slice: the host's settings document as last reported (settings.get, settings.update, settings.changed).
import type { Settings } from '../../../../shared/settings';
import type { Slice } from './slice';

export interface SettingsSlice {
  /** Null until the host has told us; the UI shows defaults meanwhile and disables editing. */
  settings: Settings | null;
  settingsLoaded(settings: Settings): void;
}

export const createSettingsSlice: Slice<SettingsSlice> = (set) => ({
  settings: null,
  settingsLoaded: (settings) => set({ settings }),
});
