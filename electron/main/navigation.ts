// Pure navigation policy for every web contents: stay on app://council. No electron import.
import { FRAME_LABEL_PATTERN, FRAME_SCHEME } from '../../shared/frames/frame-origin';
import { isAppUrl } from './app-origin';

/** A page may only navigate within our own origin (reloads, in-app links); everything else is blocked. */
export function isAllowedNavigation(url: unknown): boolean {
  return isAppUrl(url);
}


/** An extension frame's own page on its own origin: cw-ext://e-<label>/__cw/… (nothing else, no credentials, no port). */
export function isExtensionFrameUrl(raw: unknown): boolean {
  if (typeof raw !== 'string' || raw.length > 8192) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === `${FRAME_SCHEME}:` && FRAME_LABEL_PATTERN.test(url.hostname) && url.port === '' && url.username === '' && url.password === '' && url.pathname.startsWith('/__cw/');
}

/** Subframes may also load an extension's frame pages; the main frame never leaves the app. */
export function isAllowedFrameNavigation(url: unknown, isMainFrame: boolean): boolean {
  return isAllowedNavigation(url) || (!isMainFrame && isExtensionFrameUrl(url));
}
