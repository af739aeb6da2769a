// Character cards as people have them, written here (the real files in ../shared/samples are for trying by hand):
// V1/V2/V3 JSON, PNGs with chara and ccv3 chunks built in the test, and the bad inputs, each with a stable code
// and the field, importing nothing.
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CARD_LIMITS, parseCardFile, parseCardJson } from '../../../electron/core/imports/character-card';
import { pngTextChunks, withPngTextChunks } from '../../../electron/core/imports/png-text';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import { PIXEL, withChunkBeforeEnd } from '../../helpers/png';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');


/** The PNG with one byte of the first chunk of `type` flipped (its CRC no longer matches). */
function damaged(png: Buffer, type: string): Buffer {
  const copy = Buffer.from(png);
  const at = copy.indexOf(type, 8, 'latin1');
  copy.writeUInt8(copy.readUInt8(at + 6) ^ 0x01, at + 6);
  return copy;
}

const v2 = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Mara',
    description: 'Keeper of the {{char}} lighthouse.',
    personality: 'Dry',
    scenario: 'A storm',
    first_mes: 'You made it.',
    alternate_greetings: ['Late again.', 'Shut the door.'],
    system_prompt: 'You are {{char}}.',
    extensions: { 'someone/tool': { keep: true } },
    character_book: { name: 'Coast', entries: [{ keys: ['lamp'], content: 'The lamp burns oil.', enabled: true, constant: false, insertion_order: 10 }] },
  },
};

function refusal(work: () => unknown) {
  try {
    work();
  } catch (err) {
    if (err instanceof HostFailure) return err.error;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('character cards', () => {
  it('reads V1 (fields at the root), V2 and V3 JSON; the spec decides', () => {
    expect(parseCardJson({ name: 'Old', description: 'd', first_mes: 'hi' })).toMatchObject({ spec: 'v1', name: 'Old', greetings: ['hi'] });
    const card = parseCardJson(v2);
    expect(card).toMatchObject({ spec: 'chara_card_v2', name: 'Mara', personality: 'Dry', greetings: ['You made it.', 'Late again.', 'Shut the door.'] });
    expect(card.book!.entries[0]).toMatchObject({ keywords: ['lamp'], content: 'The lamp burns oil.', enabled: true, constant: false, order: 10 });
    expect(card.data.extensions).toEqual({ 'someone/tool': { keep: true } });
    expect(parseCardJson({ ...v2, spec: 'chara_card_v3', spec_version: '3.0' }).spec).toBe('chara_card_v3');
  });

  it('reads a PNG card from its chara chunk, and prefers ccv3 when both are there (SillyTavern writes both)', () => {
    const withChara = withPngTextChunks(PIXEL, { chara: b64(v2) });
    expect(parseCardFile(withChara).name).toBe('Mara');
    const both = withPngTextChunks(PIXEL, { chara: b64(v2), ccv3: b64({ ...v2, spec: 'chara_card_v3', data: { ...v2.data, name: 'Mara Three' } }) });
    expect(parseCardFile(both)).toMatchObject({ spec: 'chara_card_v3', name: 'Mara Three' });
    // The chunks are real PNG chunks: reading them back gives what was written.
    expect(pngTextChunks(both).get('chara')).toBe(b64(v2));
  });

  it.each([
    ['a PNG without a card chunk', () => parseCardFile(withPngTextChunks(PIXEL, { Comment: 'just a picture' })), 'INVALID_INPUT', '/png'],
    ['bad base64 in chara', () => parseCardFile(withPngTextChunks(PIXEL, { chara: '%%% not base64 %%%' })), 'INVALID_INPUT', '/png/chara'],
    ['base64 of something that is not JSON', () => parseCardFile(withPngTextChunks(PIXEL, { chara: Buffer.from('hello').toString('base64') })), 'INVALID_INPUT', '/png/chara'],
    ['a truncated PNG', () => parseCardFile(withPngTextChunks(PIXEL, { chara: b64(v2) }).subarray(0, 60)), 'INVALID_INPUT', '/file'],
    ['JSON that is not a card', () => parseCardFile(Buffer.from('{"hello":"world"}')), 'INVALID_INPUT', '/spec'],
    ['an unknown spec', () => parseCardJson({ spec: 'chara_card_v9', data: {} }), 'INVALID_INPUT', '/spec'],
    ['a card without a name', () => parseCardJson({ ...v2, data: { ...v2.data, name: '' } }), 'INVALID_INPUT', '/data/name'],
    ['a description longer than a session keeps', () => parseCardJson({ ...v2, data: { ...v2.data, description: 'x'.repeat(SESSION_LIMITS.text + 1) } }), 'INPUT_TOO_LARGE', '/data/description'],
    [
      'a lorebook with 10,000 entries',
      () => parseCardJson({ ...v2, data: { ...v2.data, character_book: { entries: Array.from({ length: 10_000 }, () => ({ keys: ['k'], content: 'c' })) } } }),
      'INPUT_TOO_LARGE',
      '/data/character_book/entries',
    ],
    ['a file over the size cap', () => parseCardFile(Buffer.alloc(CARD_LIMITS.maxFileBytes + 1)), 'INPUT_TOO_LARGE', '/file'],
    // Compressed text chunks are never inflated: a card hidden in one is not read, and a bomb costs nothing.
    ['a decompression bomb (chara in a zTXt chunk inflating to 64 MB)', () => parseCardFile(withChunkBeforeEnd(PIXEL, 'zTXt', Buffer.concat([Buffer.from('chara\0\0', 'latin1'), deflateSync(Buffer.alloc(64 * 1024 * 1024))]))), 'INVALID_INPUT', '/png'],
  ])('refuses %s with a stable code and the field', (_label, work, code, path) => {
    expect(refusal(work)).toMatchObject({ code, path });
  });

  it.each(['tEXt', 'IDAT', 'IHDR'])('B9: refuses a card whose %s chunk fails its CRC, naming the chunk', (type) => {
    expect(refusal(() => parseCardFile(damaged(withPngTextChunks(PIXEL, { chara: b64(v2) }), type)))).toMatchObject({
      code: 'INVALID_INPUT',
      path: '/file',
      message: expect.stringContaining(`chunk "${type}"`),
    });
  });
});
