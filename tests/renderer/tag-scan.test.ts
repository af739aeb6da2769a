// T1 (containment round three): extensions' tag interceptors find their tags as the regex they replace did, in time
// linear in the text, and a message hands at most MAX_TAGS_PER_MESSAGE tags to extensions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TAGS_PER_MESSAGE, scanTags, withoutSpans } from '../../renderer/src/features/frontends/tag-scan';

/** The matcher the scanner replaces (quadratic on unclosed tags): the reference for what a tag is. */
function regexTags(text: string, name: string) {
  return [...text.matchAll(new RegExp(`<${name}(\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'gi'))].map((m) => ({ start: m.index, end: m.index + m[0].length, attrs: m[1] ?? '', content: m[2] ?? '' }));
}

describe('T1: scanTags', () => {
  it('T1: finds exactly the tags the regex finds, on any text made of tag pieces', () => {
    const piece = fc.constantFrom('<x>', '</x>', '<X>', '</X>', '<x a="1">', '<X B="2">', '<x\n', '<xy>', '</xy>', '<x', '>', 'text', 'TEXT', ' ', '"', '<', '</x', '<y>', '</y>');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(scanTags(text, 'x', Infinity)).toEqual(regexTags(text, 'x'));
      }),
      { numRuns: 2000 },
    );
  });

  it('T1: answers at once on 100,000 unclosed tags, 100,000 tags without a `>`, and 100,000 pairs in a 300 kB+ reply', () => {
    // Each of these made the regex scan to the end of the text once per tag (about 10^10 steps).
    expect(scanTags('<x>'.repeat(100_000), 'x', Infinity)).toEqual([]);
    expect(scanTags('<x a'.repeat(100_000), 'x', Infinity)).toEqual([]);
    expect(scanTags(`${'<x a'.repeat(100_000)}>`, 'x', Infinity)).toEqual([]);
    const pairs = '<x>1</x>'.repeat(100_000);
    expect(scanTags(pairs, 'x', Infinity)).toHaveLength(100_000);
    expect(scanTags(pairs, 'x', MAX_TAGS_PER_MESSAGE)).toHaveLength(MAX_TAGS_PER_MESSAGE);
  });

  it("matches a tag's name whatever its case, as Lumiverse's interceptors do, and gives its text as written", () => {
    const text = '<SIM a="1">Hp: 3</Sim> and <sim>Mp</SIM>';
    const expected = [
      { start: 0, end: 22, attrs: ' a="1"', content: 'Hp: 3' },
      { start: 27, end: 40, attrs: '', content: 'Mp' },
    ];
    expect(scanTags(text, 'sim', 10)).toEqual(expected);
    expect(scanTags(text, 'Sim', 10)).toEqual(expected);
    // Only ASCII letters fold: the positions of a text with other cased letters stay its own.
    expect(scanTags('İ<X>İ</x>', 'x', 10)).toEqual([{ start: 1, end: 9, attrs: '', content: 'İ' }]);
  });

  it('withoutSpans takes out every span once, nested and overlapping ones together', () => {
    const text = '<y>a<x>1</x>b</y> rest <x>2</x>';
    const spans = [...scanTags(text, 'x', 10), ...scanTags(text, 'y', 10)];
    expect(withoutSpans(text, spans)).toBe(' rest ');
    expect(withoutSpans('plain', [])).toBe('plain');
  });
});
