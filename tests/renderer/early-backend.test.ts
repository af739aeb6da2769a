// What a backend sends its frontend while the frame's page loads is held, the newest MAX_EARLY_MESSAGES, in order.
import { describe, expect, it } from 'vitest';
import { EarlyBackendMessages, MAX_EARLY_MESSAGES } from '../../renderer/src/features/frontends/early-backend';

describe('EarlyBackendMessages', () => {
  it('hands each extension its own, in order, once; past the cap the oldest go; forget drops them', () => {
    const early = new EarlyBackendMessages();
    for (let i = 0; i < MAX_EARLY_MESSAGES + 5; i++) early.hold('a', i);
    early.hold('b', 'b1');
    const a = early.take('a');
    expect(a).toHaveLength(MAX_EARLY_MESSAGES);
    expect(a[0]).toBe(5);
    expect(a.at(-1)).toBe(MAX_EARLY_MESSAGES + 4);
    expect(early.take('a')).toEqual([]);
    early.forget('b');
    expect(early.take('b')).toEqual([]);
  });
});
