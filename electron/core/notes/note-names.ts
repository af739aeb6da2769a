// Note names: unicode is fine, slashes are folders inside the notes root, reserved or dangerous names are refused.
import type { HostError, Result } from '../../../shared/errors';

export interface NoteName {
  /** The name without `.md`, segments joined by `/` (what links and listings show). */
  name: string;
  /** Path segments of the file relative to the root; the last one ends in `.md`. */
  segments: string[];
}

const MAX_NAME_CHARS = 512;
const MAX_SEGMENT_CHARS = 200;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFEFF]/;
const WINDOWS_FORBIDDEN = /[<>:"|?*\\]/;
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

function invalid(message: string, field: string): { ok: false; error: HostError } {
  return {
    ok: false,
    error: {
      code: 'INVALID_NOTE_NAME',
      message,
      path: field,
      hint: 'Use a name like "Journal/2024-05-01" or "Ideas": folders separated by "/", no leading dot, no reserved names.',
    },
  };
}

/** Checks a note name (or a folder name when `folder` is set; "" is then the root). */
export function parseNoteName(raw: unknown, field = '/page', options: { folder?: boolean } = {}): Result<NoteName> {
  if (typeof raw !== 'string') return invalid('The note name must be a string.', field);
  if (options.folder && raw === '') return { ok: true, value: { name: '', segments: [] } };
  if (raw.trim() === '') return invalid('The note name is empty.', field);
  if (raw.length > MAX_NAME_CHARS) return invalid(`The note name is longer than ${MAX_NAME_CHARS} characters.`, field);
  if (CONTROL.test(raw)) return invalid('The note name contains a control character.', field);
  if (raw.startsWith('/')) return invalid('The note name must be relative to the notes folder (no leading "/").', field);
  let name = raw;
  if (!options.folder && name.toLowerCase().endsWith('.md')) name = name.slice(0, -3);
  if (name.endsWith('/')) return invalid('The note name ends with "/".', field);
  const parts = name.split('/');
  for (const part of parts) {
    if (part === '') return invalid('The note name has an empty folder ("//" or a trailing "/").', field);
    if (part === '.' || part === '..') return invalid(`"${part}" is not allowed in a note name.`, field);
    if (part.startsWith('.')) return invalid(`"${part.slice(0, 40)}" starts with a dot; hidden files are not notes.`, field);
    if (part.length > MAX_SEGMENT_CHARS) return invalid(`A part of the note name is longer than ${MAX_SEGMENT_CHARS} characters.`, field);
    if (WINDOWS_FORBIDDEN.test(part)) return invalid(`"${part.slice(0, 40)}" contains one of < > : " | ? * \\.`, field);
    if (part !== part.trim() || part.endsWith('.')) return invalid(`"${part.slice(0, 40)}" starts or ends with a space, or ends with a dot.`, field);
    const stem = part.split('.')[0]!;
    if (DEVICE.test(stem)) return invalid(`"${part}" is a reserved device name (CON, PRN, AUX, NUL, COM1–9, LPT1–9).`, field);
  }
  const segments = [...parts];
  if (!options.folder) segments[segments.length - 1] = `${segments[segments.length - 1]}.md`;
  return { ok: true, value: { name, segments } };
}
