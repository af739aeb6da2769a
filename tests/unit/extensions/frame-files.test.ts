// What a frame origin serves, in the desktop app (cw-ext://) and browser mode alike: the frame and sandbox pages
// and their assets from the built renderer, the one extension's own files, and nothing else — no way out of either
// folder, written plainly, percent-encoded, through a symlink or with a NUL; and which frame addresses a subframe
// may load in the desktop app.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { frameFile } from '../../../electron/core/extensions/frontend-files';
import { isAllowedFrameNavigation, isExtensionFrameUrl } from '../../../electron/main/navigation';
import { frameLabel } from '../../../shared/frames/frame-origin';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const LABEL = frameLabel('dice_tray');

function folders() {
  const root = tempDir();
  const renderer = path.join(root, 'renderer');
  const extension = path.join(root, 'extensions', 'dice_tray');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(extension, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'frame.html'), '<!doctype html>');
  fs.writeFileSync(path.join(renderer, 'sandbox.html'), '<!doctype html>');
  fs.writeFileSync(path.join(renderer, 'assets', 'frame-1.js'), '');
  fs.writeFileSync(path.join(renderer, 'index.html'), 'the app');
  fs.writeFileSync(path.join(extension, 'dist', 'frontend.js'), 'export function setup() {}');
  fs.writeFileSync(path.join(root, 'secrets.json'), '{"openai":"sk-x"}');
  fs.symlinkSync(path.join(root, 'secrets.json'), path.join(extension, 'dist', 'link.json'));
  const folderOf = (label: string) => (label === LABEL ? extension : null);
  return { root, renderer, extension, serve: (label: string, pathname: string) => frameFile(label, pathname, renderer, folderOf) };
}

describe('frame files', () => {
  it('serves the frame and sandbox pages, their assets, and the extension’s own files', () => {
    const { renderer, extension, serve } = folders();
    expect(serve(LABEL, '/__cw/frame.html')).toBe(fs.realpathSync(path.join(renderer, 'frame.html')));
    expect(serve(LABEL, '/__cw/sandbox.html')).toBe(fs.realpathSync(path.join(renderer, 'sandbox.html')));
    expect(serve(LABEL, '/__cw/assets/frame-1.js')).toBe(fs.realpathSync(path.join(renderer, 'assets', 'frame-1.js')));
    expect(serve(LABEL, '/__ext/dist/frontend.js')).toBe(fs.realpathSync(path.join(extension, 'dist', 'frontend.js')));
  });

  it.each([
    ['the app page itself', '/__cw/index.html'],
    ['a path that climbs out of the renderer', '/__cw/assets/../../secrets.json'],
    ['a climb written with %2e', '/__cw/assets/%2e%2e/%2e%2e/secrets.json'],
    ['a climb out of the extension', '/__ext/../../secrets.json'],
    ['an encoded slash climbing out', '/__ext/dist%2f..%2f..%2f..%2fsecrets.json'],
    ['a symlink inside pointing out', '/__ext/dist/link.json'],
    ['a NUL', '/__ext/dist/frontend.js%00.png'],
    ['a broken escape', '/__ext/%E0%A4%A'],
    ['a folder', '/__ext/dist'],
    ['any other path', '/secrets.json'],
  ])('refuses %s', (_what, pathname) => {
    expect(folders().serve(LABEL, pathname)).toBeNull();
  });

  it('serves nothing of an extension to another label, an unknown one, or a label that is not one', () => {
    const { serve } = folders();
    expect(serve(frameLabel('other'), '/__ext/dist/frontend.js')).toBeNull();
    expect(serve('e-zzzz', '/__cw/frame.html')).toBeNull();
    expect(serve('../e-0', '/__cw/frame.html')).toBeNull();
  });
});

describe('frame addresses a subframe may load (desktop)', () => {
  it.each([
    [`cw-ext://${LABEL}/__cw/frame.html#runtime`, true],
    [`cw-ext://${LABEL}/__cw/sandbox.html`, true],
    [`cw-ext://${LABEL}/__ext/dist/frontend.js`, false],
    [`cw-ext://user:pw@${LABEL}/__cw/frame.html`, false],
    [`cw-ext://${LABEL}:8080/__cw/frame.html`, false],
    ['cw-ext://e-nothex/__cw/frame.html', false],
    [`https://${LABEL}/__cw/frame.html`, false],
    [42, false],
  ])('%s → %s', (url, allowed) => {
    expect(isExtensionFrameUrl(url)).toBe(allowed);
    // A main frame never goes to an extension's frame page, whatever it is.
    expect(isAllowedFrameNavigation(url, true)).toBe(false);
    expect(isAllowedFrameNavigation(url, false)).toBe(allowed);
  });
});
