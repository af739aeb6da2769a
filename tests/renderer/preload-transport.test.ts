// @vitest-environment happy-dom
// The desktop transport over the preload bridge: results pass through, failures become errors, nothing hangs.
import { describe, expect, it } from 'vitest';
import type { PreloadBridge } from '../../shared/host-api';
import { HOST_TIMEOUT } from '../../renderer/src/api/errors';
import { connectToHost } from '../../renderer/src/api';
import { createPreloadTransport } from '../../renderer/src/api/preload-transport';
import { FakeTimers, flush } from './fake-socket';

type Answer = (method: string, input: unknown) => Promise<unknown>;

/** The preload bridge as the main process's door answers it: each call's result by id, events pushed once subscribed. */
function bridge(answer: Answer): PreloadBridge & { emit(e: unknown): void; posted: unknown[] } {
  const listeners = new Set<(message: unknown) => void>();
  const deliver = (message: unknown) => listeners.forEach((l) => l(message));
  const posted: unknown[] = [];
  return {
    posted,
    post(message) {
      const m = structuredClone(message) as { kind: string; id: number; method: string; input: unknown };
      posted.push(m);
      if (m.kind === 'invoke') void answer(m.method, m.input).then((value) => deliver(value === NO_ANSWER ? null : { kind: 'result', id: m.id, result: value }));
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event) => deliver({ kind: 'event', event }),
  };
}
const NO_ANSWER = Symbol('no answer');

describe('preload transport', () => {
  it('is connected over IPC and passes results through, by id', async () => {
    const calls: Array<[string, unknown]> = [];
    const host = createPreloadTransport(
      bridge(async (method, input) => {
        calls.push([method, input]);
        return { ok: true, value: { now: 7 } };
      }),
    );
    expect(host.getInfo()).toMatchObject({ state: 'connected', transport: 'ipc' });
    expect(await host.invoke('host.ping', {})).toEqual({ ok: true, value: { now: 7 } });
    expect(calls).toEqual([['host.ping', {}]]);
  });

  it('a call the bridge cannot clone is INVALID_INPUT, answered at once; a message that is not the kernel\'s is ignored', async () => {
    const b = bridge(async () => NO_ANSWER);
    b.post = () => {
      throw new DOMException('could not be cloned', 'DataCloneError');
    };
    const failing = createPreloadTransport(b);
    expect(await failing.invoke('host.ping', { f: () => 1 } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('could not be cloned') } });
    const timers = new FakeTimers();
    const odd = createPreloadTransport(bridge(async () => NO_ANSWER), { timers, callTimeoutMs: 1000 });
    let result: unknown;
    void odd.invoke('host.ping', {}).then((r) => (result = r));
    await flush();
    expect(result).toBeUndefined();
    timers.advance(1000);
    await flush();
    expect(result).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
  });

  it('dispose ends the calls still waiting with HOST_SHUTDOWN, and sends nothing after', async () => {
    const b = bridge(() => new Promise(() => undefined));
    const host = createPreloadTransport(b);
    const pending = host.invoke('host.status', {});
    host.dispose();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN' } });
    expect(await host.invoke('host.ping', {})).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN' } });
    expect(b.posted).toHaveLength(1);
  });

  it('times out a call the main process never answers', async () => {
    const timers = new FakeTimers();
    const host = createPreloadTransport(bridge(() => new Promise(() => undefined)), { timers, callTimeoutMs: 1000 });
    let result: unknown;
    void host.invoke('host.status', {}).then((r) => (result = r));
    timers.advance(1000);
    await flush();
    expect(result).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
  });

  it('gives calls that wait for tools or a person their own, longer limit', async () => {
    const timers = new FakeTimers();
    const host = createPreloadTransport(bridge(() => new Promise(() => undefined)), { timers, callTimeoutMs: 1000, waitingCallTimeoutMs: 5000 });
    let run: unknown;
    let status: unknown;
    void host.invoke('council.run', { chat: { messages: [] } }).then((r) => (run = r));
    void host.invoke('host.status', {}).then((r) => (status = r));
    timers.advance(1000);
    await flush();
    expect(status).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
    expect(run).toBeUndefined();
    timers.advance(4000);
    await flush();
    expect(run).toMatchObject({ ok: false, error: { code: HOST_TIMEOUT } });
  });

  it('subscribes once, forwards events that look like host events, and unsubscribes', () => {
    const b = bridge(async () => ({ ok: true, value: null }));
    const host = createPreloadTransport(b);
    const seen: unknown[] = [];
    const off = host.onEvent((e) => seen.push(e));
    host.onEvent(() => undefined);
    expect(b.posted).toEqual([{ kind: 'subscribe' }]);
    b.emit({ type: 'notice.dismissed', id: 'n1' });
    b.emit('junk');
    b.emit(null);
    off();
    b.emit({ type: 'notice.dismissed', id: 'n2' });
    expect(seen).toEqual([{ type: 'notice.dismissed', id: 'n1' }]);
  });

  it('is what connectToHost picks when window.councilHost exists', () => {
    const fake = { councilHost: bridge(async () => ({ ok: true, value: null })) } as unknown as Window;
    const host = connectToHost(fake);
    expect(host.transport).toBe('ipc');
  });
});
