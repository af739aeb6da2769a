// The chat's frame buffer and turn reducer on their own: merging, duplicates, order, turn changes, and a reconnect that missed the end.
import { describe, expect, it } from 'vitest';
import type { ChatTurnEvent } from '../../renderer/src/stores/chat-turns';
import { applyTurnEvents } from '../../renderer/src/stores/chat-turns';
import { ChatFrameBuffer, type FrameScheduler } from '../../renderer/src/stores/chat-frame-buffer';
import { createAppStore } from '../../renderer/src/stores/app-store';

function manualFrames(): FrameScheduler & { run(): void; pending: number } {
  let callbacks: Array<() => void> = [];
  return {
    request(cb) {
      callbacks.push(cb);
      return cb;
    },
    cancel(handle) {
      callbacks = callbacks.filter((c) => c !== handle);
    },
    run() {
      const due = callbacks;
      callbacks = [];
      due.forEach((c) => c());
    },
    get pending() {
      return callbacks.length;
    },
  };
}

const d = (seq: number, text: string, turnId = 't1'): ChatTurnEvent => ({ type: 'chat.delta', sessionId: 's1', turnId, messageId: `a-${turnId}`, seq, text });

describe('ChatFrameBuffer', () => {
  it('schedules one frame for a burst, merges consecutive deltas, and hands over the batch in order', () => {
    const frames = manualFrames();
    const batches: ChatTurnEvent[][] = [];
    const buffer = new ChatFrameBuffer((events) => batches.push([...events]), frames);
    for (let i = 0; i < 1000; i++) buffer.push(d(i, 'x'));
    buffer.push({ type: 'chat.toolCall', sessionId: 's1', turnId: 't1', round: 1, phase: 'started', callId: 'c1', index: 0 });
    buffer.push(d(1000, 'y'));
    expect(frames.pending).toBe(1);
    expect(buffer.pending).toBe(3);
    frames.run();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((e) => e.type)).toEqual(['chat.delta', 'chat.toolCall', 'chat.delta']);
    expect((batches[0]![0] as { text: string }).text).toBe('x'.repeat(1000));
  });

  it('drops a repeated delta even when it is not next to the original', () => {
    const frames = manualFrames();
    const store = createAppStore();
    const buffer = new ChatFrameBuffer((events) => store.getState().chatTurnEventsApplied(events), frames);
    buffer.push(d(0, 'A'));
    buffer.push({ type: 'chat.council', sessionId: 's1', turnId: 't1', phase: 'started', runId: null });
    buffer.push(d(0, 'A'));
    buffer.push(d(1, 'B'));
    frames.run();
    buffer.push(d(1, 'B'));
    buffer.push(d(2, 'C'));
    frames.run();
    expect(store.getState().chat.turns.s1!.text).toBe('ABC');
  });

  it('flush() applies at once and cancels the frame; dispose() forgets what waits', () => {
    const frames = manualFrames();
    const batches: number[] = [];
    const buffer = new ChatFrameBuffer((events) => batches.push(events.length), frames);
    buffer.push(d(0, 'A'));
    buffer.flush();
    expect(batches).toEqual([1]);
    expect(frames.pending).toBe(0);
    buffer.push(d(1, 'B'));
    buffer.dispose();
    frames.run();
    expect(batches).toEqual([1]);
  });
});

describe('applyTurnEvents', () => {
  it('starts a new turn when the turn id changes and keeps other sessions untouched', () => {
    const first = applyTurnEvents({}, [d(0, 'old'), { type: 'chat.finished', sessionId: 's1', turnId: 't1', messageId: 'a-t1', finishReason: 'stop', usage: null }]);
    expect(first.s1!.status).toBe('finished');
    const other = applyTurnEvents(first, [{ type: 'chat.delta', sessionId: 's2', turnId: 'x', messageId: 'm', seq: 0, text: 'hi' }]);
    expect(other.s1).toBe(first.s1);
    const next = applyTurnEvents(other, [d(0, 'new', 't2')]);
    expect(next.s1!.turnId).toBe('t2');
    expect(next.s1!.text).toBe('new');
    expect(next.s1!.status).toBe('streaming');
  });

  it('keeps text streamed before a tool call, and a result for an unseen call still gets a card', () => {
    const turns = applyTurnEvents({}, [
      d(0, 'Before '),
      { type: 'chat.toolCall', sessionId: 's1', turnId: 't1', round: 2, phase: 'result', callId: 'late', ok: true, content: 'r', durationMs: 1 },
      d(1, 'after'),
    ]);
    expect(turns.s1!.text).toBe('Before after');
    expect(turns.s1!.toolCalls).toMatchObject([{ callId: 'late', round: 2, result: { ok: true, content: 'r' } }]);
  });

  it('marks a streaming turn interrupted when a reconnect finds the session idle', () => {
    const store = createAppStore();
    store.getState().chatTurnEventsApplied([d(0, 'half')]);
    store.getState().chatTurnInterrupted('s1');
    expect(store.getState().chat.turns.s1).toMatchObject({ status: 'finished', finishReason: 'interrupted', text: 'half' });
  });
});
