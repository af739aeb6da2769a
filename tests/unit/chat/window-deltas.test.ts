// A reply's deltas on their way to a window: at most one a frame, merged, in order with every other event (fake time).
import { describe, expect, it } from 'vitest';
import { WINDOW_DELTA_INTERVAL_MS, windowEvents } from '../../../electron/core/chat/window-deltas';
import type { HostEvent } from '../../../shared/events';
import { FakeClock } from '../../helpers/fake-time';

const FRAME = WINDOW_DELTA_INTERVAL_MS;
const delta = (seq: number, text: string, turnId = 't1'): HostEvent => ({ type: 'chat.delta', sessionId: 's1', turnId, messageId: 'm1', seq, text });
const finished: HostEvent = { type: 'chat.finished', sessionId: 's1', turnId: 't1', messageId: 'm1', finishReason: 'stop', usage: null } as HostEvent;
const texts = (events: HostEvent[]) => events.map((e) => (e.type === 'chat.delta' ? `${e.seq}:${e.text}` : e.type));

function rig() {
  const clock = new FakeClock();
  const sent: HostEvent[] = [];
  const events = windowEvents((e) => sent.push(e), { now: () => clock.now(), timers: clock });
  return { clock, sent, events };
}

describe('window deltas', () => {
  it('a slow stream is not held: a delta a frame or more after the last goes at once', () => {
    const { clock, sent, events } = rig();
    events.push(delta(0, 'a'));
    clock.advance(FRAME);
    events.push(delta(1, 'b'));
    clock.advance(FRAME + 5);
    events.push(delta(2, 'c'));
    expect(texts(sent)).toEqual(['0:a', '1:b', '2:c']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('deltas sooner than a frame wait, merged into one with the last seq, until a frame after the last sent', () => {
    const { clock, sent, events } = rig();
    events.push(delta(0, 'a'));
    clock.advance(4);
    events.push(delta(1, 'b'));
    clock.advance(4);
    events.push(delta(2, 'c'));
    expect(texts(sent)).toEqual(['0:a']);
    clock.advance(FRAME - 9);
    expect(texts(sent)).toEqual(['0:a']);
    clock.advance(1);
    expect(texts(sent)).toEqual(['0:a', '2:bc']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('any other event sends the text waiting first, then itself at once', () => {
    const { clock, sent, events } = rig();
    events.push(delta(0, 'a'));
    events.push(delta(1, 'b'));
    events.push(finished);
    expect(texts(sent)).toEqual(['0:a', '1:b', 'chat.finished']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a delta of another turn, or one that does not follow, is not merged: the waiting text goes first', () => {
    const { clock, sent, events } = rig();
    events.push(delta(0, 'a'));
    events.push(delta(1, 'b'));
    events.push(delta(0, 'x', 't2'));
    expect(texts(sent)).toEqual(['0:a', '1:b']);
    events.push(delta(5, 'y', 't2'));
    expect(texts(sent)).toEqual(['0:a', '1:b', '0:x']);
    clock.advance(FRAME);
    expect(texts(sent)).toEqual(['0:a', '1:b', '0:x', '5:y']);
  });

  it('dispose drops what waits and its timer', () => {
    const { clock, sent, events } = rig();
    events.push(delta(0, 'a'));
    events.push(delta(1, 'b'));
    events.dispose();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(FRAME);
    expect(texts(sent)).toEqual(['0:a']);
  });
});
