// WorkerHost policy on a fake channel and fake time: deadlines, cancellation, results, liveness, floods, memory, protocol, exits.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { MAX_RESULT_BYTES } from '../../../shared/protocol';
import { HOST_TO_WORKER } from '../../../shared/protocol/worker-schemas';
import type { WorkerExitError } from '../../../electron/core/extensions/workers/worker-host';
import { call, fakeWorker, settle } from './fake-worker';

describe('calls', () => {
  it('sends one tool_invocation per call, strips identity args, and resolves with the worker answer', async () => {
    const w = fakeWorker();
    const request = call(w.clock, 'lookup', { args: { q: 'x', __userId: 'u1', __user_id: 'u2', userId: 'u3' }, contextMessages: [{ role: 'user', content: 'hi' }] });
    const pending = w.host.execute(request);
    const [sent] = w.handle.of('tool_invocation');
    expect(sent!.payload).toEqual({ toolName: 'lookup', args: { q: 'x' }, requestId: request.requestId, contextMessages: [{ role: 'user', content: 'hi' }] });
    w.handle.say({ type: 'tool_invocation_result', requestId: request.requestId, ok: true, text: 'found' });
    expect(await pending).toEqual({ ok: true, value: 'found' });
  });

  it("sends a council cycle's chat context to a worker once: later calls with the same context refer to it by number", () => {
    const w = fakeWorker();
    const chat = [{ role: 'user' as const, content: 'Who used the cove?' }];
    const flat = 'user: Who used the cove?';
    const send = (contextMessages: typeof chat, context = flat) => void w.host.execute(call(w.clock, 'lookup', { args: { context, q: 1 }, contextMessages }));
    send(chat);
    send(chat);
    send(chat, 'another flattening');
    const other = [...chat];
    send(other);
    send(other);
    const sent = w.handle.of('tool_invocation');
    expect(sent.map((m) => [m.context, m.payload.contextMessages === undefined ? 'by number' : 'inline', m.payload.args.context])).toEqual([
      [1, 'inline', flat],
      [1, 'by number', null],
      [2, 'inline', 'another flattening'],
      [3, 'inline', flat],
      [3, 'by number', null],
    ]);
    expect(sent[1]!.payload.args).toEqual({ context: null, q: 1 });
    // A call without a chat context carries none.
    void w.host.execute(call(w.clock, 'lookup'));
    expect(w.handle.of('tool_invocation').at(-1)).not.toHaveProperty('context');
  });

  it('A8, W13: refuses what it cannot run without sending it: no tools permission, a used id, over the in-flight cap, already cancelled or past its deadline', async () => {
    const w = fakeWorker({ timings: { maxInFlight: 1 } });
    const first = call(w.clock);
    void w.host.execute(first);
    expect(await w.host.execute({ ...call(w.clock), requestId: first.requestId })).toMatchObject({ ok: false, error: { code: 'DUPLICATE_CALL_ID' } });
    expect(await w.host.execute(call(w.clock))).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE' } });
    const aborted = new AbortController();
    aborted.abort();
    expect(await w.host.execute(call(w.clock, 't', { signal: aborted.signal }))).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(await w.host.execute(call(w.clock, 't', { deadline: w.clock.now() - 1 }))).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    w.host.setGranted([]);
    expect(await w.host.execute(call(w.clock))).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(w.handle.of('tool_invocation')).toHaveLength(1);
  });

  it("logs one line per call in the extension's log: the tool, ok or the error code, and the time it took (never its arguments or result)", async () => {
    const w = fakeWorker();
    const first = call(w.clock, 'lookup', { args: { q: 'secret-ish' } });
    const pending = w.host.execute(first);
    w.clock.advance(12);
    w.handle.say({ type: 'tool_invocation_result', requestId: first.requestId, ok: true, text: 'found it' });
    await pending;
    const slow = call(w.clock, 'slow', { deadline: w.clock.now() + 500 });
    const timing = w.host.execute(slow);
    w.clock.advance(500);
    await timing;
    w.host.setGranted([]);
    await w.host.execute(call(w.clock, 'refused'));
    const lines = w.logs.filter((l) => /: (call|simulate) /.test(l));
    expect(lines).toEqual(['host:info: call lookup: ok, 12 ms', 'host:warn: call slow: TOOL_TIMEOUT, 500 ms', 'host:warn: call refused: PERMISSION_DENIED, 0 ms']);
    expect(w.logs.join('\n')).not.toContain('secret-ish');
    expect(w.logs.join('\n')).not.toContain('found it');
  });

  it('W1: ends a call at its deadline with TOOL_TIMEOUT, tells the worker to cancel, and drops the late answer with a log line', async () => {
    const w = fakeWorker();
    const request = call(w.clock, 'slow', { deadline: w.clock.now() + 2000 });
    const pending = w.host.execute(request);
    w.clock.advance(1999);
    w.handle.say({ type: 'heartbeat' });
    w.clock.advance(1);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    expect(w.handle.of('cancel')).toEqual([{ type: 'cancel', requestId: request.requestId, reason: 'timeout' }]);
    w.handle.say({ type: 'tool_invocation_result', requestId: request.requestId, ok: true, text: 'late' });
    expect(w.logs.some((l) => l.includes(`Late result for request ${request.requestId}`) && l.includes('TOOL_TIMEOUT'))).toBe(true);
    expect(w.host.state).toBe('running');
  });

  it('one timer per call: a call that ends clears its own timer', () => {
    const w = fakeWorker();
    const before = w.clock.pendingTimers;
    const request = call(w.clock);
    void w.host.execute(request);
    expect(w.clock.pendingTimers).toBe(before + 1);
    w.handle.say({ type: 'tool_invocation_result', requestId: request.requestId, ok: true, text: '1' });
    expect(w.clock.pendingTimers).toBe(before);
  });

  it('ends a call with CANCELLED when the caller aborts, and tells the worker', async () => {
    const w = fakeWorker();
    const controller = new AbortController();
    const request = call(w.clock, 't', { signal: controller.signal });
    const pending = w.host.execute(request);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(w.handle.of('cancel')).toEqual([{ type: 'cancel', requestId: request.requestId, reason: 'cancelled' }]);
  });

  it('W6: re-checks the result size on the host, and drops a result for an id it never sent', async () => {
    const w = fakeWorker();
    const request = call(w.clock, 'big');
    const pending = w.host.execute(request);
    w.handle.say({ type: 'tool_invocation_result', requestId: 'never-sent', ok: true, text: 'x' });
    expect(w.logs.some((l) => l.includes('Result for unknown request never-sent dropped'))).toBe(true);
    w.handle.say({ type: 'tool_invocation_result', requestId: request.requestId, ok: true, text: 'y'.repeat(MAX_RESULT_BYTES + 1) });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'RESULT_TOO_LARGE' } });
  });

  it('passes a worker error through, its code normalised', async () => {
    const w = fakeWorker();
    const request = call(w.clock);
    const pending = w.host.execute(request);
    w.handle.say({ type: 'tool_invocation_result', requestId: request.requestId, ok: false, error: { code: 'not a code', message: 'boom', hint: 'try again' } });
    expect(await pending).toEqual({ ok: false, error: { code: 'TOOL_ERROR', message: 'boom', hint: 'try again' } });
  });
});

describe('liveness', () => {
  it('W2: kills a worker that stops answering pings: WORKER_UNRESPONSIVE for its calls, at once', async () => {
    const w = fakeWorker();
    const pending = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    w.clock.advance(3000);
    expect(w.host.state).toBe('running');
    w.clock.advance(1000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'WORKER_UNRESPONSIVE' } });
    expect(w.handle.killed).toBe(true);
    expect((await w.host.whenExited()).reason).toBe('unresponsive');
  });

  it('a host blocked for 5 s does not kill a worker whose heartbeats were waiting in the pipe', async () => {
    const w = fakeWorker();
    w.clock.advance(1000);
    w.handle.say({ type: 'heartbeat' });
    // The host's thread is busy for 5 s (say, validating a large value): no timer fires meanwhile.
    w.clock.block(5000);
    w.clock.advance(0);
    // Its first tick after the block ran late; the worker is not judged on it.
    expect(w.host.state).toBe('running');
    // The heartbeat the worker sent during the block is read now.
    w.handle.say({ type: 'heartbeat' });
    w.clock.advance(2000);
    w.handle.say({ type: 'heartbeat' });
    w.clock.advance(2000);
    expect(w.host.state).toBe('running');
    expect(w.handle.killed).toBe(false);
  });

  it('gives a starting worker the startup timeout, not the short one', () => {
    const w = fakeWorker({ ready: false });
    w.clock.advance(9000);
    expect(w.host.state).toBe('starting');
    w.clock.advance(2000);
    expect(w.handle.killed).toBe(true);
  });

  it('kills a worker that floods messages, but answers to calls in flight do not count', async () => {
    const w = fakeWorker({ timings: { maxMessagesPerSecond: 5 } });
    const requests = Array.from({ length: 20 }, () => call(w.clock));
    const pending = requests.map((r) => w.host.execute(r));
    for (const r of requests) w.handle.say({ type: 'tool_invocation_result', requestId: r.requestId, ok: true, text: 'ok' });
    for (const result of await Promise.all(pending)) expect(result).toEqual({ ok: true, value: 'ok' });
    expect(w.host.state).toBe('running');
    for (let i = 0; i < 5; i++) w.handle.say({ type: 'log', level: 'info', message: `line ${i}` });
    expect(w.handle.killed).toBe(true);
    expect((await w.host.whenExited()).reason).toBe('flood');
  });
});

describe('memory cap', () => {
  it('kills a worker over its resident memory cap with WORKER_MEMORY', async () => {
    const w = fakeWorker({ timings: { memoryCapBytes: 100 * 1024 * 1024 } });
    const pending = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    w.handle.resident = 90 * 1024 * 1024;
    for (let i = 0; i < 4; i++) {
      w.clock.advance(1000);
      w.handle.say({ type: 'heartbeat' });
    }
    expect(w.host.state).toBe('running');
    w.handle.resident = 300 * 1024 * 1024;
    w.clock.advance(2000);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_MEMORY', message: expect.stringContaining('300 MB over the 100 MB cap') } });
    const exit = await w.host.whenExited();
    expect(exit).toMatchObject({ reason: 'memory', expected: false });
  });
});

describe('protocol violations and exits', () => {
  it('a bad frame ends that worker with WORKER_PROTOCOL and its calls at once; the host goes on', async () => {
    const w = fakeWorker();
    const pending = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    w.handle.breakProtocol('it wrote a line that is not JSON (Unexpected token)');
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_PROTOCOL' } });
    expect((result as unknown as { error: WorkerExitError }).error.message).toContain('not JSON');
    await settle();
    expect(await w.host.whenExited()).toMatchObject({ reason: 'protocol', detail: expect.stringContaining('not JSON') });
    expect(w.logs.some((l) => l.includes('broke the protocol'))).toBe(true);
  });

  it('W3: a worker that dies mid-call rejects its calls WORKER_CRASHED at once, naming the error it died of', async () => {
    const w = fakeWorker();
    const pending = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    w.handle.say({ type: 'log', level: 'error', message: 'Unhandled:\nTypeError: Cannot read properties of undefined (reading \'x\')\n    at handler (index.js:3:5)' });
    w.handle.exit(1, null);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect((result as unknown as { error: WorkerExitError }).error.message).toContain("TypeError: Cannot read properties of undefined (reading 'x')");
    expect(await w.host.whenExited()).toMatchObject({ reason: 'abnormal-exit', exitCode: 1, crashLine: "TypeError: Cannot read properties of undefined (reading 'x')" });
  });

  it('stop() ends pending calls at once, sends shutdown and kills after the grace period', async () => {
    const w = fakeWorker();
    const pending = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    const stopped = w.host.stop();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE' } });
    expect(w.handle.of('shutdown')).toHaveLength(1);
    w.clock.advance(499);
    expect(w.handle.killed).toBe(false);
    w.clock.advance(1);
    expect(w.handle.killed).toBe(true);
    expect(await stopped).toMatchObject({ expected: true });
  });
});

describe('host requests', () => {
  it('hands spindle.* calls to the host and sends its answer back by id, a stream\'s chunks first', async () => {
    const requests: string[] = [];
    const w = fakeWorker({
      callbacks: {
        onRequest: async (method, params, call) => {
          requests.push(`${method} ${JSON.stringify(params)}`);
          call.emit('piece');
          return { ok: true, value: 'content' };
        },
      },
    });
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 1, method: 'storage.read', input: { path: 'a.txt' } } });
    await settle();
    expect(requests).toEqual(['storage.read {"path":"a.txt"}']);
    expect(w.handle.of('rpc').map((m) => m.message)).toEqual([
      { kind: 'chunk', id: 1, chunk: 'piece' },
      { kind: 'result', id: 1, result: { ok: true, value: 'content' } },
    ]);
  });

  it('a worker\'s cancel aborts its call; a worker that exits aborts every call still running', async () => {
    const signals: AbortSignal[] = [];
    const w = fakeWorker({ callbacks: { onRequest: (_method, _params, call) => (signals.push(call.signal), new Promise(() => undefined)) } });
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 1, method: 'generate.quiet', input: {} } });
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 2, method: 'generate.quiet', input: {} } });
    w.handle.say({ type: 'rpc', message: { kind: 'cancel', id: 1 } });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    w.handle.exit(1, null);
    await settle();
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it('a call the host does not handle is answered UNSUPPORTED_HERE; a message that is no call is answered as a link error', async () => {
    const w = fakeWorker();
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 2, method: 'oauth.begin', input: {} } });
    await settle();
    expect(w.handle.of('rpc').map((m) => m.message)).toEqual([{ kind: 'result', id: 2, result: { ok: false, error: expect.objectContaining({ code: 'UNSUPPORTED_HERE' }) } }]);
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 'x', method: 'storage.read' } });
    expect(w.handle.of('rpc').at(-1)!.message).toMatchObject({ kind: 'error', error: { code: 'INVALID_INPUT' } });
    w.handle.say({ type: 'rpc', message: {}, extra: 1 });
    expect(w.logs.some((l) => l.includes('Ignored a malformed message from the worker: rpc'))).toBe(true);
  });
});

describe('the messages the host sends', () => {
  it('each matches its declared schema (shared/protocol/worker-schemas.ts), for every type the host sends', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-sent-'));
    onTestFinished(() => fs.rmSync(folder, { recursive: true, force: true }));
    fs.mkdirSync(path.join(folder, 'dist'));
    fs.writeFileSync(path.join(folder, 'dist', 'child.js'), 'export default (p) => p.ready();');
    const w = fakeWorker({ extensionPath: folder });
    // A managed backend process: what its child is told, and the worker's news of it.
    const spawned = w.host.processes.spawn({ options: { entry: 'dist/child.js', payload: { n: 1 } }, has: { payload: true, metadata: false } });
    const child = w.launcher.last;
    child.say({ type: 'child_signal', signal: 'ready' });
    const { processId } = await spawned;
    w.host.processes.send(processId, { hello: 1 });
    child.say({ type: 'child_message', payload: { back: 1 } });
    w.host.processes.stop(processId, 'done');
    const request = call(w.clock, 'lookup', { contextMessages: [{ role: 'user', content: 'hi' }] });
    void w.host.execute(request);
    void w.host.simulate(call(w.clock, 'lookup'));
    void w.host.callPipeline({ requestId: 'pipe-1', kind: 'interceptor', id: 'i1', args: [[]], label: 'interceptor', deadline: w.clock.now() + 5000, signal: new AbortController().signal });
    w.host.setGranted(['tools', 'generation']);
    w.host.denyPermission('generation', 'spindle.generate.quiet');
    w.host.reportError('registerTool', { code: 'INVALID_INPUT', message: 'bad', path: '/name' });
    w.handle.say({ type: 'rpc', message: { kind: 'invoke', id: 1, method: 'runtime.inert', input: {} } });
    w.host.sendFrontendMessage({ hello: 1 });
    w.host.sendCommand('open', { route: '/chat/c', chatId: 'c', characterId: 'c', isGroupChat: false });
    w.host.sendEvent('MESSAGE_SENT', { chatId: 'c' });
    w.clock.advance(1000); // a heartbeat ping
    w.host.rejectInFlight({ code: 'TOOL_UNAVAILABLE', message: 'stopping' }, 'cancelled');
    void w.host.stop();
    await settle();
    const sent = w.launcher.handles.flatMap((handle) => handle.sent);
    const types = new Set(sent.map((m) => m.type));
    expect([...types].sort()).toEqual(Object.keys(HOST_TO_WORKER).sort());
    for (const message of sent) expect(Value.Check(HOST_TO_WORKER[message.type], message), JSON.stringify(message)).toBe(true);
  });
});
