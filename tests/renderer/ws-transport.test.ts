// @vitest-environment happy-dom
// The browser-mode WebSocket client: ids and results, events, timeouts, disconnects, bounded reconnects, auth.
import { describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import type { ConnectionInfo } from '../../renderer/src/api/connection';
import { HOST_TIMEOUT } from '../../renderer/src/api/errors';
import { createWsTransport, hostSocketUrl, type WsTransportOptions } from '../../renderer/src/api/ws-transport';
import { FakeSocket, FakeTimers, flush } from './fake-socket';

const URL_ = 'ws://127.0.0.1:4000/ws?token=abc';

function setup(options: Partial<WsTransportOptions> = {}) {
  const timers = new FakeTimers();
  const sockets: FakeSocket[] = [];
  const states: ConnectionInfo[] = [];
  const client = createWsTransport({
    url: URL_,
    timers,
    random: () => 0.999999,
    callTimeoutMs: 5000,
    connectTimeoutMs: 2000,
    backoff: { baseMs: 100, maxMs: 1000, maxAttempts: 6 },
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    ...options,
  });
  client.onInfo((info) => states.push(info));
  const last = () => sockets[sockets.length - 1]!;
  return { client, timers, sockets, states, last };
}

function track<T>(promise: Promise<T>): { value: T | undefined; done: boolean } {
  const box: { value: T | undefined; done: boolean } = { value: undefined, done: false };
  void promise.then((v) => {
    box.value = v;
    box.done = true;
  });
  return box;
}

describe('ws transport', () => {
  it('opens one socket to the given URL and reports connecting → connected', () => {
    const { client, sockets, states, last } = setup();
    expect(sockets).toHaveLength(1);
    expect(last().url).toBe(URL_);
    expect(client.getInfo().state).toBe('connecting');
    last().accept();
    expect(client.getInfo()).toMatchObject({ state: 'connected', transport: 'websocket', attempt: 0 });
    expect(states.map((s) => s.state)).toEqual(['connected']);
  });

  it('queues calls made while connecting, sends them on open with fresh ids, and matches results by id', async () => {
    const { client, last } = setup();
    const a = client.invoke('host.ping', {});
    const b = client.invoke('settings.get', {});
    expect(last().sent).toHaveLength(0);
    last().accept();
    expect(last().sent.map((m) => [m.kind, m.method])).toEqual([
      ['invoke', 'host.ping'],
      ['invoke', 'settings.get'],
    ]);
    const [idA, idB] = last().sent.map((m) => m.id);
    expect(idA).not.toBe(idB);
    // Answers may come back in any order.
    last().deliver({ kind: 'result', id: idB, result: { ok: true, value: 'settings' } });
    last().deliver({ kind: 'result', id: idA, result: { ok: true, value: { now: 42 } } });
    expect(await a).toEqual({ ok: true, value: { now: 42 } });
    expect(await b).toEqual({ ok: true, value: 'settings' });
  });

  it('passes host events to listeners and ignores malformed frames', () => {
    const { client, last } = setup();
    const events: unknown[] = [];
    const off = client.onEvent((e) => events.push(e));
    last().accept();
    last().deliver('not json');
    last().deliver({ kind: 'event' });
    last().deliver({ kind: 'result', id: 'x' });
    last().deliver({ kind: 'event', event: { type: 'notice.dismissed', id: 'n1' } });
    expect(events).toEqual([{ type: 'notice.dismissed', id: 'n1' }]);
    off();
    last().deliver({ kind: 'event', event: { type: 'notice.dismissed', id: 'n2' } });
    expect(events).toHaveLength(1);
  });

  it('times a call out with HOST_TIMEOUT instead of hanging, and ignores the late answer', async () => {
    const { client, timers, last } = setup();
    last().accept();
    const call = track(client.invoke('host.ping', {}));
    timers.advance(4999);
    await flush();
    expect(call.done).toBe(false);
    timers.advance(1);
    await flush();
    expect(call.done).toBe(true);
    expect(call.value).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
    last().deliver({ kind: 'result', id: last().sent[0]!.id, result: { ok: true, value: { now: 1 } } });
    expect(call.value).toMatchObject({ ok: false });
  });

  it('a call that timed out while the socket was still opening is never sent', async () => {
    const { client, timers, last } = setup({ connectTimeoutMs: 60_000 });
    const call = track(client.invoke('host.ping', {}));
    timers.advance(5000);
    await flush();
    expect(call.value).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
    last().accept();
    expect(last().sent).toEqual([]);
  });

  it('waits longer for a call that waits for tools or a person: council.run outlives the ordinary limit and its answer arrives', async () => {
    const { client, timers, last } = setup({ waitingCallTimeoutMs: 60_000 });
    last().accept();
    const run = track(client.invoke('council.run', { chat: { messages: [] } }));
    const ping = track(client.invoke('host.ping', {}));
    // A council timeout of 30 s plus the time its results take to come back.
    timers.advance(31_000);
    await flush();
    expect(ping.value).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
    expect(run.done).toBe(false);
    last().deliver({ kind: 'result', id: last().sent[0]!.id, result: { ok: true, value: { id: 'r1' } } });
    await flush();
    expect(run.value).toEqual({ ok: true, value: { id: 'r1' } });
    // It is still bounded.
    const invoke = track(client.invoke('tools.invoke', { qualifiedName: 'x:y', args: {} }));
    timers.advance(60_000);
    await flush();
    expect(invoke.value).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
  });

  it('fails calls in flight with HOST_SHUTDOWN when the socket closes', async () => {
    const { client, last } = setup();
    last().accept();
    const call = client.invoke('host.status', {});
    last().drop();
    const result = (await call) as Result<unknown>;
    expect(result).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN' } });
    expect(result.ok === false && result.error.message).toContain('closed before host.status was answered');
  });

  it('answers at once with HOST_SHUTDOWN while disconnected, without sending anything', async () => {
    const { client, last } = setup();
    last().accept();
    last().drop();
    expect(client.getInfo()).toMatchObject({ state: 'disconnected', willRetry: true, attempt: 1 });
    const result = await client.invoke('host.ping', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN' } });
    expect(last().sent).toHaveLength(0);
  });

  it('reconnects with growing, capped delays and gives up after maxAttempts', () => {
    const { client, timers, sockets, last } = setup();
    last().drop(); // never opened, no probe configured: a network failure
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      expect(client.getInfo()).toMatchObject({ state: 'disconnected', willRetry: true, attempt: i + 1 });
      const pending = timers.pendingDelays();
      expect(pending).toHaveLength(1);
      delays.push(pending[0]!);
      timers.advance(pending[0]!);
      expect(client.getInfo().state).toBe('connecting');
      last().drop();
    }
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(sockets).toHaveLength(7);
    expect(client.getInfo()).toMatchObject({ state: 'disconnected', willRetry: false, attempt: 7 });
    expect(timers.pendingDelays()).toEqual([]);
    timers.advance(60_000);
    expect(sockets).toHaveLength(7);

    // The user can start over; a success resets the count.
    client.reconnect();
    expect(sockets).toHaveLength(8);
    last().accept();
    expect(client.getInfo()).toMatchObject({ state: 'connected', attempt: 0 });
  });

  it('spreads reconnects with jitter from the injected random source', () => {
    const { timers, last } = setup({ random: () => 0 });
    last().drop();
    expect(timers.pendingDelays()).toEqual([50]);
  });

  it('gives up on a socket that never opens within connectTimeoutMs', () => {
    const { client, timers, sockets, last } = setup();
    const first = last();
    timers.advance(2000);
    expect(first.closedWith).not.toBeNull();
    expect(client.getInfo()).toMatchObject({ state: 'disconnected', willRetry: true });
    timers.advance(100);
    expect(sockets).toHaveLength(2);
    // A late open of the abandoned socket changes nothing.
    first.accept();
    expect(client.getInfo().state).toBe('connecting');
  });

  it('treats an auth close code as unauthorized and stops retrying', async () => {
    const { client, timers, sockets, last } = setup();
    last().drop(4401, 'bad token');
    expect(client.getInfo()).toMatchObject({ state: 'unauthorized', willRetry: false, detail: 'bad token' });
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
    expect(await client.invoke('host.ping', {})).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('treats an UNAUTHORIZED error frame followed by a close as unauthorized', () => {
    const { client, last } = setup();
    last().accept();
    last().deliver({ kind: 'error', error: { code: 'UNAUTHORIZED', message: 'token' } });
    last().drop(1006);
    expect(client.getInfo().state).toBe('unauthorized');
  });

  it('asks the probe when a socket never opened: reachable host means the token was refused', async () => {
    let reachable = true;
    const { client, sockets, timers, last } = setup({ probe: async () => reachable });
    last().drop();
    expect(client.getInfo().state).toBe('connecting');
    await flush();
    expect(client.getInfo()).toMatchObject({ state: 'unauthorized', willRetry: false });
    expect(client.getInfo().detail).toContain('refused');

    reachable = false;
    client.reconnect();
    last().drop();
    await flush();
    expect(client.getInfo()).toMatchObject({ state: 'disconnected', willRetry: true });
    timers.advance(1000);
    expect(sockets).toHaveLength(3);
  });

  it('does not probe after a connection that had opened (the host went away)', async () => {
    let probed = 0;
    const { client, last } = setup({
      probe: async () => {
        probed += 1;
        return true;
      },
    });
    last().accept();
    last().drop();
    await flush();
    expect(probed).toBe(0);
    expect(client.getInfo().state).toBe('disconnected');
  });

  it('fails calls queued during the probe instead of leaving them pending', async () => {
    const { client, last } = setup({ probe: async () => true });
    last().drop();
    const call = track(client.invoke('host.ping', {}));
    await flush();
    expect(call.done).toBe(true);
    expect(call.value).toMatchObject({ ok: false });
  });

  it('is unauthorized from the start without a token, and never opens a socket', async () => {
    const { client, sockets } = setup({ url: null });
    expect(sockets).toHaveLength(0);
    expect(client.getInfo().state).toBe('unauthorized');
    expect(await client.invoke('host.status', {})).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('resyncs nothing itself but resumes sending after a reconnect', async () => {
    const { client, timers, last } = setup();
    last().accept();
    last().drop();
    timers.advance(100);
    last().accept();
    const call = client.invoke('host.ping', {});
    expect(last().sent).toHaveLength(1);
    last().deliver({ kind: 'result', id: last().sent[0]!.id, result: { ok: true, value: { now: 2 } } });
    expect(await call).toEqual({ ok: true, value: { now: 2 } });
  });

  it('dispose closes the socket, settles pending calls and stops reconnecting', async () => {
    const { client, timers, sockets, last } = setup();
    last().accept();
    const call = client.invoke('host.ping', {});
    client.dispose();
    expect(last().closedWith).toEqual({ code: 1000, reason: 'window closing' });
    expect(await call).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN' } });
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
    expect(await client.invoke('host.ping', {})).toMatchObject({ ok: false });
  });

  it('answers with INVALID_INPUT for input that cannot be encoded', async () => {
    const { client, last } = setup();
    last().accept();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = await client.invoke('settings.update', { patch: cyclic });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('input over the cap', () => {
  it('F9: is refused with INPUT_TOO_LARGE before it is sent, so the socket stays open (multi-byte text counted in bytes)', async () => {
    const { client, last, states } = setup();
    last().accept();
    // 400,000 three-byte characters: under the 1 MB cap in UTF-16 units, over it in bytes.
    const result = await client.invoke('settings.update', { patch: { note: '€'.repeat(400_000) } });
    expect(result).toMatchObject({ ok: false, error: { code: 'INPUT_TOO_LARGE' } });
    expect(last().sent).toEqual([]);
    expect(states.at(-1)!.state).toBe('connected');
    // An import may be larger (its own cap), and one under it is sent as ever.
    const ok = client.invoke('packs.import', { content: 'x'.repeat(2 * 1024 * 1024) });
    expect(last().sent.map((m) => m.method)).toEqual(['packs.import']);
    last().deliver({ kind: 'result', id: last().sent[0]!.id, result: { ok: true, value: null } });
    expect(await ok).toEqual({ ok: true, value: null });
  });
});

describe('hostSocketUrl', () => {
  it('builds ws:// or wss:// on the page origin with the encoded token, or null without one', () => {
    expect(hostSocketUrl({ protocol: 'http:', host: '127.0.0.1:5173' }, '/ws', 'token', 'ab cd')).toBe(
      'ws://127.0.0.1:5173/ws?token=ab%20cd',
    );
    expect(hostSocketUrl({ protocol: 'https:', host: 'x.test' }, '/ws', 'token', 't')).toBe('wss://x.test/ws?token=t');
    expect(hostSocketUrl({ protocol: 'http:', host: 'x' }, '/ws', 'token', null)).toBe('ws://x/ws'); // the host refuses it and the page says why
  });
});
