// Selectors over AppState. Ones returning fresh objects or arrays must be used with useShallow.
import type { Theme } from './theme';
import type { AppState } from './app-store';

export const selectConnection = (s: AppState) => s.connection;
export const selectConnectionState = (s: AppState) => s.connection.state;
export const selectHostStatus = (s: AppState) => s.hostStatus;
export const selectSection = (s: AppState) => s.section;
export const selectSectionSelected = (s: AppState) => s.sectionSelected;
export const selectSettingsLoaded = (s: AppState) => s.settings !== null;
export const selectTheme = (s: AppState): Theme => s.settings?.ui.theme ?? 'system';
export const selectHostNotices = (s: AppState) => s.hostNotices;
export const selectLocalErrors = (s: AppState) => s.localErrors;
export const selectNoticeCount = (s: AppState) => s.hostNotices.length + s.localErrors.length;

/** Everything the status bar shows. Returns a new object: use with useShallow. */
export const selectStatusBar = (s: AppState) => ({
  connection: s.connection,
  dataDir: s.hostStatus?.dataDir ?? null,
  settingsVersion: s.hostStatus?.settingsVersion ?? null,
  mode: s.hostStatus?.mode ?? null,
  counts: s.hostStatus?.counts ?? null,
});
