// World-info activation against SillyTavern's documented rules, as a table: each row is an entry as a SillyTavern
// world-info file writes it (null = "use the global setting": whole words off, case-insensitive), the recent
// messages (oldest first), and whether SillyTavern would fire it. Rows are read through the real importer.
import { describe, expect, it } from 'vitest';
import { activeWorldInfo, WORLD_INFO_SCAN_DEPTH } from '../../../electron/core/lore/world-info';
import { parseLorebook } from '../../../electron/core/imports/lorebook';

type Row = [string, Record<string, unknown>, string[], boolean];

const entry = (fields: Record<string, unknown>) => ({ uid: 0, key: [], keysecondary: [], content: 'Fired.', constant: false, selective: true, selectiveLogic: 0, disable: false, matchWholeWords: null, caseSensitive: null, scanDepth: null, ...fields });

const ROWS: Row[] = [
  // Whole words
  ['CJK keyword, whole words unset (global off), inside a CJK sentence', { key: ['月影阁'] }, ['我们今晚去月影阁喝茶。'], true],
  ['CJK keyword, whole words on, inside a CJK sentence (CJK are non-word characters to \\W)', { key: ['月影阁'], matchWholeWords: true }, ['我们今晚去月影阁喝茶。'], true],
  ['Japanese keyword, whole words on, inside a Japanese sentence', { key: ['東京'], matchWholeWords: true }, ['明日は東京へ行きます。'], true],
  ['whole words on: "cat" is not in "category"', { key: ['cat'], matchWholeWords: true }, ['A category of its own.'], false],
  ['whole words on: "cat" beside punctuation', { key: ['cat'], matchWholeWords: true }, ['The cat, asleep.'], true],
  ['whole words off: "cat" is in "category"', { key: ['cat'], matchWholeWords: false }, ['A category of its own.'], true],
  ['whole words unset: SillyTavern\'s default is off', { key: ['cat'] }, ['A category of its own.'], true],
  ['whole words on, a keyword of two words is found as written', { key: ['old lamp'], matchWholeWords: true }, ['the bold lamplight'], true],
  // Case
  ['case unset: any case', { key: ['Lamp'] }, ['the LAMP is lit'], true],
  ['case-sensitive: the case must match', { key: ['Lamp'], caseSensitive: true }, ['the lamp is lit'], false],
  ['case-sensitive: matching case fires', { key: ['Lamp'], caseSensitive: true }, ['the Lamp is lit'], true],
  // Secondary keyword logic (0 AND ANY, 1 NOT ALL, 2 NOT ANY, 3 AND ALL)
  ['AND ANY: one secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 0 }, ['harbor in fog'], true],
  ['AND ANY: no secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 0 }, ['harbor at noon'], false],
  ['NOT ALL: not every secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 1 }, ['harbor at night'], true],
  ['NOT ALL: every secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 1 }, ['harbor at night in fog'], false],
  ['NOT ANY: no secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 2 }, ['harbor at noon'], true],
  ['NOT ANY: a secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 2 }, ['harbor in fog'], false],
  ['AND ALL: every secondary present', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 3 }, ['harbor at night in fog'], true],
  ['AND ALL: one missing', { key: ['harbor'], keysecondary: ['night', 'fog'], selectiveLogic: 3 }, ['harbor at night'], false],
  ['not selective: secondary keywords are not looked at', { key: ['harbor'], keysecondary: ['night'], selective: false, selectiveLogic: 3 }, ['harbor at noon'], true],
  // Scan depth
  ['scan depth 1: only the last message', { key: ['lamp'], scanDepth: 1 }, ['the lamp', 'something else'], false],
  ['scan depth 2: the last two messages', { key: ['lamp'], scanDepth: 2 }, ['the lamp', 'something else'], true],
  [`scan depth unset: the Workbench's ${WORLD_INFO_SCAN_DEPTH} messages`, { key: ['lamp'] }, ['the lamp', ...Array<string>(WORLD_INFO_SCAN_DEPTH).fill('x')], false],
  // Constant and disabled
  ['constant: fires without its keywords', { key: ['never-said'], constant: true }, ['hello'], true],
  ['constant with no keywords: fires', { constant: true }, ['hello'], true],
  ['no keywords, not constant: never fires', {}, ['hello'], false],
  ['disabled: never fires, even constant', { key: ['lamp'], constant: true, disable: true }, ['the lamp'], false],
  ['empty content: never fires', { key: ['lamp'], content: '' }, ['the lamp'], false],
];

describe("world-info activation follows SillyTavern's rules", () => {
  it.each(ROWS)('%s', (_label, fields, messages, fires) => {
    const [parsed] = parseLorebook({ entries: { '0': entry(fields) } }).entries;
    expect(activeWorldInfo([parsed!], messages).length === 1).toBe(fires);
  });

  it('the same entry inside a card book (settings under extensions, snake_case) fires the same way', () => {
    const card = { keys: ['月影阁'], content: 'Fired.', enabled: true, insertion_order: 1, extensions: { match_whole_words: true, case_sensitive: null, selectiveLogic: 0, scan_depth: 1 } };
    const [parsed] = parseLorebook({ entries: [card] }, '', 'card').entries;
    expect(parsed).toMatchObject({ wholeWords: true, scanDepth: 1 });
    expect(activeWorldInfo([parsed!], ['月影阁', '我们今晚去月影阁喝茶。'])).toHaveLength(1);
    expect(activeWorldInfo([parsed!], ['月影阁', '没有'])).toHaveLength(0);
  });
});
