// A file the window sent as base64 (imports, uploads).
import { HostFailure } from '../../../shared/errors';

/** Anything but base64 in the text is refused rather than skipped (Buffer.from would skip it); `where` names the field. */
export function fromBase64(data: string, where: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) throw new HostFailure({ code: 'INVALID_INPUT', message: 'The file data is not base64.', path: where });
  return Buffer.from(data, 'base64');
}
