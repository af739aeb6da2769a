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

export const selectTools = (s: AppState) => s.tools.items;
export const selectToolsLoaded = (s: AppState) => s.tools.loaded;
export const selectToolFilters = (s: AppState) => s.toolFilters;
export const selectSelectedTool = (s: AppState) => s.selectedTool;
export const selectExtensions = (s: AppState) => s.extensions.items;
export const selectExtensionsLoaded = (s: AppState) => s.extensions.loaded;
export const selectExtensionLog = (id: string) => (s: AppState) =>
  Object.prototype.hasOwnProperty.call(s.extensions.logs, id) ? s.extensions.logs[id]! : null;

/**
 * Everything the status bar shows. Returns a new object: use with useShallow (so only flat values).
 * Counts come from host.status until the live lists are loaded; those follow events, host.status does not.
 */
export const selectStatusBar = (s: AppState) => {
  const reported = s.hostStatus?.counts ?? null;
  return {
    connection: s.connection,
    dataDir: s.hostStatus?.dataDir ?? null,
    settingsVersion: s.hostStatus?.settingsVersion ?? null,
    mode: s.hostStatus?.mode ?? null,
    extensionCount: reported ? (s.extensions.loaded ? s.extensions.items.length : reported.extensions) : null,
    toolCount: reported ? (s.tools.loaded ? s.tools.items.length : reported.tools) : null,
    // The council view follows council.changed; host.status does not.
    memberCount: reported ? (s.council.view ? s.council.view.members.length : reported.members) : null,
  };
};
