// WorkerHost policy with a fake launcher and fake timers: calls, deadlines, cancellation, crashes, liveness against host lag, memory, floods, protocol faults.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecuteRequest } from '../../../electron/core/registry-port';
import { WorkerHost, type WorkerExit, type WorkerExitError, type WorkerHostTimings } from '../../../electron/core/extensions/worker-host';
import { FakeLauncher, fakeManifest, flush, type FakeHandle } from './fake-worker';

const T: Partial<WorkerHostTimings> = { heartbeatIntervalMs: 1000, unresponsiveAfterMs: 3000, startupTimeoutMs: 10_000, shutdownGraceMs: 500 };

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;
function call(extra: Partial<ExecuteRequest> = {}): ExecuteRequest {
  return { toolName: 'echo', args: { q: 1 }, requestId: `r${++seq}`, deadline: Date.now() + 5000, signal: new AbortController().signal, ...extra };
}

async function running(options: { timings?: Partial<WorkerHostTimings>; memoryLimitMb?: number; script?: (h: FakeHandle) => void } = {}) {
  const launcher = new FakeLauncher();
  if (options.script) launcher.onLaunch = options.script;
  const logs: string[] = [];
  const exits: WorkerExit[] = [];
  const host = new WorkerHost({
    manifest: fakeManifest(),
    extensionPath: '/ext/fake',
    dataPath: '/data/fake',
    granted: ['tools'],
    launcher,
    entry: 'runtime.js',
    timings: { ...T, ...options.timings },
    ...(options.memoryLimitMb ? { memoryLimitMb: options.memoryLimitMb } : {}),
    callbacks: { onLog: (level, source, text) => logs.push(`${source}:${level}: ${text}`), onExit: (exit) => exits.push(exit) },
  });
  host.start();
  await flush();
  return { host, handle: launcher.last, logs, exits, launcher };
}

const codeOf = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error!.code);

describe('calls', () => {
  it('sends one message per call, the chat context inline, and resolves with the answer', async () => {
    const { host, handle } = await running();
    const contextMessages = [{ role: 'user' as const, content: 'Who used the cove?' }];
    const a = call({ contextMessages, args: { q: 1, __userId: 'spoofed' } });
    const b = call({ contextMessages });
    const pa = host.execute(a);
    const pb = host.execute(b);
    const calls = handle.sentOf('tool_invocation');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.payload).toEqual({ toolName: 'echo', args: { q: 1 }, requestId: a.requestId, contextMessages });
    expect(calls[1]!.payload.contextMessages).toEqual(contextMessages);
    handle.say({ type: 'tool_invocation_result', requestId: b.requestId, ok: true, value: 'b' });
    handle.say({ type: 'tool_invocation_result', requestId: a.requestId, ok: true, value: 'a' });
    expect(await pa).toEqual({ ok: true, value: 'a' });
    expect(await pb).toEqual({ ok: true, value: 'b' });
    expect(host.inFlight).toBe(0);
  });

  it('arms one timer per call and clears it when the call ends', async () => {
    const { host, handle } = await running();
    const before = vi.getTimerCount();
    const pending = [call(), call(), call()].map((c) => ({ c, p: host.execute(c) }));
    expect(vi.getTimerCount()).toBe(before + 3);
    for (const { c } of pending) handle.say({ type: 'tool_invocation_result', requestId: c.requestId, ok: true, value: 1 });
    await Promise.all(pending.map(({ p }) => p));
    expect(vi.getTimerCount()).toBe(before);
  });

  it('ends a call with TOOL_TIMEOUT exactly at its deadline, tells the worker and drops the late answer', async () => {
    const { host, handle, logs } = await running();
    const c = call({ deadline: Date.now() + 2500 });
    let result: Awaited<ReturnType<WorkerHost['execute']>> | undefined;
    void host.execute(c).then((r) => (result = r));
    await vi.advanceTimersByTimeAsync(2499);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result && codeOf(result)).toBe('TOOL_TIMEOUT');
    expect(handle.sentOf('cancel')).toEqual([{ type: 'cancel', requestId: c.requestId, reason: 'timeout' }]);
    handle.say({ type: 'tool_invocation_result', requestId: c.requestId, ok: true, value: 'late' });
    expect(logs).toContain(`host:warn: Late result for request ${c.requestId} dropped: the call had already ended (TOOL_TIMEOUT).`);
    expect(host.state).toBe('running');
  });

  it('ends a call with CANCELLED when its AbortSignal fires and tells the worker', async () => {
    const { host, handle } = await running();
    const controller = new AbortController();
    const c = call({ signal: controller.signal });
    const pending = host.execute(c);
    controller.abort();
    expect(codeOf(await pending)).toBe('CANCELLED');
    expect(handle.sentOf('cancel')).toEqual([{ type: 'cancel', requestId: c.requestId, reason: 'cancelled' }]);
  });

  it('refuses what it cannot send: over the frame cap (INPUT_TOO_LARGE) without harming the worker', async () => {
    const { host, handle } = await running();
    handle.maxChars = 1000;
    expect(codeOf(await host.execute(call({ args: { text: 'x'.repeat(2000) } })))).toBe('INPUT_TOO_LARGE');
    expect(host.state).toBe('running');
    const small = call();
    const pending = host.execute(small);
    handle.say({ type: 'tool_invocation_result', requestId: small.requestId, ok: true, value: 'fine' });
    expect(await pending).toEqual({ ok: true, value: 'fine' });
  });
});

describe('a worker that dies', () => {
  it('rejects every call in flight with WORKER_CRASHED at once, long before their deadlines', async () => {
    const { host, handle, exits } = await running();
    const pending = [call({ deadline: Date.now() + 60_000 }), call({ deadline: Date.now() + 60_000 })].map((c) => host.execute(c));
    handle.exit(1);
    for (const result of await Promise.all(pending)) {
      expect(codeOf(result)).toBe('WORKER_CRASHED');
      expect((result as unknown as { error: WorkerExitError }).error.details).toEqual({ reason: 'abnormal-exit', exitCode: 1, signal: null });
    }
    expect(exits).toEqual([{ reason: 'abnormal-exit', exitCode: 1, signal: null, expected: false }]);
    // Whatever it started goes with it.
    expect(handle.killed).toBeGreaterThan(0);
  });

  it('is killed with WORKER_PROTOCOL when its door reports a bad frame; its calls end with the reason', async () => {
    const { host, handle, exits, logs } = await running();
    const pending = host.execute(call());
    handle.violate('wrote a line that is not JSON (Unexpected token h)');
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_PROTOCOL', message: expect.stringContaining('not JSON') } });
    await flush();
    expect(exits[0]).toMatchObject({ reason: 'protocol', expected: false, detail: 'it wrote a line that is not JSON (Unexpected token h)' });
    expect(logs).toContain('host:error: Stopped: the worker wrote a line that is not JSON (Unexpected token h).');
  });

  it('is killed after more than maxMessagesPerSecond unsolicited messages, but answers to calls in flight do not count', async () => {
    const { host, handle, exits, logs } = await running({ timings: { maxMessagesPerSecond: 5 } });
    const calls = Array.from({ length: 20 }, () => call());
    const pending = calls.map((c) => host.execute(c));
    for (const c of calls) handle.say({ type: 'tool_invocation_result', requestId: c.requestId, ok: true, value: 'ok' });
    for (const result of await Promise.all(pending)) expect(result).toEqual({ ok: true, value: 'ok' });
    expect(host.state).toBe('running');
    // `ready` took one of the five places: four lines are logged, the fifth trips the cap.
    for (let i = 0; i < 5; i++) handle.say({ type: 'log', level: 'info', message: `line ${i}` });
    await flush();
    expect(exits[0]).toMatchObject({ reason: 'flood' });
    expect(logs.filter((l) => l.startsWith('worker:info: line'))).toHaveLength(4);
    expect(logs).toContain('host:error: Stopped: the extension sent more than 5 messages within one second.');
  });
});

describe('liveness', () => {
  it('kills a worker whose event loop is blocked: WORKER_UNRESPONSIVE after 3 s of silence while the host runs', async () => {
    const { host, handle, exits } = await running();
    const pending = host.execute(call({ deadline: Date.now() + 60_000 }));
    handle.answersPings = false;
    await vi.advanceTimersByTimeAsync(3000);
    expect(host.state).toBe('running');
    await vi.advanceTimersByTimeAsync(1000);
    expect(codeOf(await pending)).toBe('WORKER_UNRESPONSIVE');
    expect(exits[0]).toMatchObject({ reason: 'unresponsive', signal: 'SIGKILL' });
  });

  it('never kills a healthy worker because the host itself was blocked for seconds', async () => {
    const { host, handle, logs } = await running();
    for (let i = 0; i < 3; i++) {
      // The host's event loop is stuck for 8 s (a long validation): no timer runs, no heartbeat is read.
      handle.answersPings = false;
      vi.setSystemTime(Date.now() + 8000);
      await vi.advanceTimersByTimeAsync(1000);
      // Unblocked: the worker's answer to the next ping comes in as usual.
      handle.answersPings = true;
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(host.state).toBe('running');
    expect(logs.filter((l) => l.includes('Not responding'))).toEqual([]);
  });

  it('still finds a blocked worker while the host lags, counting only the time the host was awake', async () => {
    const { host, handle, logs } = await running();
    handle.answersPings = false;
    vi.setSystemTime(Date.now() + 20_000);
    await vi.advanceTimersByTimeAsync(3000);
    expect(host.state).toBe('running');
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(host.state).toBe('exited');
    expect(logs.find((l) => l.includes('Not responding'))).toMatch(/no heartbeat for 4000 ms \(not counting 20000 ms the host itself was busy\)/);
  });

  it('gives a fresh worker startupTimeoutMs of awake time for its first sign of life', async () => {
    const { host, exits } = await running({ script: (h) => (h.answersPings = false) });
    expect(host.state).toBe('starting');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(host.state).toBe('starting');
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(exits[0]).toMatchObject({ reason: 'unresponsive' });
  });
});

describe('memory', () => {
  it('kills a worker whose resident memory passes the cap with WORKER_MEMORY', async () => {
    const { host, handle, exits, logs } = await running({ memoryLimitMb: 256 });
    const pending = host.execute(call({ deadline: Date.now() + 60_000 }));
    handle.rss = 200 * 1024 * 1024;
    await vi.advanceTimersByTimeAsync(1000);
    expect(host.state).toBe('running');
    handle.rss = 300 * 1024 * 1024;
    await vi.advanceTimersByTimeAsync(1000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'WORKER_MEMORY', message: expect.stringContaining('300 MB resident, the limit is 256 MB') } });
    await flush();
    expect(exits[0]).toMatchObject({ reason: 'memory', expected: false });
    expect(logs).toContain('host:error: Stopped: 300 MB resident, the limit is 256 MB.');
  });

  it('falls back to the figure the worker reports where the OS cannot be asked', async () => {
    const { host, handle, exits } = await running({ memoryLimitMb: 256 });
    handle.rss = null;
    handle.answersPings = false;
    handle.say({ type: 'heartbeat', rss: 512 * 1024 * 1024 });
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(host.state).toBe('exited');
    expect(exits[0]).toMatchObject({ reason: 'memory' });
  });
});

describe('stop', () => {
  it('ends calls at once, asks the worker to shut down and kills it after the grace period', async () => {
    const { host, handle } = await running();
    handle.obeysShutdown = false;
    const pending = host.execute(call());
    const exited = host.stop({ code: 'HOST_SHUTDOWN', message: 'bye' });
    expect(await pending).toEqual({ ok: false, error: { code: 'HOST_SHUTDOWN', message: 'bye' } });
    expect(handle.sentOf('shutdown')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(handle.killed).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await exited).toEqual({ reason: 'killed', exitCode: null, signal: 'SIGKILL', expected: true });
  });
});
