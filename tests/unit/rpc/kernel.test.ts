// The RPC kernel (shared/rpc): a client and a server over an in-memory carrier that delivers like a real one (later,
// in order): calls answered by id, sizes from the carrier, deadlines, cancel, the link ending, events, the hello.
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/errors';
import { createClient } from '../../../shared/rpc/client';
import type { ToClient, ToServer } from '../../../shared/rpc/envelope';
import { serve } from '../../../shared/rpc/serve';
import type { Transport } from '../../../shared/rpc/transport';

type Ev = { type: string };

/** Two ends of one carrier: each message is delivered on a later turn, as JSON, with its length as its size. */
function carrier() {
  const make = <In, Out>() => {
    const messages: Array<(m: In, bytes: number) => void> = [];
    const closes: Array<() => void> = [];
    return { messages, closes, end: null as unknown as Transport<In, Out> };
  };
  const a = make<unknown, ToServer>();
  const b = make<unknown, ToClient<Ev>>();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    queueMicrotask(() => [...a.closes, ...b.closes].forEach((l) => l()));
  };
  const deliver = (to: typeof a | typeof b, message: unknown) => {
    const text = JSON.stringify(message);
    queueMicrotask(() => !closed && to.messages.forEach((l) => l(JSON.parse(text), text.length)));
  };
  const sent: unknown[] = [];
  const client: Transport<unknown, ToServer> = { send: (m) => (sent.push(m), deliver(b, m)), onMessage: (l) => void a.messages.push(l), onClose: (l) => void a.closes.push(l), close, get closed() { return closed; } };
  const server: Transport<unknown, ToClient<Ev>> = { send: (m) => deliver(a, m), onMessage: (l) => void b.messages.push(l), onClose: (l) => void b.closes.push(l), close, get closed() { return closed; } };
  return { client, server, sent, close };
}

const LOST = { code: 'HOST_SHUTDOWN', message: 'gone' } as const;

/** Every delivery queued so far has run (deliveries are microtasks; this waits past them, not for a time). */
const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Timers the test fires by hand. */
function manualTimers() {
  const due: Array<() => void> = [];
  return { timers: { setTimeout: (fn: () => void) => due.push(fn), clearTimeout: () => undefined }, fireAll: () => due.splice(0).forEach((fn) => fn()) };
}

describe('the RPC kernel', () => {
  it('answers each call by id with the size it had on the carrier; a rejection is INTERNAL; nonsense gets a link error', async () => {
    const link = carrier();
    const seen: Array<[string, number]> = [];
    serve<Ev>(link.server, {
      call: async (method, input, bytes) => {
        seen.push([method, bytes]);
        if (method === 'boom') throw new Error('no');
        return { ok: true, value: { echo: input } };
      },
      invalid: 'Expected an invoke.',
    });
    const client = createClient<Ev>(link.client, { lost: LOST, subscribe: true });
    const [one, two, boom] = await Promise.all([client.call('echo', 1), client.call('echo', 'two'), client.call('boom', null)]);
    expect(one).toEqual({ ok: true, value: { echo: 1 } });
    expect(two).toEqual({ ok: true, value: { echo: 'two' } });
    expect(boom).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(seen).toEqual([
      ['echo', JSON.stringify({ kind: 'invoke', id: 1, method: 'echo', input: 1 }).length],
      ['echo', JSON.stringify({ kind: 'invoke', id: 2, method: 'echo', input: 'two' }).length],
      ['boom', JSON.stringify({ kind: 'invoke', id: 3, method: 'boom', input: null }).length],
    ]);
  });

  it('a deadline answers HOST_TIMEOUT; a cancel answers CANCELLED and aborts the call on the server; the late answer is dropped', async () => {
    const link = carrier();
    let serverSignal: AbortSignal | undefined;
    let finish!: (r: Result<unknown>) => void;
    serve<Ev>(link.server, {
      call: (_m, _i, _b, signal) => ((serverSignal = signal), new Promise((resolve) => (finish = resolve))),
      invalid: 'x',
    });
    const clock = manualTimers();
    const client = createClient<Ev>(link.client, { lost: LOST, subscribe: true, timers: clock.timers });
    const timed = client.call('slow', null, { timeoutMs: 30_000 });
    await delivered();
    clock.fireAll();
    expect(await timed).toMatchObject({ ok: false, error: { code: 'HOST_TIMEOUT', message: 'slow did not answer within 30 s.' } });
    // The server is told to stop the call that ran out of time.
    expect(link.sent.at(-1)).toEqual({ kind: 'cancel', id: 1 });
    await delivered();
    expect(serverSignal?.aborted).toBe(true);
    const controller = new AbortController();
    const cancelled = client.call('slow', null, { signal: controller.signal });
    await delivered();
    controller.abort();
    expect(await cancelled).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await delivered();
    expect(link.sent.at(-1)).toEqual({ kind: 'cancel', id: 2 });
    expect(serverSignal?.aborted).toBe(true);
    // The answer that comes after is for no call any more: dropped, and the next call is answered as its own.
    finish({ ok: true, value: 'late' });
    await delivered();
    const next = client.call('slow', null, { timeoutMs: 1 });
    await delivered();
    clock.fireAll();
    expect(await next).toMatchObject({ error: { code: 'HOST_TIMEOUT' } });
  });

  it('when the link ends, calls in flight and later calls answer the lost error, and the hello resolves null', async () => {
    const link = carrier();
    serve<Ev>(link.server, { call: () => new Promise(() => undefined), invalid: 'x' });
    const client = createClient<Ev>(link.client, { lost: LOST, subscribe: true });
    const waiting = client.call('never', null);
    link.close();
    expect(await waiting).toEqual({ ok: false, error: LOST });
    expect(await client.call('after', null)).toEqual({ ok: false, error: LOST });
    expect(await client.hello).toBeNull();
  });

  it('events reach a client once it listens (subscribe), or at once where the server pushes them; the hello comes first', async () => {
    const emitters = new Set<(e: Ev) => void>();
    const events = (listener: (e: Ev) => void) => (emitters.add(listener), () => emitters.delete(listener));
    const emit = (e: Ev) => emitters.forEach((l) => l(e));

    const asked = carrier();
    serve<Ev>(asked.server, { call: async () => ({ ok: true, value: null }), events, hello: () => ({ notices: ['n'] }), invalid: 'x' });
    const client = createClient<Ev>(asked.client, { lost: LOST, subscribe: true });
    expect(await client.hello).toEqual({ notices: ['n'] });
    emit({ type: 'before' });
    const got: Ev[] = [];
    client.onEvent((e) => got.push(e));
    await client.call('sync', null);
    emit({ type: 'after' });
    await delivered();
    expect(got).toEqual([{ type: 'after' }]);
    expect(asked.sent.filter((m) => (m as { kind: string }).kind === 'subscribe')).toHaveLength(1);

    const pushed = carrier();
    serve<Ev>(pushed.server, { call: async () => ({ ok: true, value: null }), events, pushEvents: true, invalid: 'x' });
    const page = createClient<Ev>(pushed.client, { lost: LOST, subscribe: false });
    const heard: Ev[] = [];
    page.onEvent((e) => heard.push(e));
    emit({ type: 'pushed' });
    await delivered();
    expect(heard).toContainEqual({ type: 'pushed' });
    expect(pushed.sent).toEqual([]);
    // The link's end takes the server's listener away.
    pushed.close();
    asked.close();
    await delivered();
    expect(emitters.size).toBe(0);
  });

  it('a streaming call hands its chunks to its caller in order before the answer; none go out after it, and other calls see none', async () => {
    const link = carrier();
    const fromServer: Array<{ kind: string }> = [];
    const send = link.server.send;
    link.server.send = (m) => (fromServer.push(m as { kind: string }), send(m));
    let late: ((chunk: unknown) => void) | undefined;
    serve<Ev>(link.server, {
      call: async (method, input, _bytes, _signal, emit) => {
        if (method === 'count') for (let i = 0; i < (input as number); i++) emit({ i });
        late = emit;
        return { ok: true, value: method };
      },
      invalid: 'x',
    });
    const client = createClient<Ev>(link.client, { lost: LOST, subscribe: true });
    const chunks: unknown[] = [];
    const [counted, plain] = await Promise.all([client.call('count', 3, { onChunk: (c) => chunks.push(c) }), client.call('plain', null)]);
    expect(counted).toEqual({ ok: true, value: 'count' });
    expect(plain).toEqual({ ok: true, value: 'plain' });
    expect(chunks).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
    // A chunk emitted after the call was answered is not sent.
    late!({ i: 99 });
    await delivered();
    expect(fromServer.filter((m) => m.kind === 'chunk')).toHaveLength(3);
  });

  it('a carrier that cannot take a call (it throws) makes an answer, never a rejection; a malformed answer is no answer', async () => {
    const link = carrier();
    serve<Ev>(link.server, { call: async () => ({ ok: true, value: 1 }) });
    const refusing: Transport<unknown, ToServer> = {
      ...link.client,
      send: (m) => {
        if (m.kind === 'invoke' && m.method === 'clone') throw new DOMException('could not be cloned', 'DataCloneError');
        link.client.send(m);
      },
      onMessage: link.client.onMessage,
      onClose: link.client.onClose,
      close: link.client.close,
      get closed() {
        return link.client.closed;
      },
    };
    const client = createClient<Ev>(refusing, { lost: LOST, subscribe: false });
    expect(await client.call('clone', null)).toEqual({ ok: false, error: { code: 'INVALID_INPUT', message: 'Input for clone cannot be sent: could not be cloned' } });
    expect(await client.call('fine', null)).toEqual({ ok: true, value: 1 });
    // An answer without a HostError (or without ok) is not one: the call waits for a real one, or its deadline.
    const clock = manualTimers();
    const bare = carrier();
    bare.server.onMessage((m) => {
      const call = m as { kind: string; id: number };
      if (call.kind === 'invoke') bare.server.send({ kind: 'result', id: call.id, result: { ok: false } as never });
    });
    const strict = createClient<Ev>(bare.client, { lost: LOST, subscribe: false, timers: clock.timers });
    const answer = strict.call('odd', null, { timeoutMs: 10 });
    await delivered();
    clock.fireAll();
    expect(await answer).toMatchObject({ ok: false, error: { code: 'HOST_TIMEOUT' } });
  });

  it('without an `invalid` text (a stranger\'s frame), a message that is no call is dropped unanswered', async () => {
    const link = carrier();
    const back: unknown[] = [];
    link.client.onMessage((m) => back.push(m));
    serve<Ev>(link.server, { call: async () => ({ ok: true, value: 1 }) });
    link.client.send({ kind: 'nonsense' } as never);
    await delivered();
    expect(back).toEqual([]);
  });
});
