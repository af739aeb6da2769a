// Round three, case E1: events carry chat text only to an extension (and its frames) holding chat_mutation.
import { describe, expect, it } from 'vitest';
import { tellFrames } from '../../../renderer/src/features/frontends/frame-events';
import { CHAT_TEXT_EVENTS, eventPayloadFor } from '../../../shared/spindle/event-access';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import { newScript } from '../../../electron/core/regex/regex-script';

const SECRET = 'my private plan: bring the ledger';
const message = { id: 'm1', chat_id: 'c1', index_in_chat: 0, is_user: true, name: 'Ada', content: SECRET, swipes: [SECRET, 'other'], swipe_dates: [1, 2], metadata: { note: SECRET }, extra: {}, role: 'user' };
const EVENTS: Array<[string, unknown]> = [
  ['MESSAGE_SENT', { chatId: 'c1', message }],
  ['MESSAGE_EDITED', { chatId: 'c1', message }],
  ['MESSAGE_SWIPED', { chatId: 'c1', message, action: 'added', swipeId: 1 }],
  ['SWIPE_EDITED', { chatId: 'c1', message, previousSwipeId: 0 }],
  ['GENERATION_ENDED', { generationId: 'g', chatId: 'c1', messageId: 'm2', content: SECRET, usage: { outputTokens: 3 } }],
  ['GENERATION_STOPPED', { generationId: 'g', chatId: 'c1', content: SECRET }],
  ['STREAM_TOKEN_RECEIVED', { generationId: 'g', chatId: 'c1', token: SECRET, seq: 1 }],
  // Which keywords fired tells what the chat says.
  ['WORLD_INFO_ACTIVATED', { chatId: 'c1', entries: [{ id: 'w1', comment: '', keys: ['ledger'], source: 'keyword' }] }],
  // A tag a frontend took from a reply, as its extension's backend is told of it.
  ['MESSAGE_TAG_INTERCEPTED', { type: 'message_tag_intercepted', tagName: 'sim', content: SECRET, messageId: 'm2', extensionId: 'tracker', identifier: 'tracker' }],
];
const none = new Set<ExtensionPermission>(['tools']);
const reader = new Set<ExtensionPermission>(['chat_mutation']);

describe('E1: what an event carries follows the permissions', () => {
  it.each(EVENTS)('E1: %s without chat_mutation holds no text; with it, the payload as it was', (event, payload) => {
    const heard = eventPayloadFor(event, payload, none, 'x');
    expect(JSON.stringify(heard ?? null)).not.toContain('ledger');
    expect(eventPayloadFor(event, payload, reader, 'x')).toBe(payload);
  });

  it('E1: keeps ids and counts, drops stream tokens entirely', () => {
    expect(eventPayloadFor('MESSAGE_SENT', EVENTS[0]![1], none, 'x')).toEqual({ chatId: 'c1', message: { id: 'm1', chat_id: 'c1', index_in_chat: 0, is_user: true, name: 'Ada', role: 'user', swipe_count: 2 } });
    expect(eventPayloadFor('GENERATION_ENDED', EVENTS[4]![1], none, 'x')).toEqual({ generationId: 'g', chatId: 'c1', messageId: 'm2', usage: { outputTokens: 3 }, contentLength: SECRET.length });
    expect(eventPayloadFor('STREAM_TOKEN_RECEIVED', EVENTS[6]![1], none, 'x')).toBeNull();
    expect(eventPayloadFor('WORLD_INFO_ACTIVATED', EVENTS[7]![1], none, 'x')).toBeNull();
    // Events without chat text pass as they are; a malformed text event is dropped rather than guessed at.
    const switched = { chatId: 'c1' };
    expect(eventPayloadFor('CHAT_SWITCHED', switched, none, 'x')).toBe(switched);
    expect(eventPayloadFor('MESSAGE_SENT', 'raw text', none, 'x')).toBeNull();
    expect(CHAT_TEXT_EVENTS).toEqual(EVENTS.map(([e]) => e));
    // The extension whose frontend took the tag hears it whatever it holds; another only with chat_mutation.
    expect(eventPayloadFor('MESSAGE_TAG_INTERCEPTED', EVENTS[8]![1], none, 'tracker')).toBe(EVENTS[8]![1]);
    expect(eventPayloadFor('MESSAGE_TAG_INTERCEPTED', EVENTS[8]![1], none, 'x')).toBeNull();
  });

  it("E1: each frame hears what its own extension's permissions allow", () => {
    const heard = new Map<string, unknown[]>();
    const broker = (id: string) => ({ notify: (_topic: 'event', p: { event: string; payload: unknown }) => void heard.set(id, [...(heard.get(id) ?? []), p]) });
    const brokers = new Map([['plain', broker('plain')], ['reader', broker('reader')]]);
    const grants: Record<string, ExtensionPermission[]> = { plain: [], reader: ['chat_mutation'] };
    for (const [event, payload] of EVENTS) tellFrames(brokers, (id) => grants[id] ?? [], event, payload);
    expect(JSON.stringify(heard.get('plain'))).not.toContain('ledger');
    // Stream tokens and the world info that fired are not sent without it.
    expect(heard.get('plain')).toHaveLength(EVENTS.length - 3);
    expect(heard.get('reader')).toHaveLength(EVENTS.length);
    expect(JSON.stringify(heard.get('reader'))).toContain('ledger');
  });

  it('G3: regex script events reach only extensions granted regex_scripts, can_mutate said for each', () => {
    const script = newScript({ name: 'Hide cues', find_regex: 'x', target: ['display'] }, 'r1', 'writer', 0);
    const changed = { id: 'r1', script };
    expect(eventPayloadFor('REGEX_SCRIPT_CHANGED', changed, none, 'writer')).toBeNull();
    expect(eventPayloadFor('REGEX_SCRIPT_DELETED', { id: 'r1' }, none, 'writer')).toBeNull();
    const granted = new Set<ExtensionPermission>(['regex_scripts']);
    const { owner: _owner, ...fields } = script;
    expect(eventPayloadFor('REGEX_SCRIPT_CHANGED', changed, granted, 'writer')).toEqual({ id: 'r1', script: { ...fields, target: ['display'], can_mutate: true } });
    expect(eventPayloadFor('REGEX_SCRIPT_CHANGED', changed, granted, 'reader')).toMatchObject({ script: { can_mutate: false, target: ['display'] } });
    expect(eventPayloadFor('REGEX_SCRIPT_CHANGED', changed, new Set<ExtensionPermission>(['regex_scripts', 'regex_scripts_unrestricted']), 'reader')).toMatchObject({ script: { can_mutate: true } });
    expect(JSON.stringify(eventPayloadFor('REGEX_SCRIPT_CHANGED', changed, granted, 'reader'))).not.toContain('writer');
    expect(eventPayloadFor('REGEX_SCRIPT_DELETED', { id: 'r1' }, granted, 'reader')).toEqual({ id: 'r1' });
  });

  it('a character’s or persona’s fields reach only extensions that may read them (characters, personas); the others hear which one', () => {
    const edited = { id: 's1', character: { id: 's1', name: 'Mara', description: 'Keeper of the ledger.' } };
    const persona = { id: 'persona-s1', persona: { id: 'persona-s1', name: 'Tom', description: 'Reads the ledger.' } };
    expect(eventPayloadFor('CHARACTER_EDITED', edited, none, 'x')).toEqual({ id: 's1' });
    expect(eventPayloadFor('PERSONA_CHANGED', persona, new Set<ExtensionPermission>(['characters']), 'x')).toEqual({ id: 'persona-s1' });
    expect(eventPayloadFor('CHARACTER_EDITED', edited, new Set<ExtensionPermission>(['characters']), 'x')).toEqual(edited);
    expect(eventPayloadFor('PERSONA_CHANGED', persona, ['personas'], 'x')).toEqual(persona);
    expect(eventPayloadFor('CHARACTER_DELETED', { id: 's1' }, none, 'x')).toEqual({ id: 's1' });
  });

  it('a branched chat’s record (its name and metadata) reaches only extensions that may read chats; the others hear the ids', () => {
    const forked = { sourceChatId: 's1', forkedChatId: 's2', chat: { id: 's2', name: 'Mara (branch)', metadata: { chat_variables: { mood: 'grim' } } }, branchId: 's2', forkedAtMessageId: 'm3', forkedAtMessageIndex: 2 };
    const { chat: _chat, ...ids } = forked;
    expect(eventPayloadFor('CHAT_FORKED', forked, none, 'x')).toEqual(ids);
    expect(eventPayloadFor('CHAT_FORKED', forked, ['chats'], 'x')).toEqual(forked);
    const changed = { chatId: 's1', chat: { id: 's1', name: 'Mara', metadata: { scene: 'harbour' } }, changedFields: ['metadata'] };
    expect(eventPayloadFor('CHAT_CHANGED', changed, none, 'x')).toEqual({ chatId: 's1', changedFields: ['metadata'] });
    expect(eventPayloadFor('CHAT_CHANGED', changed, ['chats'], 'x')).toEqual(changed);
    expect(eventPayloadFor('CHAT_CHANGED', { chatId: 's1' }, none, 'x')).toEqual({ chatId: 's1' });
  });

  it('a world book or entry reaches only extensions that may read world books; the others hear the ids', () => {
    const book = { id: 'b1', worldBook: { id: 'b1', name: 'Harbour', description: 'Secrets', metadata: {} } };
    const entry = { id: 'e1', worldBookId: 'b1', entry: { id: 'e1', world_book_id: 'b1', key: ['harbour'], content: 'Closes at dusk.' } };
    expect(eventPayloadFor('WORLD_BOOK_CHANGED', book, none, 'x')).toEqual({ id: 'b1' });
    expect(eventPayloadFor('WORLD_BOOK_ENTRY_CHANGED', entry, ['characters', 'chats'], 'x')).toEqual({ id: 'e1', worldBookId: 'b1' });
    expect(eventPayloadFor('WORLD_BOOK_CHANGED', book, ['world_books'], 'x')).toEqual(book);
    expect(eventPayloadFor('WORLD_BOOK_ENTRY_CHANGED', entry, ['world_books'], 'x')).toEqual(entry);
    expect(eventPayloadFor('WORLD_BOOK_ENTRY_DELETED', { id: 'e1', worldBookId: 'b1' }, none, 'x')).toEqual({ id: 'e1', worldBookId: 'b1' });
    expect(eventPayloadFor('WORLD_BOOK_CHANGED', null, none, 'x')).toBeNull();
  });

  it("the active persona's setting reaches only extensions that may read personas; the active chat's, every one", () => {
    const persona = { key: 'activePersonaId', value: 'persona-s1' };
    expect(eventPayloadFor('SETTINGS_UPDATED', persona, none, 'x')).toBeNull();
    expect(eventPayloadFor('SETTINGS_UPDATED', persona, ['personas'], 'x')).toEqual(persona);
    expect(eventPayloadFor('SETTINGS_UPDATED', { key: 'activeChatId', value: 's1' }, none, 'x')).toEqual({ key: 'activeChatId', value: 's1' });
  });
});
