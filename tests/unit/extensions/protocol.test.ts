// The worker protocol's parser for untrusted worker input, error normalisation and size measurement.
import { describe, expect, it } from 'vitest';
import { jsonBytesBound, measureResult, Outbox, parseWorkerMessage, toWorkerToolError, utf8ByteLength } from '../../../shared/protocol';

describe('parseWorkerMessage', () => {
  it('accepts the worker messages', () => {
    expect(parseWorkerMessage({ type: 'ready' })).toEqual({ ok: true, message: { type: 'ready' } });
    expect(parseWorkerMessage({ type: 'heartbeat', seq: 4 })).toEqual({ ok: true, message: { type: 'heartbeat', seq: 4 } });
    expect(parseWorkerMessage({ type: 'unregister_tool', name: 'x' })).toEqual({ ok: true, message: { type: 'unregister_tool', name: 'x' } });
    expect(parseWorkerMessage({ type: 'register_tool', tool: { name: 'x' } })).toMatchObject({ ok: true });
    expect(parseWorkerMessage({ type: 'tool_invocation_result', requestId: 'r1', ok: true })).toEqual({
      ok: true,
      message: { type: 'tool_invocation_result', requestId: 'r1', ok: true, value: null },
    });
  });

  it('refuses junk, unknown types and bad request ids', () => {
    for (const raw of [null, 'ready', 42, [], { type: 7 }, { type: 'init' }, { type: 'register_tool' }, { type: 'register_tool', tool: [] }]) {
      expect(parseWorkerMessage(raw).ok).toBe(false);
    }
    expect(parseWorkerMessage({ type: 'tool_invocation_result', requestId: '', ok: true }).ok).toBe(false);
    expect(parseWorkerMessage({ type: 'tool_invocation_result', requestId: 'a b', ok: true }).ok).toBe(false);
    expect(parseWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: 'yes' }).ok).toBe(false);
  });

  it('clips log text and defaults an unknown level to info', () => {
    const parsed = parseWorkerMessage({ type: 'log', level: 'shout', message: 'm'.repeat(20_000) });
    expect(parsed.ok && parsed.message.type === 'log' && parsed.message.level).toBe('info');
    expect(parsed.ok && parsed.message.type === 'log' && parsed.message.message.length).toBeLessThan(9000);
  });

  it('normalises a worker error: unknown code shapes become TOOL_ERROR', () => {
    const parsed = parseWorkerMessage({ type: 'tool_invocation_result', requestId: 'r', ok: false, error: { code: 'not valid!', message: 'x', hint: 5 } });
    expect(parsed).toEqual({ ok: true, message: { type: 'tool_invocation_result', requestId: 'r', ok: false, error: { code: 'TOOL_ERROR', message: 'x' } } });
  });
});

describe('toWorkerToolError', () => {
  it('keeps the orchestrator seed shape {code, message, hint}', () => {
    const thrown = Object.assign(new Error('Database is read-only.'), { code: 'DB_READONLY', hint: 'Wait.' });
    expect(toWorkerToolError(thrown)).toEqual({ code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait.' });
    expect(toWorkerToolError(Object.assign(new Error('fs'), { code: 'ENOENT' }))).toEqual({ code: 'ENOENT', message: 'fs' });
    expect(toWorkerToolError('text')).toEqual({ code: 'TOOL_ERROR', message: 'text' });
    expect(toWorkerToolError(new Error('m'.repeat(5000))).message.length).toBeLessThan(2100);
  });
});

describe('sizes', () => {
  it('utf8ByteLength matches Buffer.byteLength', () => {
    for (const text of ['', 'ascii', 'naïve', '日本語', '😀 emoji', '\ud800 lone surrogate', 'x'.repeat(1000)]) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text));
    }
  });

  it('measures strings as-is, other values as JSON, and reports what cannot be JSON', () => {
    expect(measureResult('abc')).toEqual({ ok: true, bytes: 3 });
    expect(measureResult({ a: 1 })).toEqual({ ok: true, bytes: 7 });
    expect(measureResult(undefined)).toEqual({ ok: true, bytes: 4 });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(measureResult(cyclic).ok).toBe(false);
    expect(measureResult(10n).ok).toBe(false);
  });
});

describe('batching', () => {
  /** A fixed size, as the outbox's measure. */
  const size = (bytes: number) => () => bytes;

  it('jsonBytesBound never undercounts and gives up past the limit or on non-JSON', () => {
    for (const value of ['', 'a"\n\u0001', '日本語😀', 0, -1.2345678901234567e-308, true, null, [1, 'x', null], { a: { b: ['c', { d: 'e\\' }] } }, { x: undefined }]) {
      expect(jsonBytesBound(value, 1e9)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(value)));
    }
    // Long strings (chat context) are measured rather than bounded at 6 bytes a unit; still never under.
    const long = ['plain text '.repeat(40), 'say "hi" \\ back\n\t\u0001 '.repeat(30), 'café — 日本語😀 '.repeat(30), `${'\ud800'.repeat(20)}x${'\udfff'.repeat(20)}`];
    for (const value of [...long, { context: long[0], contextMessages: long.map((content) => ({ role: 'user', content })) }]) {
      expect(jsonBytesBound(value, 1e9)).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(value)));
    }
    expect(jsonBytesBound(long[0], 1e9)).toBe(Buffer.byteLength(JSON.stringify(long[0])));
    expect(jsonBytesBound('x'.repeat(1000), 100)).toBe(Infinity);
    expect(jsonBytesBound({ when: new Date() }, 1e9)).toBe(Infinity);
    expect(jsonBytesBound({ f: () => 1 }, 1e9)).toBe(Infinity);
  });

  it('the outbox writes the first message of a burst at once and the rest as batches at its end, in order', async () => {
    const writes: unknown[] = [];
    const ticks: Array<() => void> = [];
    const outbox = new Outbox<{ type: string; n: number }>({ write: (m) => (writes.push(m), true), schedule: (f) => ticks.push(f), maxItems: 3, maxBytes: 100 });
    outbox.push({ type: 'a', n: 1 }, size(10));
    expect(writes).toEqual([{ type: 'a', n: 1 }]);
    outbox.push({ type: 'a', n: 2 }, size(10));
    outbox.push({ type: 'a', n: 3 }, size(10));
    expect(writes).toHaveLength(1);
    ticks.shift()!();
    expect(writes[1]).toEqual({ type: 'batch', messages: [{ type: 'a', n: 2 }, { type: 'a', n: 3 }] });
    // A new burst starts with a lone write again.
    outbox.push({ type: 'a', n: 4 }, size(10));
    expect(writes[2]).toEqual({ type: 'a', n: 4 });
    ticks.shift()!();
    expect(writes).toHaveLength(3);
    // Item and byte caps start a new write; an item too big to share goes alone, keeping order.
    writes.length = 0;
    for (let n = 5; n <= 9; n++) outbox.push({ type: 'a', n }, size(10));
    outbox.push({ type: 'big', n: 10 }, size(Infinity));
    outbox.push({ type: 'a', n: 11 }, size(60));
    outbox.push({ type: 'a', n: 12 }, size(60));
    ticks.splice(0).forEach((f) => f());
    expect(writes.map((w) => ((w as { type: string }).type === 'batch' ? (w as { messages: Array<{ n: number }> }).messages.map((m) => m.n) : (w as { n: number }).n))).toEqual([
      5,
      [6, 7, 8],
      9,
      10,
      11,
      12,
    ]);
  });

  it('measures an item only when it would join a batch: the first of a burst leaves unmeasured, whatever its size', () => {
    const writes: unknown[] = [];
    const ticks: Array<() => void> = [];
    const measured: number[] = [];
    const measure = (item: { n: number; bytes: number }) => (measured.push(item.n), item.bytes);
    const outbox = new Outbox<{ n: number; bytes: number }>({ write: (m) => (writes.push(m), true), schedule: (f) => ticks.push(f), maxItems: 4, maxBytes: 100 });
    outbox.push({ n: 1, bytes: Infinity }, measure);
    outbox.push({ n: 2, bytes: 10 }, measure);
    outbox.push({ n: 3, bytes: Infinity }, measure);
    outbox.push({ n: 4, bytes: 10 }, measure);
    ticks.shift()!();
    expect(measured).toEqual([2, 3, 4]);
    // The too-big item still travels alone and in order: 2 is written before it.
    expect(writes).toEqual([{ n: 1, bytes: Infinity }, { n: 2, bytes: 10 }, { n: 3, bytes: Infinity }, { n: 4, bytes: 10 }]);
  });

  it('reports the items of a failed write', () => {
    const dropped: number[] = [];
    const outbox = new Outbox<{ type: string; n: number }>({ write: () => false, schedule: () => {}, onDropped: (items) => dropped.push(...items.map((i) => i.n)) });
    outbox.push({ type: 'a', n: 1 }, size(1));
    outbox.push({ type: 'a', n: 2 }, size(1));
    outbox.flush();
    expect(dropped).toEqual([1, 2]);
  });
});
