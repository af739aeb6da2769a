// app:// serving rules: nothing outside out/renderer is reachable, and every response carries the security headers.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../shared/csp';
import { contentTypeFor, isInside, resolveRequestPath, securityHeaders } from '../../../electron/main/app-files';
import { parseMainArgs } from '../../../electron/main/args';

const root = path.resolve('/srv/app/out/renderer');

describe('resolveRequestPath', () => {
  it('maps in-root paths and serves index.html for /', () => {
    expect(resolveRequestPath(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolveRequestPath(root, '/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveRequestPath(root, '/assets/index-abc.js')).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveRequestPath(root, '/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
    expect(resolveRequestPath(root, '/assets/../index.html')).toBe(path.join(root, 'index.html'));
  });

  it('refuses traversal, encoded separators, NUL and malformed escapes', () => {
    for (const bad of [
      '/../main/index.js',
      '/../../../etc/passwd',
      '/%2e%2e/main/index.js',
      '/%2E%2E/%2E%2E/etc/passwd',
      '/..%2fmain/index.js',
      '/assets%2F..%2F..%2Fmain',
      '/..%5cmain%5cindex.js',
      '/assets\\..\\..\\secret',
      '/index.html%00.png',
      '/%E0%A4%A',
      '/..',
    ]) {
      expect(resolveRequestPath(root, bad), bad).toBeNull();
    }
  });

  it('does not serve the root folder itself', () => {
    expect(resolveRequestPath(root, '/.')).toBeNull();
  });
});

describe('isInside', () => {
  it('compares by path segments, not by string prefix', () => {
    expect(isInside(root, path.join(root, 'a.js'))).toBe(true);
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, `${root}-evil/a.js`)).toBe(false);
    expect(isInside(root, path.dirname(root))).toBe(false);
    expect(isInside(root, path.join(root, '..foo'))).toBe(true);
  });
});

describe('securityHeaders / contentTypeFor', () => {
  it('always sends the shared CSP and nosniff', () => {
    const headers = securityHeaders('text/html; charset=utf-8');
    expect(headers['Content-Security-Policy']).toBe(contentSecurityPolicy({ frameSrc: ['cw-ext:'] }));
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Content-Type']).toBe('text/html; charset=utf-8');
  });

  it('names scripts as JavaScript and unknown files as opaque bytes', () => {
    expect(contentTypeFor('/x/index-abc.js')).toMatch(/^text\/javascript/);
    expect(contentTypeFor('/x/INDEX.HTML')).toMatch(/^text\/html/);
    expect(contentTypeFor('/x/file.exe')).toBe('application/octet-stream');
  });
});

describe('parseMainArgs', () => {
  it('reads --data-dir in both spellings; the last one wins', () => {
    expect(parseMainArgs(['electron', '.'])).toEqual({});
    expect(parseMainArgs(['app', '--data-dir=/tmp/a'])).toEqual({ dataDir: '/tmp/a' });
    expect(parseMainArgs(['app', '--data-dir', '/tmp/b'])).toEqual({ dataDir: '/tmp/b' });
    expect(parseMainArgs(['app', '--data-dir=/tmp/a', '--data-dir', '/tmp/b'])).toEqual({ dataDir: '/tmp/b' });
  });

  it('fails on a flag without a folder', () => {
    expect(() => parseMainArgs(['app', '--data-dir'])).toThrow(/needs a folder/);
    expect(() => parseMainArgs(['app', '--data-dir='])).toThrow(/needs a folder/);
    expect(() => parseMainArgs(['app', '--data-dir', '--inspect'])).toThrow(/needs a folder/);
  });
});
