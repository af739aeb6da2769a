// Pure navigation policy for every web contents: stay on app://council. No electron import.
import { isAppUrl } from './app-origin';

/** A page may only navigate within our own origin (reloads, in-app links); everything else is blocked. */
export function isAllowedNavigation(url: unknown): boolean {
  return isAppUrl(url);
}

