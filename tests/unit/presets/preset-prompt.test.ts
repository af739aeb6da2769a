// A turn's prompt from a Lumiverse preset's blocks (Lumiverse's assemblePrompt order), and the preset files the
// person imports: each shape Lumiverse's Loom reads, and each wrong one refused at its path.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/types/chat';
import { normalizeBlocks } from '../../../electron/core/presets/preset-blocks';
import { buildPresetPrompt, type PresetPromptInput } from '../../../electron/core/chat/preset-prompt';
import { presetFromFile } from '../../../electron/core/presets/preset-import';
import { sessionDocument } from '../../helpers/session-document';

const msg = (i: number, role: 'user' | 'assistant', content: string): ChatMessage => ({ id: `m${i}`, role, content, createdAt: i });
const HISTORY = [msg(0, 'assistant', 'Welcome to the glade.'), msg(1, 'user', 'Where is the lamp?'), msg(2, 'assistant', 'By the door.'), msg(3, 'user', 'Light it.')];

function input(blocks: Array<Record<string, unknown>>, extra: Partial<PresetPromptInput> = {}): PresetPromptInput {
  return {
    blocks: normalizeBlocks(blocks),
    contents: new Map(),
    session: sessionDocument({ worldInfo: [{ id: 'w1', keywords: ['lamp'], content: 'The lamp burns whale oil.', enabled: true }] }),
    history: HISTORY,
    card: { systemPrompt: '', examples: '<START>\nSeraphina: Hello.', postHistory: '' },
    generationType: 'normal',
    ...extra,
  };
}

describe('a prompt from a preset', () => {
  it("ends with the preset's Start Reply With as the assistant's, counted in the budget like any block", () => {
    const blocks = [{ id: 'main', name: 'Main', content: 'You are the glade.' }, { id: 'hist', name: 'Chat History', marker: 'chat_history' }];
    const without = buildPresetPrompt(input(blocks));
    const built = buildPresetPrompt(input(blocks, { prefill: '*The lamp flickers.* ' }));
    expect(built.messages.at(-1)).toEqual({ role: 'assistant', content: '*The lamp flickers.* ' });
    expect(built.sources.at(-1)).toBeNull();
    expect(built.report.total).toBeGreaterThan(without.report.total);
  });

  it("walks the blocks as Lumiverse does: markers for the chat's parts, roles kept, a late block moved after the history, in-history blocks at their depth, appends joined", () => {
    const built = buildPresetPrompt(
      input([
        { id: 'main', name: 'Main', marker: 'main_prompt', content: 'You are [[prompt1]].' },
        { id: 'desc', name: 'Description', marker: 'char_description' },
        { id: 'late', name: 'Reminder', content: 'Stay in the scene.', position: 'post_history' },
        { id: 'wib', name: 'WI before', marker: 'world_info_before' },
        { id: 'ex', name: 'Examples', marker: 'dialogue_examples', role: 'user' },
        { id: 'off', name: 'Disabled', content: 'Never sent.', enabled: false },
        { id: 'cont', name: 'Only on continue', content: 'Keep going.', injectionTrigger: ['continue'] },
        { id: 'hist', name: 'Chat history', marker: 'chat_history' },
        { id: 'deep', name: 'Depth 1', content: '[[COT]]', position: 'in_history', depth: 1 },
        { id: 'ai', name: 'Prefill', content: '[[AI1]]', role: 'assistant', position: 'post_history' },
        // Before the history in Lumiverse's order, wherever it sits.
        { id: 'early', name: 'Early', content: 'Set the scene.' },
        { id: 'tail', name: 'Append', content: '(Answer briefly.)', role: 'user_append' },
      ]),
    );
    expect(built.messages).toEqual([
      { role: 'system', content: 'You are [[prompt1]].' },
      { role: 'system', content: 'A guardian of the glade.' },
      { role: 'system', content: 'The lamp burns whale oil.' },
      { role: 'user', content: '<START>\nSeraphina: Hello.' },
      { role: 'system', content: 'Set the scene.' },
      { role: 'assistant', content: 'Welcome to the glade.' },
      { role: 'user', content: 'Where is the lamp?' },
      { role: 'assistant', content: 'By the door.' },
      { role: 'system', content: '[[COT]]' },
      { role: 'user', content: 'Light it.\n(Answer briefly.)' },
      { role: 'system', content: 'Stay in the scene.' },
      { role: 'assistant', content: '[[AI1]]' },
    ]);
    // Where each message came from in the chat (the interceptors' marks).
    expect(built.sources).toEqual([null, null, null, null, null, 0, 1, 2, null, 3, null, null]);
    expect(built.report.worldInfo).toMatchObject([{ id: 'w1', trigger: 'keyword', included: true }]);
    expect(built.kept).toEqual({ history: [0, 1, 2, 3], worldInfo: [0] });
  });

  it("in-history blocks count only the history's own messages, inserted last first as Lumiverse does; appends find their message at their depth, or nothing", () => {
    const built = buildPresetPrompt(
      input([
        { id: 'hist', name: 'H', marker: 'chat_history' },
        { id: 'a', name: 'A', content: 'A', position: 'in_history', depth: 1 },
        { id: 'b', name: 'B', content: 'B', position: 'in_history', depth: 2 },
        { id: 'b2', name: 'B2', content: 'B2', position: 'in_history', depth: 2 },
        { id: 'older', name: 'To the older line', content: ' (older)', role: 'user_append', depth: 1 },
        { id: 'nl', name: 'Newline', content: '\n', role: 'user_append', depth: 1 },
        { id: 'none', name: 'No such message', content: 'lost', role: 'assistant_append', depth: 5 },
      ], { session: sessionDocument() }),
    );
    expect(built.messages.map((m) => m.content)).toEqual(['Welcome to the glade.', 'Where is the lamp?\n (older)\n', 'B2', 'B', 'By the door.', 'A', 'Light it.']);
  });

  it('a radio category keeps its first enabled child; a block for a tag the card lacks is left out; resolved contents are used', () => {
    const built = buildPresetPrompt(
      input(
        [
          { id: 'cat', name: 'Style', marker: 'category', categoryMode: 'radio' },
          { id: 'a', name: 'Terse', content: 'Be terse.' },
          { id: 'b', name: 'Lavish', content: 'Be lavish.' },
          { id: 'tag', name: 'Only for knights', content: 'Knightly.', characterTagTrigger: ['knight'] },
          { id: 'hist', name: 'Chat history', marker: 'chat_history' },
        ],
        { contents: new Map([['a', 'Be terse, Ada.']]) },
      ),
    );
    expect(built.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'Be terse, Ada.' },
      { role: 'system', content: 'The lamp burns whale oil.' },
    ]);
  });

  it('without a history marker the history still goes (after the blocks), world info and the council just before it; post-history instructions after it', () => {
    const built = buildPresetPrompt(input([{ id: 'main', name: 'Main', content: 'Rules.' }], { deliberationBlock: 'The council says: hurry.', card: { systemPrompt: '', examples: '', postHistory: 'Never break character.' } }));
    expect(built.messages.map((m) => m.content)).toEqual(['Rules.', 'The lamp burns whale oil.', 'The council says: hurry.', ...HISTORY.map((m) => m.content), 'Never break character.']);
  });

  it('the history gets what the blocks leave of the budget, its newest message always; an in-history block deeper than the history goes first; nothing enabled leaves the history alone', () => {
    const long = [msg(0, 'user', 'x'.repeat(400)), msg(1, 'assistant', 'y'.repeat(400)), msg(2, 'user', 'Now?')];
    const built = buildPresetPrompt(input([{ id: 'main', name: 'Main', content: 'z'.repeat(400) }, { id: 'hist', name: 'H', marker: 'chat_history' }, { id: 'deep', name: 'Deep', content: 'Deep note.', position: 'in_history', depth: 99 }], { history: long, limits: { contextSize: 300, maxTokens: 100 } }));
    expect(built.report.cutMessages).toBe(2);
    expect(built.messages.map((m) => m.content)).toEqual(['z'.repeat(400), 'Deep note.', 'Now?']);
    const none = buildPresetPrompt(input([{ id: 'off', name: 'Off', content: 'No.', enabled: false }], { session: sessionDocument() }));
    expect(none.messages.map((m) => m.content)).toEqual(HISTORY.map((m) => m.content));
  });
});

describe('a preset file', () => {
  const blocks = [{ id: 'main', name: 'Main', content: 'Hello', marker: 'main_prompt' }];
  it("reads Loom's, LumiHub's and Lumiverse's own shapes, named by the file when nameless", () => {
    expect(presetFromFile(JSON.stringify({ name: 'Megumin Suite', blocks, promptVariables: { main: { x: 1 } } }))).toMatchObject({ name: 'Megumin Suite', provider: 'loom', prompt_order: blocks, metadata: { promptVariables: { main: { x: 1 } } } });
    expect(presetFromFile(JSON.stringify({ type: 'lumiverse_preset', preset: { blocks } }), 'Little Devil.json')).toMatchObject({ name: 'Little Devil', prompt_order: blocks });
    expect(presetFromFile(JSON.stringify({ name: 'Export', prompt_order: blocks, prompts: {}, parameters: { temperature: 1 }, metadata: {} }))).toMatchObject({ name: 'Export', prompt_order: blocks, parameters: { temperature: 1 } });
  });

  it.each([
    ['not json', '{', '/json'],
    ['an array', '[]', ''],
    ["SillyTavern's prompt manager", JSON.stringify({ prompts: [{ identifier: 'main' }] }), '/prompts'],
    ['LumiHub without blocks', JSON.stringify({ type: 'lumiverse_preset', preset: {} }), '/preset/blocks'],
    ['a block that is not an object', JSON.stringify({ blocks: [{ id: 'a' }, 'oops'] }), '/blocks/1'],
    ['too many blocks', JSON.stringify({ blocks: Array.from({ length: 2001 }, () => ({})) }), '/blocks'],
    ['something else', JSON.stringify({ hello: 1 }), ''],
  ])('refuses %s with INVALID_PRESET at its path', (_name, text, path) => {
    expect(() => presetFromFile(text)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INVALID_PRESET', path }) }));
  });
});
