// The worker channel's rules, the same for both doors: Node's framed pipe and Electron's utilityProcess messages.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, type FrameError } from '../../../shared/protocol/framing';
import { acceptStructured, frameReader } from '../../../electron/core/extensions/workers/inbound';
import { UtilityWorker, type UtilityChild } from '../../../electron/core/extensions/workers/utility-worker';

function decoder(max = 64) {
  const frames: unknown[] = [];
  const errors: FrameError[] = [];
  const d = new FrameDecoder(max, (m) => frames.push(m), (e) => errors.push(e));
  return { d, frames, errors };
}

describe('FrameDecoder', () => {
  it('reassembles frames split across chunks and splits several in one chunk; empty lines are skipped', () => {
    const { d, frames, errors } = decoder();
    const text = encodeFrame({ type: 'a' }) + '\n' + encodeFrame({ type: 'b', n: 1 });
    for (const chunk of [text.slice(0, 5), text.slice(5, 17), text.slice(17)]) d.push(chunk);
    expect(frames).toEqual([{ type: 'a' }, { type: 'b', n: 1 }]);
    expect(errors).toEqual([]);
  });

  it('a line that is not JSON stops it for good', () => {
    const { d, frames, errors } = decoder();
    d.push('{"type":"a"}\nnot json\n{"type":"b"}\n');
    expect(frames).toEqual([{ type: 'a' }]);
    expect(errors).toEqual([{ reason: 'not-json', detail: expect.any(String) }]);
    d.push('{"type":"c"}\n');
    expect(frames).toHaveLength(1);
    expect(d.stopped).toBe(true);
  });

  it('cuts off a frame at the cap without a newline, and never buffers past it', () => {
    const { d, errors } = decoder(64);
    d.push('{"type":"x","pad":"');
    d.push('y'.repeat(40));
    expect(errors).toEqual([]);
    d.push('y'.repeat(40));
    expect(errors).toEqual([{ reason: 'too-large', limit: 64 }]);
    // 100 MB more is dropped without being held.
    for (let i = 0; i < 100; i++) d.push('z'.repeat(1024 * 1024));
    expect(errors).toHaveLength(1);
  });

  it('a text member crosses after its header as it is (newlines and all), however the chunks fall', () => {
    const text = 'line one\nline "two"\n\u00e9\ud83d\ude00 end';
    const wire = encodeFrame({ type: 'r', ok: true, text }) + encodeFrame({ type: 'after' }) + encodeFrame({ type: 'empty', text: '' });
    expect(wire.startsWith('{"type":"r","ok":true,"textChars":')).toBe(true);
    for (let cut = 1; cut < wire.length; cut++) {
      const { d, frames, errors } = decoder(256);
      d.push(wire.slice(0, cut));
      d.push(wire.slice(cut));
      expect(errors).toEqual([]);
      expect(frames).toEqual([{ type: 'r', ok: true, text }, { type: 'after' }, { type: 'empty', text: '' }]);
    }
  });

  it('a text that is not what its header said, or longer than the cap, stops it', () => {
    const longer = decoder();
    longer.d.push('{"type":"r","textChars":3}\nabcd\n{"type":"x"}\n');
    expect(longer.frames).toEqual([]);
    expect(longer.errors).toEqual([{ reason: 'not-json', detail: expect.stringContaining('longer than its header') }]);
    for (const count of ['-1', '1.5', '"3"']) {
      const bad = decoder();
      bad.d.push(`{"type":"r","textChars":${count}}\nabc\n`);
      expect(bad.errors).toEqual([{ reason: 'not-json', detail: 'textChars is not a count of characters' }]);
    }
    const huge = decoder(64);
    huge.d.push('{"type":"r","textChars":65}\n');
    expect(huge.errors).toEqual([{ reason: 'too-large', limit: 64 }]);
  });

  it('refuses an oversized frame that does end in a newline', () => {
    const { d, frames, errors } = decoder(16);
    d.push(`${JSON.stringify({ type: 'x', pad: 'y'.repeat(40) })}\n`);
    expect(frames).toEqual([]);
    expect(errors[0]?.reason).toBe('too-large');
  });
});

/** What a misbehaving worker can put on its channel, as a line (Node) and as a value (utilityProcess). */
const violations: Array<{ name: string; line: string; value: unknown }> = [
  { name: 'not JSON', line: 'hello from console.log', value: Symbol('not data') },
  { name: 'a bare string', line: '"just a string"', value: 'just a string' },
  { name: 'an array', line: '[1,2,3]', value: [1, 2, 3] },
  { name: 'null', line: 'null', value: null },
  { name: 'a number', line: '42', value: 42 },
  { name: 'too large', line: JSON.stringify({ type: 'log', message: 'x'.repeat(200) }), value: { type: 'log', message: 'x'.repeat(200) } },
];

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { type: 'log' };
  value.self = value;
  return value;
}

describe.each(['pipe (Node)', 'utilityProcess'] as const)('the %s door', (door) => {
  /** Feeds one input through the door's handler; returns what reached the host and the violation, if any. */
  function through(input: { line: string; value: unknown }, max = 128) {
    const delivered: unknown[] = [];
    const failures: string[] = [];
    if (door === 'pipe (Node)') {
      frameReader((m) => delivered.push(m), (detail) => failures.push(detail), max).push(`${input.line}\n`);
    } else {
      const checked = acceptStructured(input.value, max);
      if (checked.ok) delivered.push(checked.message);
      else failures.push(checked.detail);
    }
    return { delivered, failures };
  }

  it('delivers a well-formed message', () => {
    const message = { type: 'log', level: 'info', message: 'hi' };
    expect(through({ line: JSON.stringify(message), value: message })).toEqual({ delivered: [message], failures: [] });
  });

  it.each(violations)('refuses $name with a reason a person can read', (input) => {
    const { delivered, failures } = through(input);
    expect(delivered).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^it (wrote|sent) /);
  });

  it('carries a result text within the cap, and refuses one past it, alike', () => {
    const fits = { type: 'tool_invocation_result', requestId: 'r', ok: true, text: 'x'.repeat(60) };
    expect(through({ line: encodeFrame(fits).trimEnd(), value: fits })).toEqual({ delivered: [fits], failures: [] });
    const over = { ...fits, text: 'x'.repeat(130) };
    const { delivered, failures } = through({ line: encodeFrame(over).trimEnd(), value: over });
    expect(delivered).toEqual([]);
    expect(failures).toEqual([expect.stringMatching(/longer than 128 characters/)]);
  });

  it('refuses a value JSON cannot carry', () => {
    const { delivered, failures } = through({ line: '{"type":"log","n":1e999x}', value: cyclic() });
    expect(delivered).toEqual([]);
    expect(failures).toHaveLength(1);
  });
});

describe('UtilityWorker (the desktop door) on a stand-in UtilityProcess', () => {
  class FakeChild extends EventEmitter implements UtilityChild {
    readonly pid = 4242;
    readonly stdout = null;
    readonly stderr = null;
    readonly posted: unknown[] = [];
    killed = 0;
    postMessage(message: unknown): void {
      this.posted.push(message);
    }
    kill(): boolean {
      this.killed++;
      setImmediate(() => this.emit('exit', 0));
      return true;
    }
  }

  it('passes good messages on, and a bad one kills that worker once and reports WORKER_PROTOCOL detail', async () => {
    const child = new FakeChild();
    const worker = new UtilityWorker(child, () => 1234);
    const messages: unknown[] = [];
    const violationsSeen: string[] = [];
    worker.onMessage((m) => messages.push(m));
    worker.onProtocolError((d) => violationsSeen.push(d));
    const exited = new Promise<[number | null, string | null]>((resolve) => worker.onExit((code, signal) => resolve([code, signal])));
    child.emit('message', { type: 'ready' });
    child.emit('message', ['not', 'an', 'object']);
    child.emit('message', { type: 'log', message: 'after the violation' });
    expect(messages).toEqual([{ type: 'ready' }]);
    expect(violationsSeen).toEqual(['it sent a message that is not an object (an array)']);
    expect(child.killed).toBe(1);
    // A kill shows as exit code 0 on POSIX: the kill intent is kept.
    expect(await exited).toEqual([null, 'SIGKILL']);
    expect(worker.send({ type: 'ping', seq: 1 })).toBe(false);
    expect(worker.residentBytes()).toBeNull();
  });

  it('reads resident memory through the port it was given', () => {
    const worker = new UtilityWorker(new FakeChild(), (pid) => pid * 2);
    expect(worker.residentBytes()).toBe(8484);
  });
});
