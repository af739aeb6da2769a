// The pure trust decisions of the main process: which IPC sender and which navigation target is our own page.
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isAppUrl } from '../../../electron/main/app-origin';
import { isAllowedNavigation } from '../../../electron/main/navigation';
import { checkSender } from '../../../electron/main/sender-check';

const topFrame = (url: string) => ({ url, parent: null });

const FOREIGN = [
  'https://evil.example/index.html',
  'http://council/index.html',
  'file:///work/main/out/renderer/index.html',
  'FILE:///C:/app/index.html',
  'app://council.evil/index.html',
  'app://evil.council/index.html',
  'app://councils/index.html',
  'app://council@evil/index.html',
  'app://evil@council/index.html',
  'app://user:pass@council/index.html',
  'app://council:8080/index.html',
  'app://evil/council/index.html',
  'apps://council/index.html',
  'app:council/index.html',
  'app:///council/index.html',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'about:blank',
  'devtools://devtools/bundled/inspector.html',
  'chrome-extension://abc/index.html',
  '',
  'not a url',
  '/index.html',
];

describe('isAppUrl / isAllowedNavigation', () => {
  it('accepts our own pages', () => {
    for (const url of [APP_ENTRY_URL, 'app://council/', 'app://council/settings?tab=2#x', 'app://council/assets/index-abc.js']) {
      expect(isAppUrl(url), url).toBe(true);
      expect(isAllowedNavigation(url), url).toBe(true);
    }
    expect(APP_ENTRY_URL).toBe('app://council/index.html');
  });

  it('X3: rejects foreign origins, file:, look-alike hosts, credentials, ports and junk', () => {
    for (const url of FOREIGN) {
      expect(isAppUrl(url), url).toBe(false);
      expect(isAllowedNavigation(url), url).toBe(false);
    }
  });

  it('rejects non-strings', () => {
    for (const value of [undefined, null, 42, { toString: () => APP_ENTRY_URL }, new URL(APP_ENTRY_URL)]) {
      expect(isAllowedNavigation(value)).toBe(false);
    }
  });
});

describe('checkSender', () => {
  it('trusts the top frame of our page', () => {
    expect(checkSender(topFrame(APP_ENTRY_URL))).toBeNull();
    expect(checkSender(topFrame('app://council/'))).toBeNull();
  });

  it('X4: rejects a null or missing frame (navigated away or destroyed)', () => {
    expect(checkSender(null)).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(checkSender(undefined)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('rejects every foreign, file: and look-alike origin', () => {
    for (const url of FOREIGN) expect(checkSender(topFrame(url)), url).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('rejects a subframe even when it shows our origin', () => {
    const parent = topFrame(APP_ENTRY_URL);
    expect(checkSender({ url: APP_ENTRY_URL, parent })).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringContaining('subframe'),
    });
  });
});
