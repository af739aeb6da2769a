// @vitest-environment happy-dom
// The access token: read from #token=…, kept in localStorage (this origin's, scoped by port) for reloads and other tabs, and removed from the address bar.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeToken, takeTokenFromWindow, TOKEN_STORAGE_KEY } from '../../renderer/src/api/token';

beforeEach(() => localStorage.clear());
afterEach(() => history.replaceState(null, '', '/'));

describe('takeToken', () => {
  it('takes the token from the fragment, remembers it and cleans the URL', () => {
    history.replaceState(null, '', '/index.html?x=1#token=f00dcafe');
    expect(takeTokenFromWindow(window)).toBe('f00dcafe');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('f00dcafe');
    expect(location.hash).toBe('');
    expect(location.href).not.toContain('f00dcafe');
    expect(location.pathname + location.search).toBe('/index.html?x=1');
  });

  it('uses the remembered token after a reload, when the fragment is gone', () => {
    history.replaceState(null, '', '/#token=abc123');
    takeTokenFromWindow(window);
    history.replaceState(null, '', '/');
    expect(takeTokenFromWindow(window)).toBe('abc123');
  });

  it('prefers a new token in the fragment over the remembered one, keeping other fragment params', () => {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'old');
    history.replaceState(null, '', '/#view=tools&token=new');
    expect(takeTokenFromWindow(window)).toBe('new');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new');
    expect(location.hash).toBe('#view=tools');
  });

  it('returns null without any token', () => {
    history.replaceState(null, '', '/');
    expect(takeTokenFromWindow(window)).toBeNull();
  });

  it('still works for this load when storage throws', () => {
    const replaced: string[] = [];
    const token = takeToken({
      location: { hash: '#token=zz', pathname: '/', search: '' },
      history: { state: null, replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) },
      storage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
      },
    });
    expect(token).toBe('zz');
    expect(replaced).toEqual(['/']);
  });
});
