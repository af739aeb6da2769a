// Issue 33, trap 9: a card imported together with its own lorebook's file (or the file added later) keeps each entry
// once; entries repeated within one source stay as their author made them.
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { RegexStore } from '../../../electron/core/regex/regex-store';
import { addLorebook, importSessionFile, previewImport } from '../../../electron/core/imports/session-import';
import { mergeWorldInfo } from '../../../electron/core/imports/world-info-merge';
import type { WorldInfoEntry } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** The book as a card embeds it (character_book) and as SillyTavern saves it to a file (world info: entries by uid). */
const bookEntries = [
  { keys: ['lamp', 'lighthouse'], secondary_keys: [], content: 'The lamp has burned for a hundred years.', enabled: true, insertion_order: 100, id: 0 },
  { keys: ['Mara'], secondary_keys: ['storm'], content: 'Mara fears the winter storms.', enabled: true, insertion_order: 90, id: 1 },
];
const card = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: { name: 'Mara', description: 'Keeper of the lamp.', personality: '', scenario: '', first_mes: 'You made it.', mes_example: '', character_book: { name: 'Harbor', entries: bookEntries } },
};
const stFile = (entries: Array<{ key: string[]; keysecondary: string[]; content: string }>) => ({
  entries: Object.fromEntries(entries.map((e, uid) => [uid, { uid, ...e, comment: '', constant: false, selective: e.keysecondary.length > 0, order: 100, disable: false }])),
});
// The same two entries, keywords in another order, as the file SillyTavern exports beside the card.
const sameBook = stFile([
  { key: ['lighthouse', 'lamp'], keysecondary: [], content: 'The lamp has burned for a hundred years.' },
  { key: ['Mara'], keysecondary: ['storm'], content: 'Mara fears the winter storms.\n' },
]);

describe('world info from a card and its own lorebook', () => {
  it('imported together, each entry is kept once, and the preview says so before anything is created', async () => {
    const preview = previewImport(json(card), [json(sameBook)]);
    expect(preview).toMatchObject({ worldInfoEntries: 2, duplicateEntries: 2 });
    const sessions = new SessionStore({ dataDir: tempDir() });
    const { session, summary } = await importSessionFile(sessions, json(card), { now: 1, lorebooks: [json(sameBook)], regex: new RegexStore(sessions.db, Date) });
    expect(session.worldInfo.map((e) => e.content)).toEqual(['The lamp has burned for a hundred years.', 'Mara fears the winter storms.']);
    expect(summary).toMatchObject({ worldInfoEntries: 2, duplicateEntries: 2 });
  });

  it('added to the session later, only what is new is added', async () => {
    const sessions = new SessionStore({ dataDir: tempDir() });
    const { session } = await importSessionFile(sessions, json(card), { now: 1, regex: new RegexStore(sessions.db, Date) });
    expect(addLorebook(sessions, session.id, json(sameBook))).toMatchObject({ added: 0, duplicates: 2 });
    const more = stFile([...Object.values(sameBook.entries).map((e) => ({ key: e.key, keysecondary: e.keysecondary, content: e.content })), { key: ['gull'], keysecondary: [], content: 'The gulls know.' }]);
    const result = addLorebook(sessions, session.id, json(more));
    expect(result).toMatchObject({ added: 1, duplicates: 2 });
    expect(result.session.worldInfo.map((e) => e.content)).toEqual(['The lamp has burned for a hundred years.', 'Mara fears the winter storms.', 'The gulls know.']);
  });

  it('entries that differ in a keyword, a secondary keyword or the content are different entries; repeats within one book stay', () => {
    const entry = (keywords: string[], content: string, secondaryKeywords?: string[]): WorldInfoEntry => ({ id: `${keywords}-${content}`, keywords, content, enabled: true, ...(secondaryKeywords ? { secondaryKeywords } : {}) });
    const base = [entry(['lamp'], 'Lit.')];
    const { entries, duplicates } = mergeWorldInfo(base, [entry(['lamp', 'oil'], 'Lit.'), entry(['lamp'], 'Lit.', ['night']), entry(['lamp'], 'Lit again.'), entry(['lamp'], 'Lit.')], [entry(['gull'], 'Cries.'), entry(['gull'], 'Cries.')]);
    expect(duplicates).toBe(1);
    expect(entries.map((e) => [e.keywords, e.content, e.secondaryKeywords ?? []])).toEqual([
      [['lamp'], 'Lit.', []],
      [['lamp', 'oil'], 'Lit.', []],
      [['lamp'], 'Lit.', ['night']],
      [['lamp'], 'Lit again.', []],
      [['gull'], 'Cries.', []],
      [['gull'], 'Cries.', []],
    ]);
  });
});
