// The browser-mode access token: taken from the URL fragment once, kept for reloads and other tabs of this origin
// (localStorage is scoped by port; cookies are not, so none holds it), then cleaned off the URL.
import { TOKEN_PARAM } from '../../../shared/ws-protocol';

export const TOKEN_STORAGE_KEY = 'council-workbench.token';

export interface TokenEnv {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * Returns the token from `#token=…` (and remembers it in localStorage, then removes it from the
 * address bar so it does not linger in history or screenshots), else the remembered one, else null.
 */
export function takeToken(env: TokenEnv): string | null {
  const params = new URLSearchParams(env.location.hash.replace(/^#/, ''));
  const fromHash = params.get(TOKEN_PARAM);
  if (fromHash) {
    try {
      env.storage?.setItem(TOKEN_STORAGE_KEY, fromHash);
    } catch {
      // Storage may be disabled; the token still works for this page load.
    }
    params.delete(TOKEN_PARAM);
    const rest = params.toString();
    env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${rest ? `#${rest}` : ''}`);
    return fromHash;
  }
  try {
    return env.storage?.getItem(TOKEN_STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

function safeLocalStorage(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

export function takeTokenFromWindow(win: Window): string | null {
  return takeToken({ location: win.location, history: win.history, storage: safeLocalStorage(win) });
}
