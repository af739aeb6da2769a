// What a frame origin serves: our frame page and its built assets (/__cw/), the files of the one extension the
// origin belongs to (/__ext/), the images it keeps (/api/v1/images/<id>, as Lumiverse's ImageDTO.url says) and the
// characters' pictures it may read (/api/v1/images/<a character's image_id>, or Lumiverse's /api/v1/characters/<id>/avatar),
// never anything outside those folders.
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_FILES, FRAME_LABEL_PATTERN, FRAME_PAGE, SANDBOX_PAGE } from '../../../shared/frames/frame-origin';
import { IMAGE_EXTENSIONS, IMAGE_ID } from './spindle-host/extension-images';
import { characterImageId } from '../../../shared/spindle/lumiverse-ids';

const IMAGE_PATH = /^\/api\/v1\/images\/([^/]+)$/;
/** Lumiverse's route for a character's picture (`?size=` aside), which its frontends put in an <img> (Megumin Suite). */
const CHARACTER_AVATAR_PATH = /^\/api\/v1\/characters\/([A-Za-z0-9_-]{1,128})\/avatar$/;

function within(root: string, relative: string): string | null {
  if (relative.includes('\0')) return null;
  const resolved = path.resolve(root, relative);
  if (!resolved.startsWith(root + path.sep)) return null;
  try {
    const real = fs.realpathSync(resolved);
    const realRoot = fs.realpathSync(root);
    return real.startsWith(realRoot + path.sep) && fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * The file for `pathname` on the frame origin `label`: `/__cw/frame.html` and `/__cw/assets/…` from the
 * built renderer, `/__ext/…` from the extension's folder (folderOf answers null for an unknown label or
 * an extension without a frontend). Null for anything else.
 */
export function frameFile(
  label: string,
  pathname: string,
  rendererDir: string,
  folderOf: (label: string) => string | null,
  imagesOf: (label: string) => string | null = () => null,
  avatarOf: (label: string, imageId: string) => string | null = () => null,
): string | null {
  if (!FRAME_LABEL_PATTERN.test(label)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded === FRAME_PAGE || decoded === SANDBOX_PAGE || decoded.startsWith('/__cw/assets/')) return within(rendererDir, decoded.slice('/__cw/'.length));
  if (decoded.startsWith(EXTENSION_FILES)) {
    const folder = folderOf(label);
    return folder ? within(folder, decoded.slice(EXTENSION_FILES.length)) : null;
  }
  const image = IMAGE_PATH.exec(decoded);
  const images = image && IMAGE_ID.test(image[1]!) ? imagesOf(label) : null;
  if (image && images) return IMAGE_EXTENSIONS.map((ext) => within(images, `${image[1]}.${ext}`)).find(Boolean) ?? null;
  const character = CHARACTER_AVATAR_PATH.exec(decoded);
  const avatar = image ? avatarOf(label, image[1]!) : character ? avatarOf(label, characterImageId(character[1]!)) : null;
  return avatar ? within(path.dirname(avatar), path.basename(avatar)) : null;
}
