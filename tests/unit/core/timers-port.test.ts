// Services keep their time on the core's Timers port: request timeouts and the delta batcher's rate cap run on fake
// time here, and a finished request leaves no timer behind.
import { describe, expect, it } from 'vitest';
import { getJson } from '../../../electron/core/connections/http';
import { DeltaBatcher } from '../../../electron/core/chat/delta-batcher';
import { CORS_LIMITS, corsHandlers } from '../../../electron/core/extensions/spindle-host/cors';
import { HostFailure } from '../../../shared/errors';
import { FakeClock } from '../../helpers/fake-time';
import { callSpindle } from '../../helpers/spindle-call';

/** A server that never answers: the request ends only when its signal aborts. */
const silentFetch = (async (_url: string | URL | Request, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error), { once: true }))) as typeof fetch;

const publicLookup = async () => ['93.184.216.34'];
const caller = { extensionId: 'ext_a', allowed: () => true };

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HostFailure) return err.error;
    throw err;
  }
  throw new Error('expected a failure');
}

/** Lets the request reach its fetch (DNS check, awaits) before time moves. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request timeouts on the Timers port', () => {
  it('a connection check to a silent server ends with LLM_TIMEOUT when the fake clock passes its timeout, not before', async () => {
    const clock = new FakeClock();
    let done = false;
    // Handled from the start: the rejection comes while the test is still moving time.
    const outcome = failure(getJson('http://127.0.0.1:9/v1/models', { headers: {}, timeoutMs: 10_000, fetch: silentFetch, timers: clock, baseUrl: 'http://127.0.0.1:9/v1' }).finally(() => (done = true)));
    await settle();
    clock.advance(9_999);
    await settle();
    expect(done).toBe(false);
    clock.advance(1);
    await settle();
    expect(done).toBe(true);
    expect(await outcome).toMatchObject({ code: 'LLM_TIMEOUT', message: expect.stringContaining('10000 ms') });
  });

  it('an answered connection check runs under one timer of the port and leaves none running', async () => {
    const clock = new FakeClock();
    const timersDuringFetch: number[] = [];
    const answering = (async () => {
      timersDuringFetch.push(clock.pendingTimers);
      return new Response('{"data":[]}', { status: 200 });
    }) as typeof fetch;
    expect(await getJson('http://127.0.0.1:9/v1/models', { headers: {}, timeoutMs: 10_000, fetch: answering, timers: clock })).toEqual({ data: [] });
    expect(timersDuringFetch).toEqual([1]);
    expect(clock.pendingTimers).toBe(0);
  });

  it("spindle.cors to a silent server ends with TOOL_TIMEOUT at the cap on the fake clock, or CANCELLED when the worker cancels, at most maxInFlight at a time per extension, and an answered fetch leaves no timer", async () => {
    const clock = new FakeClock();
    const silent = corsHandlers(silentFetch, CORS_LIMITS, publicLookup, clock);
    const outcome = failure(Promise.resolve(callSpindle(silent, caller, 'cors.fetch', { url: 'https://api.example/x' })));
    await settle();
    expect(clock.pendingTimers).toBe(1);
    clock.advance(CORS_LIMITS.timeoutMs);
    expect(await outcome).toMatchObject({ code: 'TOOL_TIMEOUT' });

    // The worker cancels (its fetch's signal aborted): the host's fetch ends then, CANCELLED, and leaves no timer.
    const cancel = new AbortController();
    const cancelled = failure(Promise.resolve(callSpindle(silent, caller, 'cors.fetch', { url: 'https://api.example/z' }, cancel.signal)));
    await settle();
    expect(clock.pendingTimers).toBe(1);
    cancel.abort();
    expect(await cancelled).toMatchObject({ code: 'CANCELLED' });
    expect(clock.pendingTimers).toBe(0);

    // At most maxInFlight under way per extension: the next is refused at once, another extension's goes on, and one
    // ended makes room.
    const cancels = Array.from({ length: CORS_LIMITS.maxInFlight }, () => new AbortController());
    const held = cancels.map((c, i) => failure(Promise.resolve(callSpindle(silent, caller, 'cors.fetch', { url: `https://api.example/held-${i}` }, c.signal))));
    await settle();
    expect(await failure(Promise.resolve(callSpindle(silent, caller, 'cors.fetch', { url: 'https://api.example/one-more' })))).toMatchObject({ code: 'RATE_LIMITED' });
    const other = new AbortController();
    const another = failure(Promise.resolve(callSpindle(silent, { extensionId: 'ext_b', allowed: () => true }, 'cors.fetch', { url: 'https://api.example/b' }, other.signal)));
    cancels[0]!.abort();
    expect(await held[0]).toMatchObject({ code: 'CANCELLED' });
    const room = new AbortController();
    const again = failure(Promise.resolve(callSpindle(silent, caller, 'cors.fetch', { url: 'https://api.example/again' }, room.signal)));
    await settle();
    for (const c of [...cancels, other, room]) c.abort();
    expect(await Promise.all([...held.slice(1), another, again])).toEqual(Array(CORS_LIMITS.maxInFlight + 1).fill(expect.objectContaining({ code: 'CANCELLED' })));
    expect(clock.pendingTimers).toBe(0);

    const answered = corsHandlers((async () => new Response('ok', { status: 200 })) as typeof fetch, CORS_LIMITS, publicLookup, clock);
    expect(await callSpindle(answered, caller, 'cors.fetch', { url: 'https://api.example/y' })).toMatchObject({ status: 200, body: 'ok' });
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('DeltaBatcher rate cap on the Timers port', () => {
  it('with a minimum interval, text after a flush waits for the fake clock; flush() sends it at once and clears the wait', () => {
    const clock = new FakeClock();
    const sent: string[] = [];
    const batcher = new DeltaBatcher((text) => sent.push(text), { minIntervalMs: 50, now: () => clock.now(), timers: clock });
    batcher.push('a');
    batcher.flush();
    batcher.push('b');
    batcher.push('c');
    clock.advance(49);
    expect(sent).toEqual(['a']);
    clock.advance(1);
    expect(sent).toEqual(['a', 'bc']);
    batcher.push('d');
    expect(clock.pendingTimers).toBe(1);
    batcher.flush();
    expect(sent).toEqual(['a', 'bc', 'd']);
    expect(clock.pendingTimers).toBe(0);
  });
});
