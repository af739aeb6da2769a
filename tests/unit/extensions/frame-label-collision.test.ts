// An extension's frames are served from an origin named by a 64-bit hash of its id. FNV is not made to resist
// a crafted collision, so an id forged to hash like another's would share its origin and reach its frames: such
// an install is refused. The collision is stood in for (finding one takes about 2^32 tries); the refusal is real.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import { frameLabel } from '../../../shared/frames/frame-origin';
import { checkInstall as check } from '../../../electron/core/extensions/install/extension-install';
import { readManifest } from '../../../electron/core/extensions/install/manifest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

/** The real labels, except that the forger's collides with the victim's. */
const forged = (id: string) => (id === 'victim' || id === 'forger' ? 'e-0000000000000001' : frameLabel(id));
const checkInstall = (...args: Parameters<typeof check>) => check(args[0], args[1], args[2], args[3], args[4], forged);

afterEach(cleanupTempDirs);

function folderFor(id: string): string {
  const folder = path.join(tempDir(), id);
  fs.mkdirSync(path.join(folder, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'dist', 'backend.js'), '');
  fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ identifier: id, name: id, version: '1.0.0', author: 'x', permissions: [] }));
  return folder;
}

describe('frame origins of two extensions', () => {
  it('an id whose frames would share another extension’s origin is refused with CONFLICT, naming it', () => {
    const userDir = tempDir();
    let error: unknown;
    try {
      checkInstall(readManifest(folderFor('forger')), undefined, {}, userDir, ['victim', 'other']);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HostFailure);
    expect((error as HostFailure).error).toMatchObject({ code: 'CONFLICT', path: '/identifier', message: expect.stringContaining('"victim"') });
  });

  it('ids that hash apart install as before, and an extension replacing itself is no conflict', () => {
    const userDir = tempDir();
    expect(checkInstall(readManifest(folderFor('other')), undefined, {}, userDir, ['victim'])).toEqual([]);
    expect(checkInstall(readManifest(folderFor('victim')), { source: 'user' }, { replace: true }, userDir, ['victim'])).toEqual([]);
  });
});
