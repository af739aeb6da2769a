// Theme values and how a chosen theme resolves against the OS preference (derived, never stored).
import type { Settings } from '../../../../shared/settings';

export type Theme = Settings['ui']['theme'];
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export function resolveTheme(theme: Theme, prefersDark: boolean): 'light' | 'dark' {
  if (theme === 'system') return prefersDark ? 'dark' : 'light';
  return theme;
}
