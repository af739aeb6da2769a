// Users' files come back as they came: a card, a lorebook or a card's book imported into a session and exported in
// its own format holds every field of the original with the same value (new fields may be added), and a second
// round trip equals the first. Samples written in the shapes people publish, then properties over generated ones.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { toCard, toCardPng } from '../../../electron/core/imports/card-export';
import { pngTextChunks, solidPng, withPngTextChunks } from '../../../electron/core/imports/png-text';
import { parseCardJson } from '../../../electron/core/imports/character-card';
import { RegexStore } from '../../../electron/core/regex/regex-store';
import { addLorebook, importSessionFile } from '../../../electron/core/imports/session-import';
import { parseStChat } from '../../../electron/core/imports/st-chat';
import { toLorebookFile } from '../../../electron/core/imports/world-info-export';
import { FILE_TO_CARD_EXTENSION } from '../../../electron/core/lore/world-info-shapes';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { missingFrom } from '../../helpers/missing-from';

afterEach(cleanupTempDirs);

type Json = Record<string, unknown>;
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const store = () => new SessionStore({ dataDir: tempDir() });


async function importCard(card: Json, lorebooks: Json[] = []): Promise<{ sessions: SessionStore; session: ChatSession }> {
  const sessions = store();
  const { session } = await importSessionFile(sessions, json(card), { now: 1, lorebooks: lorebooks.map(json), regex: new RegexStore(sessions.db, Date) });
  return { sessions, session };
}

const versionOf = (card: Json) => (card.spec === 'chara_card_v3' ? 'v3' : 'v2');

describe('a card comes back as it came', () => {
  it('a V2 card with fields outside data (create_date, avatar, chat, the V1 copies SillyTavern writes) keeps them all', async () => {
    const card = {
      name: 'Mara',
      description: 'Keeper of the lamp.',
      personality: 'Quiet',
      scenario: 'A storm.',
      first_mes: 'You made it.',
      mes_example: '',
      creatorcomment: 'Made for a friend.',
      avatar: 'none',
      chat: 'Mara - 2024-1-2 @10h 11m',
      talkativeness: '0.5',
      fav: false,
      tags: ['lighthouse'],
      create_date: '2024-1-2 @10h 11m 12s 13ms',
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: { name: 'Mara', description: 'Keeper of the lamp.', personality: 'Quiet', scenario: 'A storm.', first_mes: 'You made it.', mes_example: '', creator_notes: 'Made for a friend.', system_prompt: null, tags: ['lighthouse'], extensions: { talkativeness: '0.5', fav: false, world: '', depth_prompt: { prompt: '', depth: 4, role: 'system' } } },
    };
    const { session } = await importCard(card);
    const exported = toCard(session, 'v2');
    expect(missingFrom(card, exported)).toEqual([]);
    // An edited description follows into the V1 copy SillyTavern keeps at the top.
    const edited = toCard({ ...session, character: { ...session.character, description: 'Keeper of two lamps.' } }, 'v2') as { description: string; data: { description: string } };
    expect([edited.description, edited.data.description]).toEqual(['Keeper of two lamps.', 'Keeper of two lamps.']);
  });

  it('a 30,000-character description imports (a cap protects memory, not taste) and comes back whole', async () => {
    const card = { spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'Long', description: '长'.repeat(30_000), first_mes: 'Hi.' } };
    const { session } = await importCard(card);
    expect(session.character.description).toHaveLength(30_000);
    expect(missingFrom(card, toCard(session, 'v3'))).toEqual([]);
  });
});

describe('a lorebook comes back as it came', () => {
  /** A SillyTavern world-info file entry with every setting it writes. */
  const fullEntry = {
    uid: 7,
    key: ['月影阁', 'moon pavilion'],
    keysecondary: [],
    comment: 'The pavilion',
    content: 'A pavilion where the moon is watched.',
    constant: false,
    vectorized: false,
    selective: true,
    selectiveLogic: 2,
    addMemo: true,
    order: 50,
    position: 0,
    disable: false,
    ignoreBudget: true,
    excludeRecursion: true,
    preventRecursion: false,
    matchPersonaDescription: true,
    matchCharacterDescription: false,
    matchCharacterPersonality: true,
    matchCharacterDepthPrompt: false,
    matchScenario: true,
    matchCreatorNotes: false,
    delayUntilRecursion: 2,
    probability: 35,
    useProbability: true,
    depth: 6,
    outletName: 'side',
    group: 'places',
    groupOverride: true,
    groupWeight: 40,
    scanDepth: 3,
    caseSensitive: true,
    matchWholeWords: false,
    useGroupScoring: true,
    automationId: 'auto-1',
    role: 1,
    sticky: 2,
    cooldown: 1,
    delay: 3,
    triggers: ['normal', 'swipe'],
    displayIndex: 4,
    characterFilter: { isExclude: false, names: ['Mara'], tags: [] },
  };
  const file = { name: 'Moon book', description: 'Places.', extensions: { custom: 1 }, entries: { '7': fullEntry, '9': { uid: 9, key: 'a, b', keysecondary: null, content: 'Comma keys.', matchWholeWords: null, selective: true, disable: false } } };

  it('a SillyTavern world-info file exported as a lorebook holds every field as it was (null settings, comma-separated keys, selective without secondary keys)', async () => {
    const sessions = store();
    const { session } = await importSessionFile(sessions, json({ spec: 'chara_card_v2', data: { name: 'Host', first_mes: 'Hi.' } }), { now: 1, lorebooks: [json(file)], regex: new RegexStore(sessions.db, Date) });
    const exported = toLorebookFile(session);
    expect(missingFrom(file, exported)).toEqual([]);
  });

  it("through a card export, every setting reaches the shape SillyTavern's convertCharacterBook reads (under extensions), and the session keeps them", async () => {
    const { session } = await importCard({ spec: 'chara_card_v2', data: { name: 'Host', first_mes: 'Hi.' } }, [file]);
    const book = (toCard(session, 'v2').data as Json).character_book as { entries: Json[] };
    const exported = book.entries.find((e) => e.id === 7)!;
    // convertCharacterBook reads these from the card entry itself ...
    expect(exported).toMatchObject({ keys: fullEntry.key, secondary_keys: [], comment: fullEntry.comment, content: fullEntry.content, constant: false, selective: true, insertion_order: 50, enabled: true, position: 'before_char' });
    // ... and every other setting from extensions, in snake_case.
    const extensions = exported.extensions as Json;
    for (const [fileKey, extKey] of Object.entries(FILE_TO_CARD_EXTENSION)) expect(extensions[extKey], `${fileKey} → extensions.${extKey}`).toEqual(fullEntry[fileKey as keyof typeof fullEntry]);
    // Read back by the Workbench, the card's book gives the same entry.
    const again = parseCardJson(toCard(session, 'v2'));
    expect(again.book!.entries.find((e) => e.source?.entry.id === 7)).toMatchObject({ keywords: fullEntry.key, caseSensitive: true, wholeWords: false, scanDepth: 3, order: 50 });
  });

  it('an entry edited in the Workbench writes only what changed; the rest stays as it came', async () => {
    const sessions = store();
    const { session } = await importSessionFile(sessions, json({ spec: 'chara_card_v2', data: { name: 'Host', first_mes: 'Hi.' } }), { now: 1, lorebooks: [json(file)], regex: new RegexStore(sessions.db, Date) });
    const edited = { ...session, worldInfo: session.worldInfo.map((e, i) => (i === 0 ? { ...e, content: 'Rewritten.', keywords: ['月影阁'] } : e)) };
    const entry = (toLorebookFile(edited).entries as Json)['7'] as Json;
    expect(entry).toEqual({ ...fullEntry, content: 'Rewritten.', key: ['月影阁'] });
  });

  it('a lorebook added to an existing session comes back too', async () => {
    const sessions = store();
    const { session } = await importSessionFile(sessions, json({ spec: 'chara_card_v2', data: { name: 'Host', first_mes: 'Hi.' } }), { now: 1, regex: new RegexStore(sessions.db, Date) });
    const { session: withBook } = addLorebook(sessions, session.id, json(file));
    expect(missingFrom(file, toLorebookFile(withBook))).toEqual([]);
  });
});

describe('old chats', () => {
  it('a TavernAI chat kept as one JSON array imports as a chat', async () => {
    const sessions = store();
    const chat = [
      { user_name: 'You', character_name: 'Aqua', create_date: 1674559896839 },
      { name: 'Aqua', is_user: false, is_name: true, send_date: 1674563371558, mes: 'Are you new here?' },
      { name: 'You', is_user: true, is_name: true, send_date: 1674563380000, mes: 'I am.' },
    ];
    const { session, summary } = await importSessionFile(sessions, json(chat), { now: 1, regex: new RegexStore(sessions.db, Date) });
    expect(summary).toMatchObject({ kind: 'st-chat', characterName: 'Aqua', messages: 2 });
    expect(session.messages.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Are you new here?'],
      ['user', 'I am.'],
    ]);
    expect(session.persona.name).toBe('You');
    // Without its header, the names come from the messages.
    expect((await importSessionFile(sessions, json(chat.slice(1)), { now: 1, regex: new RegexStore(sessions.db, Date) })).summary.characterName).toBe('Aqua');
    expect(parseStChat(chat.map((l) => JSON.stringify(l)).join('\n'), 1).messages).toHaveLength(2);
  });

  it('a JSON list that is neither says what it is and what is accepted', async () => {
    const sessions = store();
    await expect(importSessionFile(sessions, json([1, 2, 3]), { now: 1, regex: new RegexStore(sessions.db, Date) })).rejects.toThrow(/a list of 3 items, not a character card\. Accepted here: a character card .*, a SillyTavern or TavernAI chat, a Workbench session/);
  });
});

// ---- properties: generated files with arbitrary extra fields ----

/** What a file can hold: JSON (no undefined, no -0). */
const asFile = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const leaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const value = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 3 })) })).v;
const extras = (reserved: readonly string[]) => fc.dictionary(key.filter((k) => !reserved.includes(k)), value, { maxKeys: 4 });
const words = fc.array(fc.stringMatching(/^[a-z月影阁]{1,8}$/), { maxLength: 3 });

const CARD_ENTRY_KEYS = ['id', 'keys', 'secondary_keys', 'comment', 'content', 'constant', 'selective', 'insertion_order', 'enabled', 'position', 'use_regex', 'extensions', 'case_sensitive', 'selectiveLogic'];
const cardEntry = fc.record(
  {
    keys: words,
    secondary_keys: fc.option(words, { nil: undefined }),
    content: fc.string({ maxLength: 40 }),
    enabled: fc.boolean(),
    insertion_order: fc.integer({ min: 0, max: 1000 }),
    constant: fc.option(fc.boolean(), { nil: undefined }),
    selective: fc.option(fc.boolean(), { nil: undefined }),
    extensions: fc.record({ selectiveLogic: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), match_whole_words: fc.option(fc.boolean(), { nil: null }), scan_depth: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }), extra_setting: value }),
  },
  { requiredKeys: ['keys', 'content', 'enabled', 'insertion_order', 'extensions'] },
).chain((entry) => extras(CARD_ENTRY_KEYS).map((more) => ({ ...more, ...entry })));

const text = (max: number) => fc.string({ maxLength: max });
/** The spec's own fields besides name and the book, each there or not, as cards in the wild have them. */
const specFields = fc.record(
  {
    description: fc.option(text(60), { nil: null }),
    personality: text(30),
    scenario: text(30),
    first_mes: text(30),
    mes_example: text(40),
    creator_notes: text(30),
    system_prompt: text(30),
    post_history_instructions: text(30),
    alternate_greetings: fc.array(text(20), { maxLength: 3 }),
    tags: fc.array(text(10), { maxLength: 3 }),
    creator: text(15),
    character_version: text(8),
  },
  { requiredKeys: ['first_mes'] },
);
const DATA_KEYS = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example', 'creator_notes', 'system_prompt', 'post_history_instructions', 'alternate_greetings', 'tags', 'creator', 'character_version', 'character_book', 'extensions'];
const card = fc
  .record({
    spec: fc.constantFrom('chara_card_v2', 'chara_card_v3'),
    name: fc.string({ minLength: 1, maxLength: 20 }).filter((n) => n.trim() !== ''),
    fields: specFields,
    extensions: fc.dictionary(key, value, { maxKeys: 3 }),
    book: fc.option(fc.record({ name: fc.string({ maxLength: 10 }), entries: fc.array(cardEntry, { maxLength: 4 }) }), { nil: undefined }),
    dataExtras: extras(DATA_KEYS),
    topExtras: extras(['spec', 'spec_version', 'data']),
  })
  .map(({ spec, name, fields, extensions, book, dataExtras, topExtras }) => ({
    ...topExtras,
    spec,
    spec_version: spec === 'chara_card_v3' ? '3.0' : '2.0',
    data: { ...dataExtras, name, ...fields, extensions, ...(book ? { character_book: book } : {}) },
  }))
  .map(asFile);

/** A V1 card (TavernAI's): the fields at the top, no spec, and whatever else its maker added. */
const V1_KEYS = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example', 'spec', 'data'];
const v1Card = fc
  .record({
    name: fc.string({ minLength: 1, maxLength: 20 }).filter((n) => n.trim() !== ''),
    description: text(60),
    personality: text(30),
    scenario: text(30),
    first_mes: text(30),
    mes_example: text(40),
    extra: extras(V1_KEYS),
  })
  .map(({ extra, ...fields }) => ({ ...extra, ...fields }))
  .map(asFile);

const FILE_ENTRY_KEYS = ['uid', 'key', 'keysecondary', 'content', 'constant', 'selective', 'selectiveLogic', 'order', 'disable', 'caseSensitive', 'matchWholeWords', 'scanDepth', 'comment', 'extensions'];
const fileEntry = (uid: number) =>
  fc
    .record({
      key: fc.oneof(words, fc.constant('a, b')),
      keysecondary: fc.option(words, { nil: null }),
      content: fc.string({ maxLength: 40 }),
      constant: fc.boolean(),
      selective: fc.boolean(),
      selectiveLogic: fc.integer({ min: 0, max: 3 }),
      disable: fc.boolean(),
      caseSensitive: fc.option(fc.boolean(), { nil: null }),
      matchWholeWords: fc.option(fc.boolean(), { nil: null }),
      scanDepth: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
      position: fc.integer({ min: 0, max: 7 }),
    })
    .chain((entry) => extras(FILE_ENTRY_KEYS).map((more) => ({ ...more, ...entry, uid })));
const lorebook = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 5 }), extras(['entries']))
  .chain(([uids, top]) => fc.tuple(...uids.map(fileEntry)).map((entries) => ({ ...top, entries: Object.fromEntries(entries.map((e) => [String(e.uid), e])) })))
  .map(asFile);

describe('properties: every generated card and lorebook survives import and export', () => {
  it('a card (V2 or V3, extra fields at the top, in data, in its book and its entries) exported in its own version holds every field; a second trip equals the first', async () => {
    await fc.assert(
      fc.asyncProperty(card, async (original) => {
        const { session } = await importCard(original);
        const first = toCard(session, versionOf(original));
        expect(missingFrom(original, first)).toEqual([]);
        const { session: again } = await importCard(first);
        expect(toCard(again, versionOf(original))).toEqual(first);
      }),
      { numRuns: 150 },
    );
  });

  it('a V1 card (fields at the top, extra fields beside them) exported as V2 keeps every field where it was; a second trip equals the first', async () => {
    await fc.assert(
      fc.asyncProperty(v1Card, async (original) => {
        const { session } = await importCard(original);
        const first = toCard(session, 'v2');
        expect(missingFrom(original, first)).toEqual([]);
        const { session: again } = await importCard(first);
        expect(toCard(again, 'v2')).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });

  it('a PNG card (its JSON in chara, and in ccv3 for V3) exported as a PNG holds every field: V2 in chara, V3 in ccv3 with its V2 copy in chara', async () => {
    await fc.assert(
      fc.asyncProperty(card, async (original) => {
        const v3 = original.spec === 'chara_card_v3';
        const encoded = Buffer.from(JSON.stringify(original)).toString('base64');
        const png = withPngTextChunks(solidPng(4, [10, 20, 30]), v3 ? { chara: encoded, ccv3: encoded } : { chara: encoded });
        const sessions = store();
        const { session } = await importSessionFile(sessions, png, { now: 1, regex: new RegexStore(sessions.db, Date) });
        const chunks = pngTextChunks(toCardPng(session, versionOf(original), null));
        const inChunk = (name: string) => JSON.parse(Buffer.from(chunks.get(name)!, 'base64').toString('utf8')) as Json;
        if (v3) {
          expect(missingFrom(original, inChunk('ccv3')), 'ccv3').toEqual([]);
          // chara holds the V2 copy older readers take, as the V3 spec asks.
          expect(missingFrom({ ...original, spec: 'chara_card_v2', spec_version: '2.0' }, inChunk('chara')), 'chara').toEqual([]);
        } else {
          expect(missingFrom(original, inChunk('chara')), 'chara').toEqual([]);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('a SillyTavern lorebook (any settings, nulls, comma keys, extra fields) exported as a lorebook holds every field; a second trip equals the first', async () => {
    const host = { spec: 'chara_card_v2', data: { name: 'Host', first_mes: 'Hi.' } };
    await fc.assert(
      fc.asyncProperty(lorebook, async (original) => {
        const { session } = await importCard(host, [original]);
        const first = toLorebookFile(session);
        expect(missingFrom(original, first)).toEqual([]);
        const { session: again } = await importCard(host, [first]);
        expect(toLorebookFile(again)).toEqual(first);
      }),
      { numRuns: 150 },
    );
  });
});
