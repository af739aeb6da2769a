// Our page's one origin (app://council) and the exact-match test every trust decision in main uses.

export const APP_SCHEME = 'app';
export const APP_HOST = 'council';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * True only for app://council/… with no credentials and no port. Node gives custom schemes an
 * opaque `origin` ("null"), so scheme and host are compared one by one, exactly, never by prefix:
 * `app://council.evil/` and `app://council@evil/` must not pass.
 */
export function isAppUrl(raw: unknown): boolean {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 8192) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host === APP_HOST &&
    url.hostname === APP_HOST &&
    url.port === '' &&
    url.username === '' &&
    url.password === ''
  );
}
