// A reply's tool cards stay where they belong when its text is edited (issue 49's walk: the card split a word).
import { describe, expect, it } from 'vitest';
import { carryOffset, withTextEdited } from '../../../electron/core/chat/text-anchors';
import type { ChatMessage } from '../../../shared/types/chat';

describe('carryOffset', () => {
  const before = '*Seraphina smiles.* She rolls.';
  const card = before.indexOf(' She');

  it('keeps an anchor before the edit, and moves one after it by what the edit added or took', () => {
    expect(carryOffset(before, before.replace('rolls', 'rolls the dice'), card)).toBe(card);
    const longer = before.replace('smiles', 'smiles softly');
    expect(longer.slice(0, carryOffset(before, longer, card))).toBe('*Seraphina smiles softly.*');
    const shorter = before.replace('Seraphina ', '');
    expect(shorter.slice(carryOffset(before, shorter, card))).toBe(' She rolls.');
  });

  it('puts an anchor inside replaced text after its replacement; unchanged text leaves it where it was', () => {
    const after = '*Seraphina grins and nods* She rolls.';
    expect(after.slice(0, carryOffset(before, after, before.indexOf('les')))).toBe('*Seraphina grins and nods');
    expect(carryOffset(before, before, card)).toBe(card);
    expect(carryOffset(before, '', card)).toBe(0);
  });
});

describe('withTextEdited', () => {
  it('carries every card of the message and leaves a message without anchors as it was', () => {
    const call = { id: 'c1', name: 'roll', qualifiedName: null, argsText: '{}', ok: true, result: '7', round: 1 };
    const message: ChatMessage = { id: 'a1', role: 'assistant', content: 'Hi. Rolling.', createdAt: 1, toolCalls: [{ ...call, textOffset: 3 }, { ...call, id: 'c2' }] };
    const edited = withTextEdited(message, 'Hello there. Rolling.');
    expect(edited.toolCalls!.map((c) => c.textOffset)).toEqual([12, undefined]);
    expect(edited.content.slice(0, 12)).toBe('Hello there.');
    expect(withTextEdited({ id: 'u', role: 'user', content: 'a', createdAt: 1 }, 'b')).toEqual({ id: 'u', role: 'user', content: 'b', createdAt: 1 });
  });
});
