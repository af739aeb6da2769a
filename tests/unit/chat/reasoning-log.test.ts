// A reply's reasoning: the time is what the model spent thinking (spans until it writes or calls), on the given clock.
import { describe, expect, it } from 'vitest';
import { ReasoningLog } from '../../../electron/core/chat/reasoning-log';
import { SESSION_LIMITS } from '../../../shared/types/chat';

describe('ReasoningLog', () => {
  it('times each span of thinking on the clock it is given, and starts a span after writing on a new paragraph', () => {
    let now = 1_000;
    const log = new ReasoningLog(() => now);
    expect(log.add('Weighing ')).toBe('Weighing ');
    now += 1_500;
    log.add('the tide.');
    now += 500;
    log.pause();
    now += 10_000; // writing the reply: not thinking
    expect(log.add('One more thing.')).toBe('\n\nOne more thing.');
    now += 250;
    expect(log.fields()).toEqual({ reasoning: 'Weighing the tide.\n\nOne more thing.', reasoningMs: 2_250 });
  });

  it('keeps no more than a reply holds: past it, pieces are neither kept nor handed on', () => {
    const log = new ReasoningLog(() => 0);
    expect(log.add('x'.repeat(SESSION_LIMITS.messageContent))).toHaveLength(SESSION_LIMITS.messageContent);
    expect(log.add('more')).toBe('');
    expect(log.fields().reasoning).toHaveLength(SESSION_LIMITS.messageContent);
  });

  it('a model that did not think aloud leaves no fields; a clock that goes back counts nothing', () => {
    expect(new ReasoningLog(() => 0).fields()).toEqual({});
    let now = 5_000;
    const log = new ReasoningLog(() => now);
    log.add('x');
    now = 4_000;
    expect(log.fields()).toEqual({ reasoning: 'x', reasoningMs: 0 });
  });
});
