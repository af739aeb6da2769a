// Lumiverse's message parts as the host sends them on (shared/spindle/generate-requests.ts): a tool loop's tool_use and
// tool_result parts become the provider's own tool calls and tool messages; a result given as blocks of text is read as
// its text, an error says so; a part out of place is refused at its path.
import { describe, expect, it } from 'vitest';
import { validateLumiverseGenerate } from '../../../shared/spindle/generate-requests';

const request = (messages: unknown[]) => validateLumiverseGenerate({ type: 'raw', messages });

describe('tool parts in a Lumiverse generation', () => {
  it('a result in blocks of text is its text; an error result says it is one; the rest of the message follows it', () => {
    const checked = request([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'roll', input: { sides: 6 } }, { type: 'tool_use', id: 'c2', name: 'roll', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'Rolled ' }, { type: 'text', text: '4.' }] }, { type: 'tool_result', tool_use_id: 'c2', content: 'sides is required', is_error: true }, { type: 'text', text: 'Go on.' }] },
    ]);
    expect(checked).toMatchObject({ ok: true });
    expect((checked as { input: { messages: unknown[] } }).input.messages).toEqual([
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'roll', argsText: '{"sides":6}' }, { id: 'c2', name: 'roll', argsText: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'Rolled 4.' },
      { role: 'tool', toolCallId: 'c2', content: 'Error: sides is required' },
      { role: 'user', content: 'Go on.' },
    ]);
  });

  it('text parts alone stay one message; images are not sent here; a bad tool part is refused at its path', () => {
    const checked = request([{ role: 'user', content: [{ type: 'text', text: 'Look: ' }, { type: 'image', data: 'AAAA', mime_type: 'image/png' }, { type: 'text', text: 'a map.' }] }]);
    expect((checked as { input: { messages: unknown[] } }).input.messages).toEqual([{ role: 'user', content: 'Look: a map.' }]);
    expect(request([{ role: 'assistant', content: [{ type: 'tool_use', id: 'has space', name: 'roll' }] }])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/messages/0/content/0/id' } });
    expect(request([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'x' }] }, { role: 'system', content: [{ type: 'tool_use', id: 'c1', name: 'x' }] }])).toMatchObject({ ok: false, error: { path: '/messages/1/content/0' } });
  });
});
