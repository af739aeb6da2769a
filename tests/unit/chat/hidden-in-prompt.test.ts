// A message an extension hid (spindle.chat.setMessageHidden) stays in the chat and out of the prompt, as Lumiverse's
// assembly skips extra.hidden: with the Workbench's own prompt and with a preset's (SummaryPlus hides what it summarized).
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/types/chat';
import { buildPrompt } from '../../../electron/core/chat/prompt';
import { buildPresetPrompt } from '../../../electron/core/chat/preset-prompt';
import { normalizeBlocks } from '../../../electron/core/presets/preset-blocks';
import { sessionDocument } from '../../helpers/session-document';

const msg = (i: number, role: 'user' | 'assistant', content: string, hidden = false): ChatMessage => ({ id: `m${i}`, role, content, createdAt: i, ...(hidden ? { hidden: true } : {}) });
const HISTORY = [msg(0, 'user', 'Chapter one happened.', true), msg(1, 'assistant', 'It did.', true), msg(2, 'user', 'Summary: chapter one.'), msg(3, 'user', 'What now?')];
const sent = (messages: Array<{ content: string }>) => messages.map((m) => m.content).join('\n');

describe('a hidden message', () => {
  it('is not sent in the prompt, and the prompt says it kept only the others', () => {
    const built = buildPrompt({ session: sessionDocument(), history: HISTORY });
    expect(sent(built.messages)).not.toContain('Chapter one happened.');
    expect(sent(built.messages)).not.toContain('It did.');
    expect(built.messages.slice(-2).map((m) => m.content)).toEqual(['Summary: chapter one.', 'What now?']);
    expect(built.kept.history).toEqual([2, 3]);
  });

  it("is not sent in a preset's prompt either", () => {
    const built = buildPresetPrompt({
      blocks: normalizeBlocks([{ id: 'main', name: 'Main', content: 'Tell the story.' }, { id: 'hist', name: 'Chat history', marker: 'chat_history' }]),
      contents: new Map(),
      session: sessionDocument(),
      history: HISTORY,
      card: { systemPrompt: '', examples: '', postHistory: '' },
      generationType: 'normal',
    });
    expect(built.messages).toEqual([
      { role: 'system', content: 'Tell the story.' },
      { role: 'user', content: 'Summary: chapter one.' },
      { role: 'user', content: 'What now?' },
    ]);
    expect(built.sources).toEqual([null, 2, 3]);
  });
});
