// The streamed reply's lines and pieces: joined they are the text, and growing the text never moves a boundary
// already drawn (the property the chat's per-frame work rests on), whatever the text: spaces or none, line breaks,
// surrogate pairs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textLines, textPieces } from '../../renderer/src/features/workbench/text-pieces';

/** Text made of the characters that matter here: letters, spaces, line breaks, CJK and an emoji (a surrogate pair). */
const text = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '語', '😀'), { maxLength: 400 }).map((parts) => parts.join(''));

/** Every complete part of the prefix's split (all but its last) is the same part of the whole text's split. */
function stable(split: (t: string) => string[], whole: string, cut: number): boolean {
  const before = split(whole.slice(0, cut));
  const after = split(whole);
  return before.slice(0, -1).every((part, i) => after[i] === part);
}

describe('textLines', () => {
  it('ends a line after its run of line breaks, once something else follows', () => {
    expect(textLines('')).toEqual(['']);
    expect(textLines('one')).toEqual(['one']);
    expect(textLines('one\n')).toEqual(['one\n']);
    expect(textLines('one\n\ntwo\nthree')).toEqual(['one\n\n', 'two\n', 'three']);
    expect(textLines('\n\nlead')).toEqual(['\n\n', 'lead']);
    expect(textLines('a\n\n\n')).toEqual(['a\n\n\n']);
  });

  it('joins back into the text, and growing it never moves an earlier boundary', () => {
    fc.assert(
      fc.property(text, fc.nat(), (t, n) => {
        expect(textLines(t).join('')).toBe(t);
        expect(stable(textLines, t, t.length ? n % (t.length + 1) : 0)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('textPieces', () => {
  it('cuts after the first space or line break past the size, or at twice the size without one', () => {
    expect(textPieces('aaaa bb cc', 4)).toEqual(['aaaa ', 'bb cc']);
    expect(textPieces('aaaaaaaaaaa', 4)).toEqual(['aaaaaaaa', 'aaa']);
    expect(textPieces('aaaaaaa', 4)).toEqual(['aaaaaaa']); // undecided: a space may still come before 8
    expect(textPieces('', 4)).toEqual(['']);
  });

  it('never splits a surrogate pair', () => {
    const pieces = textPieces('aaaaaaa😀😀', 4);
    expect(pieces).toEqual(['aaaaaaa😀', '😀']);
    for (const piece of textPieces('😀'.repeat(50), 4)) expect(piece).toMatch(/^(?:\uD83D\uDE00)+$/);
  });

  it('joins back into the text, and growing it never moves an earlier boundary', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.integer({ min: 1, max: 40 }), (t, n, size) => {
        const split = (s: string) => textPieces(s, size);
        expect(split(t).join('')).toBe(t);
        expect(stable(split, t, t.length ? n % (t.length + 1) : 0)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
