// A SillyTavern chat comes in whole and goes back out as it came: its swipes (each with its time and reasoning), the
// one shown, hidden messages, the reasoning SillyTavern keeps in `extra`, every other field of a line, and the chat's
// variables. What a session cannot hold is said in the import's notes, never dropped silently.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { addSwipe, editContent, showSwipe } from '../../../electron/core/chat/swipes';
import { messageWireIn } from '../../../electron/core/chat/chat-reads';
import { RegexStore } from '../../../electron/core/regex/regex-store';
import { importSessionFile, previewImport } from '../../../electron/core/imports/session-import';
import { parseStChat, toStChat } from '../../../electron/core/imports/st-chat';
import { stLineOf } from '../../../electron/core/imports/st-chat-message';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { missingFrom } from '../../helpers/missing-from';

afterEach(cleanupTempDirs);

type Json = Record<string, unknown>;
const jsonl = (lines: unknown[]) => Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n'));
const store = () => new SessionStore({ dataDir: tempDir() });

async function importChat(lines: unknown[]) {
  const sessions = store();
  const result = await importSessionFile(sessions, jsonl(lines), { now: 1, regex: new RegexStore(sessions.db, Date) });
  return { sessions, ...result };
}


const parseLines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as Json);

/** A chat as SillyTavern 1.12+ writes one: a greeting with alternates, reasoning, a hidden message, chat variables. */
const HEADER = { user_name: 'Kai', character_name: 'Seraphina', create_date: '2025-03-01@12h00m00s', chat_metadata: { note_prompt: 'Stay in the glade.', note_depth: 4, variables: { trust: '3', visited: 'glade' } } };
const GREETING = {
  name: 'Seraphina',
  is_user: false,
  is_system: false,
  send_date: 1740830400000,
  mes: 'You wake in the glade.',
  swipes: ['The forest is quiet.', 'You wake in the glade.', 'A wolf howls.'],
  swipe_id: 1,
  swipe_info: [
    { send_date: 1740830400000, gen_started: '2025-03-01T12:00:00Z', extra: {} },
    { send_date: 1740830400000, extra: {} },
    { send_date: 1740830500000, gen_started: '2025-03-01T12:01:40Z', gen_finished: '2025-03-01T12:01:45Z', extra: { api: 'openai', model: 'o3', reasoning: 'A sound, then.', reasoning_duration: 4200 } },
  ],
  extra: {},
  force_avatar: 'seraphina.png',
};
const USER = { name: 'Kai', is_user: true, is_system: false, send_date: 1740830600000, mes: 'Who are you?', extra: { token_count: 4 }, force_avatar: 'User Avatars/kai.png' };
const HIDDEN = { name: 'Seraphina', is_user: false, is_system: true, send_date: 1740830650000, mes: '(an aside kept out of the prompt)', extra: { type: 'narrator' } };
const REPLY = {
  name: 'Seraphina',
  is_user: false,
  is_system: false,
  send_date: 1740830700000,
  gen_started: '2025-03-01T12:05:00Z',
  gen_finished: '2025-03-01T12:05:09Z',
  mes: 'I am Seraphina, guardian of this forest.',
  extra: { api: 'openai', model: 'o3', reasoning: 'They are new here. Be kind.', reasoning_duration: 8100, token_count: 9, bias: null },
  title: '',
};

describe('a SillyTavern chat comes in whole', () => {
  it('swipes with their times and reasoning, the one shown, a hidden message, reasoning, other fields and variables', async () => {
    const { session, summary } = await importChat([HEADER, GREETING, USER, HIDDEN, REPLY]);
    expect(summary).toMatchObject({ kind: 'st-chat', messages: 4, notes: [] });
    const [greeting, user, hidden, reply] = session.messages;
    expect(greeting).toMatchObject({ role: 'assistant', content: 'You wake in the glade.', swipeId: 1 });
    expect(greeting!.swipes!.map((s) => s.content)).toEqual(GREETING.swipes);
    expect(greeting!.swipes![2]).toMatchObject({ createdAt: 1740830500000, reasoning: 'A sound, then.', reasoningMs: 4200, source: { gen_started: '2025-03-01T12:01:40Z', extra: { api: 'openai', model: 'o3' } } });
    expect(user).toMatchObject({ role: 'user', content: 'Who are you?', line: { force_avatar: 'User Avatars/kai.png' }, source: { extra: { token_count: 4 } } });
    expect(user!.swipes).toBeUndefined();
    expect(hidden).toMatchObject({ hidden: true, source: { extra: { type: 'narrator' } } });
    expect(reply).toMatchObject({ reasoning: 'They are new here. Be kind.', reasoningMs: 8100 });
    // SillyTavern's reasoning is the message's own, not kept twice.
    expect(reply!.source!.extra).toEqual({ api: 'openai', model: 'o3', token_count: 9, bias: null });
    expect(session.metadata).toEqual({ chat_variables: { trust: '3', visited: 'glade' }, sillytavern_chat: { header: { create_date: '2025-03-01@12h00m00s' }, chat_metadata: { note_prompt: 'Stay in the glade.', note_depth: 4 } } });
    // A line's own fields stay with the message, whichever swipe shows.
    expect(greeting!.line).toEqual({ force_avatar: 'seraphina.png' });
    expect(reply!.line).toEqual({ title: '' });
  });

  it('goes back out as it came: every field of every line, and a second trip equals the first', async () => {
    const lines = [HEADER, GREETING, USER, HIDDEN, REPLY];
    const { session, sessions } = await importChat(lines);
    const exported = parseLines(toStChat(session));
    expect(exported).toHaveLength(lines.length);
    // Everything, to the last field, as it came.
    lines.forEach((line, i) => expect(missingFrom(line, exported[i])).toEqual([]));
    const again = await importSessionFile(sessions, Buffer.from(toStChat(session)), { now: 1, regex: new RegexStore(sessions.db, Date) });
    expect(parseLines(toStChat(again.session)).slice(1)).toEqual(exported.slice(1));
  });

  it('extensions read a message as Lumiverse hands it: the imported extra, the hidden flag, reasoning and its duration', async () => {
    const { session } = await importChat([HEADER, GREETING, USER, HIDDEN, REPLY]);
    expect(messageWireIn(session, 3).extra).toEqual({ api: 'openai', model: 'o3', token_count: 9, bias: null, reasoning: 'They are new here. Be kind.', reasoningDuration: 8100 });
    expect(messageWireIn(session, 2).extra).toEqual({ type: 'narrator', hidden: true });
    // What a processor added later is read beside what the file kept (and an extension's metadata stays apart).
    const processed = { ...session.messages[3]!, extra: { slash: 'mood', model: 'o3-mini' }, metadata: { mine: 1 } };
    expect(messageWireIn(session, 3, processed)).toMatchObject({ extra: { api: 'openai', model: 'o3-mini', token_count: 9, slash: 'mood', spindle_metadata: { mine: 1 } } });
    // Exported, the line's extra carries it too (an extension's metadata does not leave).
    const line = stLineOf(processed, 'Seraphina') as { extra: Record<string, unknown> };
    expect(line.extra).toMatchObject({ api: 'openai', model: 'o3-mini', slash: 'mood' });
    expect(JSON.stringify(line)).not.toContain('"mine"');
    expect(messageWireIn(session, 0)).toMatchObject({ swipe_id: 1, swipes: GREETING.swipes, swipe_dates: [1740830400, 1740830400, 1740830500] });
  });

  it('a swipe keeps its reasoning and imported fields when another is shown or a new one is added', async () => {
    const { session } = await importChat([HEADER, GREETING]);
    const shown = showSwipe(session.messages[0]!, 2);
    expect(shown).toMatchObject({ content: 'A wolf howls.', reasoning: 'A sound, then.', reasoningMs: 4200, source: { gen_started: '2025-03-01T12:01:40Z' } });
    const added = addSwipe(shown, { id: 'x', role: 'assistant', content: 'New.', createdAt: 5 });
    expect(added.swipes![2]).toMatchObject({ reasoning: 'A sound, then.', source: { gen_finished: '2025-03-01T12:01:45Z' } });
    expect(added).not.toHaveProperty('reasoning');
    expect(added.swipes![0]).toMatchObject({ source: { gen_started: '2025-03-01T12:00:00Z' } });
  });
});

describe('what SillyTavern writes that a first reading would lose', () => {
  it("a speaker other than the chat's (a group chat, a narrator, an older persona name) keeps its name", async () => {
    const group = { user_name: 'unused', character_name: 'unused', create_date: 5 };
    const lines = [group, { ...USER, name: 'Kai' }, { ...REPLY, name: 'Mara' }, { ...REPLY, name: 'Narrator', mes: 'The fire dies.' }];
    const { session } = await importChat(lines);
    expect(session.messages.map((m) => m.line?.name)).toEqual(['Kai', 'Mara', 'Narrator']);
    expect(parseLines(toStChat(session)).slice(1).map((l) => l.name)).toEqual(['Kai', 'Mara', 'Narrator']);
  });

  it('a reply SillyTavern wrote with its one swipe comes back with it, as the message is now', async () => {
    const one = { ...REPLY, swipes: [REPLY.mes], swipe_id: 0, swipe_info: [{ send_date: REPLY.send_date, gen_started: REPLY.gen_started, gen_finished: REPLY.gen_finished, extra: REPLY.extra }] };
    const { session } = await importChat([HEADER, one]);
    expect(session.messages[0]!.swipes).toBeUndefined();
    const [, back] = parseLines(toStChat(session));
    expect(missingFrom(one, back)).toEqual([]);
    // Edited in the Workbench, its one swipe is the new text.
    const edited = { ...session, messages: [{ ...session.messages[0]!, content: 'Edited.' }] };
    expect(parseLines(toStChat(edited))[1]).toMatchObject({ mes: 'Edited.', swipes: ['Edited.'], swipe_id: 0 });
  });

  it("a line's own fields stay on the line when another swipe shows or a new one is added; each swipe keeps its own", async () => {
    const { session } = await importChat([HEADER, GREETING]);
    const regenerated = addSwipe(showSwipe(session.messages[0]!, 0), { id: 'x', role: 'assistant', content: 'A new take.', createdAt: 9 });
    const [, line] = parseLines(toStChat({ ...session, messages: [regenerated] }));
    expect(line).toMatchObject({ force_avatar: 'seraphina.png', mes: 'A new take.', swipe_id: 3 });
    expect(line!.swipes).toEqual([...GREETING.swipes, 'A new take.']);
    const info = line!.swipe_info as Json[];
    expect(info[2]).toMatchObject({ gen_started: '2025-03-01T12:01:40Z', extra: { api: 'openai', model: 'o3', reasoning: 'A sound, then.', reasoning_duration: 4200 } });
    expect(info.some((entry) => 'force_avatar' in entry)).toBe(false);
  });

  it("an edit in the Workbench drops what the imported extra said of the old text (display_text, token_count), and keeps the rest", async () => {
    const translated = { ...REPLY, extra: { ...REPLY.extra, display_text: 'Je suis Seraphina.', token_count: 9 } };
    const { session } = await importChat([HEADER, translated]);
    const edited = editContent(session.messages[0]!, 'I am Seraphina.');
    expect(edited.source!.extra).toEqual({ api: 'openai', model: 'o3', bias: null });
    expect(parseLines(toStChat({ ...session, messages: [edited] }))[1]).toMatchObject({ mes: 'I am Seraphina.', extra: { api: 'openai', reasoning: 'They are new here. Be kind.' } });
  });

  it('a date written as text comes back as written', async () => {
    const dated = { ...USER, send_date: 'March 1, 2025 12:10pm' };
    const { session } = await importChat([HEADER, dated]);
    expect(session.messages[0]!.createdAt).toBe(Date.parse('March 1, 2025 12:10 pm'));
    expect(parseLines(toStChat(session))[1]!.send_date).toBe('March 1, 2025 12:10pm');
  });
});

describe('what a session cannot hold is said, and the rest comes in', () => {
  it('swipes past the cap: the shown one and those nearest the start are kept, and the preview says how many were not', async () => {
    const count = SESSION_LIMITS.swipes + 30;
    const swipes = Array.from({ length: count }, (_, i) => `take ${i}`);
    const line = { name: 'Seraphina', is_user: false, send_date: 5, mes: 'take 120', swipes, swipe_id: 120 };
    const { session, summary } = await importChat([HEADER, line]);
    const [message] = session.messages;
    expect(message!.swipes).toHaveLength(SESSION_LIMITS.swipes);
    expect(message!.swipes![message!.swipeId!]!.content).toBe('take 120');
    expect(message!.swipes![0]!.content).toBe('take 0');
    expect(summary.notes).toEqual([`30 swipes past ${SESSION_LIMITS.swipes} on a message were left out (the shown one is kept).`]);
    expect(previewImport(jsonl([HEADER, line])).notes).toEqual(summary.notes);
  });

  it("a line whose other fields are over the cap comes in without them; a chat's metadata over its cap too", async () => {
    const huge = { name: 'Kai', is_user: true, send_date: 5, mes: 'Hi.', extra: { blob: 'x'.repeat(SESSION_LIMITS.source + 1) } };
    const header = { ...HEADER, chat_metadata: { note_prompt: 'y'.repeat(SESSION_LIMITS.chatMetadata) } };
    const { session, summary } = await importChat([header, huge, USER]);
    expect(session.messages[0]).toMatchObject({ content: 'Hi.' });
    expect(session.messages[0]).not.toHaveProperty('source');
    expect(session.messages[1]!.line).toMatchObject({ force_avatar: 'User Avatars/kai.png' });
    expect(session.metadata).toBeUndefined();
    expect(summary.notes).toEqual([
      `1 message or swipe kept more than ${SESSION_LIMITS.source} characters of other fields (extra…); those fields were left out.`,
      `The chat's header (chat_metadata…) is over ${SESSION_LIMITS.chatMetadata} characters as JSON and was left out.`,
    ]);
  });

  it('a shown swipe out of range is the one with its text, or its text one more; swipes that are not all text come back as written; a line without text is refused by its place', () => {
    const odd = { ...GREETING, swipes: ['a', 2] };
    const parsed = parseStChat([HEADER, { ...GREETING, swipe_id: 9 }, { ...GREETING, swipe_id: undefined, mes: 'Something else.' }, odd].map((l) => JSON.stringify(l)).join('\n'), 1);
    expect(parsed.messages[0]).toMatchObject({ swipeId: 1, content: 'You wake in the glade.' });
    expect(parsed.messages[0]!.swipes!.map((x) => x.content)).toEqual(GREETING.swipes);
    expect(parsed.messages[1]).toMatchObject({ swipeId: 3, content: 'Something else.' });
    expect(parsed.messages[1]!.swipes!.map((x) => x.content)).toEqual([...GREETING.swipes, 'Something else.']);
    expect(parsed.notes).toEqual(['1 message shows a text that is none of its swipes: it was kept as one more swipe, the one shown.']);
    expect(parsed.messages[2]!.swipes).toBeUndefined();
    expect(stLineOf(parsed.messages[2]!, 'Seraphina')).toMatchObject({ swipes: ['a', 2], swipe_id: 1 });
    expect(() => parseStChat([HEADER, USER, { name: 'Kai', is_user: true }].map((l) => JSON.stringify(l)).join('\n'), 1)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_INPUT', path: '/lines/2/mes' }) }));
  });
});

// ---- property: generated chats with arbitrary fields ----

const asFile = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const leaf = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(key, tie('v'), { maxKeys: 3 })) })).v;
const reserved = ['name', 'is_user', 'is_system', 'send_date', 'mes', 'swipes', 'swipe_id', 'swipe_info', 'extra'];
const others = fc.dictionary(key.filter((k) => !reserved.includes(k)), value, { maxKeys: 3 });
const extra = fc.record({ rest: fc.dictionary(key.filter((k) => !['reasoning', 'reasoning_duration'].includes(k)), value, { maxKeys: 3 }), reasoning: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }), ms: fc.option(fc.nat(100_000), { nil: undefined }) })
  .map(({ rest, reasoning, ms }) => ({ ...rest, ...(reasoning ? { reasoning } : {}), ...(ms !== undefined ? { reasoning_duration: ms } : {}) }));
const time = fc.integer({ min: 1_000_000_000_000, max: 2_000_000_000_000 });

/** A line as SillyTavern keeps it: the shown swipe's entry in swipe_info agrees with the line's time and extra. */
/** A time as SillyTavern writes it: epoch ms, or text. */
const when = fc.oneof(time.map((t) => ({ t, written: t as number | string })), time.map((t) => ({ t, written: new Date(t).toUTCString() })));

/**
 * A line as SillyTavern keeps it: the shown swipe's entry in swipe_info agrees with the line's time and extra; an
 * ordinary reply has its one swipe; a speaker may be other than the chat's (a group chat, a narrator).
 */
const line = fc
  .record({ user: fc.boolean(), hidden: fc.boolean(), at: when, others, extra, speaker: fc.constantFrom('chat', 'Narrator', 'Mara'), alternates: fc.array(fc.record({ text: fc.string({ maxLength: 20 }), at: when, extra }), { maxLength: 4 }), shown: fc.nat() })
  .map(({ user, hidden, at, others: rest, extra: own, speaker, alternates, shown }) => {
    const name = speaker === 'chat' ? (user ? 'Kai' : 'Sera') : speaker;
    const base = { ...rest, name, is_user: user, is_system: hidden, send_date: at.written, mes: `line ${at.t}`, extra: own };
    if (user) return base;
    const swipeId = shown % (alternates.length + 1);
    const texts = alternates.map((a) => a.text);
    texts.splice(swipeId, 0, base.mes);
    const info = alternates.map((a) => ({ send_date: a.at.written, extra: a.extra }));
    info.splice(swipeId, 0, { send_date: at.written, extra: own });
    return { ...base, swipes: texts, swipe_id: swipeId, swipe_info: info };
  });

describe('property: every generated SillyTavern chat survives import and export', () => {
  it('each line holds every field it had; a second trip equals the first', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), async (generated) => {
        const lines = asFile([{ user_name: 'Kai', character_name: 'Sera', create_date: 1, chat_metadata: { variables: { n: '1' } } }, ...generated]);
        const { session, sessions } = await importChat(lines);
        const exported = parseLines(toStChat(session));
        lines.slice(1).forEach((l, i) => expect(missingFrom(l, exported[i + 1])).toEqual([]));
        expect(exported[0]!.chat_metadata).toEqual({ variables: { n: '1' } });
        const again = await importSessionFile(sessions, Buffer.from(toStChat(session)), { now: 1, regex: new RegexStore(sessions.db, Date) });
        expect(parseLines(toStChat(again.session)).slice(1)).toEqual(exported.slice(1));
      }),
      { numRuns: 60 },
    );
  });
});
