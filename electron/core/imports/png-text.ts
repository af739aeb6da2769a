// The text chunks of a PNG (tEXt: keyword, NUL, Latin-1 text), read without decoding the image. Character cards
// keep their JSON there as base64 (`chara`, and `ccv3` for V3). Bounded: chunk count and sizes are capped.
// Every chunk's CRC is checked, as image decoders do: a card whose bytes were damaged (or edited by hand
// without fixing the CRC) is refused, naming the chunk, instead of importing whatever the damage left.
import { crc32, deflateSync } from 'node:zlib';
import { HostFailure } from '../../../shared/errors';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_CHUNKS = 10_000;

function bad(message: string): never {
  throw new HostFailure({ code: 'INVALID_INPUT', message, path: '/file' });
}

/** keyword → text of every tEXt chunk (the first of a keyword wins, as readers do). */
export function pngTextChunks(png: Buffer): Map<string, string> {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE)) bad('This file is not a PNG image.');
  const texts = new Map<string, string>();
  let offset = SIGNATURE.length;
  let ended = false;
  for (let count = 0; offset + 8 <= png.length; count++) {
    if (count > MAX_CHUNKS) bad(`The PNG has more than ${MAX_CHUNKS} chunks.`);
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const start = offset + 8;
    const end = start + length;
    if (end + 4 > png.length) bad(`The PNG is truncated (chunk ${type} runs past the end of the file).`);
    if (crc32(png.subarray(offset + 4, end)) !== png.readUInt32BE(end)) bad(`The PNG is damaged: chunk ${JSON.stringify(type)} number ${count + 1} fails its CRC check.`);
    if (type === 'tEXt') {
      const data = png.subarray(start, end);
      const nul = data.indexOf(0);
      if (nul > 0) {
        const keyword = data.toString('latin1', 0, nul);
        if (!texts.has(keyword)) texts.set(keyword, data.toString('latin1', nul + 1));
      }
    }
    if (type === 'IEND') {
      ended = true;
      break;
    }
    offset = end + 4; // the CRC
  }
  if (!ended) bad('The PNG is truncated (no IEND chunk).');
  return texts;
}

/**
 * The PNG with its tEXt chunks of the given keywords removed, and `add` inserted before IEND (card export writes
 * `chara`/`ccv3`; an imported card's picture is kept without them).
 */
export function withPngTextChunks(png: Buffer, add: Record<string, string>, drop: readonly string[] = Object.keys(add)): Buffer {
  if (!png.subarray(0, SIGNATURE.length).equals(SIGNATURE)) bad('This file is not a PNG image.');
  const parts: Buffer[] = [SIGNATURE];
  let offset = SIGNATURE.length;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const whole = png.subarray(offset, offset + 12 + length);
    if (type === 'IEND') {
      for (const [keyword, text] of Object.entries(add)) parts.push(chunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')])));
      parts.push(whole);
      break;
    }
    const data = png.subarray(offset + 8, offset + 8 + length);
    const keyword = type === 'tEXt' ? data.toString('latin1', 0, Math.max(0, data.indexOf(0))) : '';
    if (!(type === 'tEXt' && drop.includes(keyword))) parts.push(whole);
    offset += 12 + length;
  }
  return Buffer.concat(parts);
}

/** A plain square PNG of one colour: the picture of a card exported from a session that has none. */
export function solidPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set(rgb, 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
