// The chat's frame buffer and turn reducer on their own: merging, duplicates, order, turn changes, and a reconnect that missed the end.
import { describe, expect, it } from 'vitest';
import type { ChatTurnEvent } from '../../renderer/src/stores/chat/chat-turns';
import { applyTurnEvents } from '../../renderer/src/stores/chat/chat-turns';
import { ChatFrameBuffer, type FrameScheduler } from '../../renderer/src/stores/chat/chat-frame-buffer';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { keepUnchangedMessages } from '../../renderer/src/stores/chat/chat-slice';
import type { ChatMessage, ChatSession } from '../../shared/types/chat';

function manualFrames(): FrameScheduler & { run(time?: number): void; pending: number } {
  let callbacks: Array<(time: number) => void> = [];
  return {
    request(cb) {
      callbacks.push(cb);
      return cb;
    },
    cancel(handle) {
      callbacks = callbacks.filter((c) => c !== handle);
    },
    run(time = 0) {
      const due = callbacks;
      callbacks = [];
      due.forEach((c) => c(time));
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

  it("gathers a reasoning model's thinking apart from the text, merged in the buffer and paced like text", () => {
    const frames = manualFrames();
    const batches: ChatTurnEvent[][] = [];
    const buffer = new ChatFrameBuffer((events) => batches.push([...events]), frames, { minTextIntervalMs: 50 });
    const r = (text: string): ChatTurnEvent => ({ type: 'chat.reasoning', sessionId: 's1', turnId: 't1', messageId: 'a-t1', text });
    buffer.push(r('Weighing '));
    buffer.push(r('the tide.'));
    frames.run(1000);
    buffer.push(d(0, 'The reply.'));
    frames.run(1016);
    expect(batches).toHaveLength(1);
    frames.run(1050);
    const turns = applyTurnEvents({}, batches.flat());
    expect(batches[0]).toEqual([r('Weighing the tide.')]);
    expect(turns.s1).toMatchObject({ reasoning: 'Weighing the tide.', text: 'The reply.', assistantMessageId: 'a-t1' });
  });

  it('marks a streaming turn interrupted when a reconnect finds the session idle', () => {
    const store = createAppStore();
    store.getState().chatTurnEventsApplied([d(0, 'half')]);
    store.getState().chatTurnInterrupted('s1');
    expect(store.getState().chat.turns.s1).toMatchObject({ status: 'finished', finishReason: 'interrupted', text: 'half' });
  });

  it('draws text at most every minTextIntervalMs of frame time; any other event goes at the next frame with the text before it', () => {
    const frames = manualFrames();
    const batches: string[][] = [];
    const buffer = new ChatFrameBuffer((events) => batches.push(events.map((e) => e.type)), frames, { minTextIntervalMs: 50 });
    buffer.push(d(0, 'A'));
    frames.run(1000);
    expect(batches).toHaveLength(1);
    // The frames 16 and 33 ms later leave the next text waiting; the one 50 ms after the last draw takes it.
    buffer.push(d(1, 'B'));
    frames.run(1016);
    frames.run(1033);
    expect(batches).toHaveLength(1);
    expect(frames.pending).toBe(1);
    frames.run(1050);
    expect(batches).toHaveLength(2);
    // A tool call (or a turn's end) does not wait: it goes at the next frame, with the text queued before it.
    buffer.push(d(2, 'C'));
    buffer.push({ type: 'chat.toolCall', sessionId: 's1', turnId: 't1', round: 1, phase: 'started', callId: 'c1', index: 0 });
    frames.run(1060);
    expect(batches[2]).toEqual(['chat.delta', 'chat.toolCall']);
  });
});

describe('keepUnchangedMessages', () => {
  const message = (id: string, content: string): ChatMessage => ({ id, role: 'assistant', content, createdAt: 1 }) as ChatMessage;
  const session = (messages: ChatMessage[]): ChatSession => ({ id: 's1', messages }) as unknown as ChatSession;

  it('keeps the drawn object of each message that did not change, and takes the new one of those that did', () => {
    const before = session([message('m1', 'one'), message('m2', 'two')]);
    const after = keepUnchangedMessages(before, session([message('m1', 'one'), message('m2', 'two, edited'), message('m3', 'three')]));
    expect(after.messages[0]).toBe(before.messages[0]);
    expect(after.messages[1]).not.toBe(before.messages[1]);
    expect(after.messages.map((m) => m.content)).toEqual(['one', 'two, edited', 'three']);
  });

  it('another session, or nothing drawn yet, is taken as it is', () => {
    const next = session([message('m1', 'one')]);
    expect(keepUnchangedMessages(null, next)).toBe(next);
    expect(keepUnchangedMessages({ ...session([message('m1', 'one')]), id: 'other' }, next)).toBe(next);
  });
});
