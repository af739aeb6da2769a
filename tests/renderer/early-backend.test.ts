// What a backend sends its frontend while the frame's page loads is held, the newest MAX_EARLY_MESSAGES, in order.
import { describe, expect, it } from 'vitest';
import { EarlyBackendMessages, MAX_EARLY_CHARS, MAX_EARLY_MESSAGES } from '../../renderer/src/features/frontends/early-backend';

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

  it('keeps at most MAX_EARLY_CHARS of them: big ones push the oldest out, and one bigger than that is not held', () => {
    const early = new EarlyBackendMessages();
    const third = 'x'.repeat(Math.floor(MAX_EARLY_CHARS / 3));
    early.hold('a', { n: 1, data: third });
    early.hold('a', { n: 2, data: third });
    early.hold('a', { n: 3, data: third });
    early.hold('a', 'y'.repeat(MAX_EARLY_CHARS + 1));
    expect(early.take('a').map((m) => (m as { n: number }).n)).toEqual([2, 3]);
  });
});
