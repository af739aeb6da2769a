// SillyTavern lorebooks, both field sets, into session world info; and the activation rules the Workbench follows.
import { describe, expect, it } from 'vitest';
import { activeWorldInfo } from '../../../electron/core/lore/world-info';
import { parseLorebook } from '../../../electron/core/imports/lorebook';
import { HostFailure } from '../../../shared/errors';

/** SillyTavern's own file: entries keyed by number, its field names. */
const stFile = {
  entries: {
    '0': { uid: 0, key: ['harbor'], keysecondary: ['night'], selective: true, selectiveLogic: 3, content: 'The harbor chain rises at night.', constant: false, order: 20, position: 1, disable: false, probability: 80, useProbability: true, depth: 4 },
    '1': { uid: 1, key: [], keysecondary: [], content: 'The sea is always cold.', constant: true, order: 5, disable: false },
    '2': { uid: 2, key: [], keysecondary: [], content: 'Never fires: no keywords, not constant.', constant: false, disable: false },
    '3': { uid: 3, key: ['Lamp'], content: 'Case matters here.', caseSensitive: true, disable: false },
    '4': { uid: 4, key: ['ship'], content: 'Disabled entry.', disable: true },
  },
};

/** The card spec's field set (an older export). */
const cardBook = { name: 'Coast', entries: [{ keys: ['tide'], secondary_keys: ['moon'], selective: true, content: 'Tides follow the moon.', enabled: true, insertion_order: 1, case_sensitive: false, extensions: { 'x/y': 1 } }] };

describe('lorebook import', () => {
  it('reads the file field set: keys, secondary logic, constant, order, disable, case; keeps and lists what it does not use', () => {
    const book = parseLorebook(stFile);
    expect(book.entries.map((e) => e.content.slice(0, 12))).toEqual(['The harbor c', 'The sea is a', 'Never fires:', 'Case matters', 'Disabled ent']);
    expect(book.entries[0]).toMatchObject({ keywords: ['harbor'], secondaryKeywords: ['night'], selectiveLogic: 'and_all', constant: false, order: 20, source: { shape: 'file', entry: stFile.entries['0'] } });
    expect(book.entries[1]).toMatchObject({ keywords: [], constant: true });
    expect(book.entries[3]).toMatchObject({ caseSensitive: true });
    expect(book.entries[4]!.enabled).toBe(false);
    expect(book.ignored).toEqual(['depth', 'position', 'probability', 'useProbability']);
  });

  it('reads the card field set', () => {
    const book = parseLorebook(cardBook);
    expect(book.name).toBe('Coast');
    expect(book.entries[0]).toMatchObject({ keywords: ['tide'], secondaryKeywords: ['moon'], selectiveLogic: 'and_any', enabled: true, order: 1, caseSensitive: false, source: { shape: 'card', entry: cardBook.entries[0] } });
    expect(book.ignored).toEqual(['x/y']);
  });

  it.each([
    ['no entries', { name: 'x' }, 'INVALID_INPUT', '/entries'],
    ['10,000 entries', { entries: Array.from({ length: 10_000 }, () => ({ key: ['a'], content: 'b' })) }, 'INPUT_TOO_LARGE', '/entries'],
    ['content that is not text', { entries: { '7': { key: ['a'], content: 5 } } }, 'INVALID_INPUT', '/entries/7/content'],
  ])('refuses a lorebook with %s, naming the field', (_label, doc, code, path) => {
    try {
      parseLorebook(doc);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(HostFailure);
      expect((err as HostFailure).error).toMatchObject({ code, path });
    }
  });
});

describe('world-info activation', () => {
  const entries = parseLorebook(stFile).entries;
  const fired = (messages: string[]) => activeWorldInfo(entries, messages).map((e) => e.content.slice(0, 12));

  it('constant entries always fire, first by order; an imported entry with no keywords that is not constant never fires', () => {
    expect(fired(['Hello.'])).toEqual(['The sea is a']);
  });

  it('AND ALL secondary keywords: the harbor entry needs "night" too', () => {
    expect(fired(['We reach the harbor.'])).toEqual(['The sea is a']);
    expect(fired(['We reach the harbor at night.'])).toEqual(['The sea is a', 'The harbor c']);
  });

  it('case-sensitive keywords, whole words, disabled entries, and the scan depth', () => {
    expect(fired(['the lamp'])).not.toContain('Case matters');
    expect(fired(['the Lamp'])).toContain('Case matters');
    // Whole words unset in the file: SillyTavern's global setting, off by default, so "harbor" is found in "harbors".
    expect(fired(['harbors at night'])).toContain('The harbor c');
    expect(fired(['a ship'])).not.toContain('Disabled ent');
    expect(fired(['harbor at night', 'two', 'three', 'four', 'five'])).not.toContain('The harbor c');
  });

  it("the Workbench's own entries (no constant flag) still fire always when they have no keywords", () => {
    expect(activeWorldInfo([{ id: 'a', keywords: [], content: 'Always.', enabled: true }], ['x']).map((e) => e.content)).toEqual(['Always.']);
  });
});
