// @vitest-environment happy-dom
// The desktop transport over the preload bridge: results pass through, failures become errors, nothing hangs.
import { describe, expect, it } from 'vitest';
import type { PreloadBridge } from '../../shared/host-api';
import { HOST_TIMEOUT } from '../../renderer/src/api/errors';
import { connectToHost } from '../../renderer/src/api';
import { createPreloadTransport } from '../../renderer/src/api/preload-transport';
import { FakeTimers, flush } from './fake-socket';

function bridge(invoke: PreloadBridge['invoke']): PreloadBridge & { emit(e: unknown): void } {
  const listeners = new Set<(e: unknown) => void>();
  return {
    invoke,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (e) => listeners.forEach((l) => l(e)),
  };
}

describe('preload transport', () => {
  it('is connected over IPC and passes results through', async () => {
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

  it('turns a rejected IPC call into HOST_SHUTDOWN and a malformed answer into INTERNAL', async () => {
    const failing = createPreloadTransport(bridge(() => Promise.reject(new Error('channel closed'))));
    expect(await failing.invoke('host.ping', {})).toMatchObject({ ok: false, error: { code: 'HOST_SHUTDOWN', hint: 'channel closed' } });
    const odd = createPreloadTransport(bridge(async () => 'surprise' as never));
    expect(await odd.invoke('host.ping', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
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

  it('forwards events that look like host events, and unsubscribes', () => {
    const b = bridge(async () => ({ ok: true, value: null }));
    const host = createPreloadTransport(b);
    const seen: unknown[] = [];
    const off = host.onEvent((e) => seen.push(e));
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
