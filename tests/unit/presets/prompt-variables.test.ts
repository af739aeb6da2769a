// A preset's prompt variables as Lumiverse resolves them for a turn: the person's value over the creator's default,
// coerced by type (a select's option value, a switch's 0/1, a number clamped, a multiselect's values joined), only
// enabled blocks counted, the last block defining a name winning.
import { describe, expect, it } from 'vitest';
import { promptVariables } from '../../../electron/core/presets/prompt-variables';
import type { PromptBlock } from '../../../electron/core/presets/preset-blocks';

const block = (id: string, variables: unknown[], enabled = true): PromptBlock => ({ id, name: id, marker: null, enabled, variables });
const MODES = [
  { id: 'opt-a', label: 'Gemini', value: '0' },
  { id: 'opt-b', label: 'Claude', value: '2' },
];

describe('promptVariables', () => {
  it("takes the person's value over the default, coerced by type", () => {
    const blocks = [
      block('core', [
        { name: 'model', type: 'select', defaultValue: '0', options: MODES },
        { name: 'nohelena', type: 'switch', defaultValue: 0 },
        { name: 'heat', type: 'number', defaultValue: 3, min: 0, max: 5 },
        { name: 'tags', type: 'multiselect', defaultValue: ['opt-a'], options: MODES, separator: ', ' },
        { name: 'note', type: 'text', defaultValue: 'none' },
      ]),
    ];
    expect(promptVariables({ prompt_order: blocks, metadata: {} }).values).toEqual(new Map([['model', '0'], ['nohelena', '0'], ['heat', '3'], ['tags', '0'], ['note', 'none']]));
    const set = promptVariables({ prompt_order: blocks, metadata: { promptVariables: { core: { model: 'opt-b', nohelena: true, heat: 9, tags: ['opt-b', 'opt-a', 'nope'], note: 'set' } } } });
    expect(set.values).toEqual(new Map([['model', '2'], ['nohelena', '1'], ['heat', '5'], ['tags', '0, 2'], ['note', 'set']]));
    expect(set.selections).toEqual(new Map([['tags', ['opt-a', 'opt-b']]]));
    // A select value that is no option falls back to the default's option.
    expect(promptVariables({ prompt_order: blocks, metadata: { promptVariables: { core: { model: 'gone' } } } }).values.get('model')).toBe('0');
  });

  it('counts enabled blocks only, the last defining a name winning', () => {
    const blocks = [block('a', [{ name: 'x', type: 'text', defaultValue: 'first' }]), block('off', [{ name: 'x', type: 'text', defaultValue: 'disabled' }], false), block('b', [{ name: 'x', type: 'text', defaultValue: 'last' }])];
    expect(promptVariables({ prompt_order: blocks, metadata: {} }).values.get('x')).toBe('last');
    expect(promptVariables({ prompt_order: blocks.slice(0, 2), metadata: {} }).values.get('x')).toBe('first');
  });
});
