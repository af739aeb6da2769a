// WorkerHost against real worker processes started through the Node launcher.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BATCH_ITEMS, MAX_RESULT_BYTES } from '../../../shared/protocol';
import type { CouncilMemberContext, ExtensionManifest } from '../../../shared/types/spindle';
import { minimalWorkerEnv, NodeLauncher, type WorkerHandle } from '../../../electron/core/extensions/launcher';
import { WorkerHost, type WorkerExitError, type WorkerHostTimings } from '../../../electron/core/extensions/worker-host';
import { fixture, request, RUNTIME, startWorker, stopAllWorkers, tempDir, waitFor } from './harness';

const member: CouncilMemberContext = {
  memberId: 'm1',
  itemId: 'i1',
  packId: 'p1',
  packName: 'Harbour Pack',
  name: 'Mira',
  role: 'Archivist',
  chance: 100,
  avatarUrl: null,
  definition: 'Keeps the town records.',
  personality: 'Precise',
  behavior: 'Quotes sources',
  genderIdentity: 0,
};

afterEach(stopAllWorkers);

describe('seed 000 contract', () => {
  it('runs the seed example unchanged: it registers and answers with and without a council member', async () => {
    const w = startWorker(fixture('seed-example'));
    await w.ready;
    expect(w.registered).toEqual([
      {
        name: 'search_knowledge_base',
        display_name: 'Search Knowledge Base',
        description: 'Searches the extension knowledge base for relevant information',
        parameters: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Search query' },
            limit: { type: 'number', description: 'Max results', default: 5 },
          },
          required: ['query'],
        },
        council_eligible: true,
      },
    ]);

    const plain = await w.host.execute(request('search_knowledge_base', { query: 'lighthouse', limit: 2 }));
    expect(plain).toEqual({
      ok: true,
      value: "The lighthouse keeper vanished during the storm of 1887.\nThe lighthouse lamp was last lit by the keeper's daughter.",
    });

    const voiced = await w.host.execute(
      request('search_knowledge_base', { query: 'smugglers', context: 'chat so far' }, {
        councilMember: member,
        contextMessages: [
          { role: 'user', content: 'Who used the cove?' },
          { role: 'assistant', content: 'Let me check.' },
        ],
      }),
    );
    expect(voiced).toEqual({ ok: true, value: 'Mira (Archivist) reports:\nSmugglers used the lighthouse cove at low tide.' });

    const noRole = await w.host.execute(request('search_knowledge_base', { query: 'storm' }, { councilMember: { ...member, role: '' } }));
    expect(noRole).toEqual({ ok: true, value: 'Mira (analyst) reports:\nThe lighthouse keeper vanished during the storm of 1887.' });

    expect(await w.host.execute(request('something_else'))).toEqual({ ok: true, value: 'Unknown tool' });
  });

  it('answers a simulation with the placeholder when the extension has no TOOL_SIMULATION handler', async () => {
    const w = startWorker(fixture('seed-example'));
    await w.ready;
    expect(await w.host.simulate(request('search_knowledge_base', { query: 'x' }))).toEqual({
      ok: true,
      value: { ok: true, simulated: true, unvalidated: true },
    });
  });

  it('holds a call that arrives while main is still loading until it has loaded', async () => {
    const w = startWorker(fixture('slow-load'));
    await waitFor(() => w.registered.length === 1, 'the registration');
    expect(w.host.state).toBe('starting');
    expect(await w.host.execute(request('early'))).toEqual({ ok: true, value: 'answered after loading' });
  });

  it('loads a CommonJS extension', async () => {
    const w = startWorker(fixture('commonjs-tool'));
    await w.ready;
    expect(w.registered.map((t) => t.name)).toEqual(['cjs_echo']);
    expect(await w.host.execute(request('cjs_echo', { text: 'hi' }))).toEqual({ ok: true, value: 'cjs:hi:index.js' });
  });
});

describe('errors', () => {
  it('passes a thrown {code, hint} through as a structured error; other throws become TOOL_ERROR', async () => {
    const w = startWorker(fixture('structured-error'));
    await w.ready;
    expect(await w.host.execute(request('fail'))).toEqual({
      ok: false,
      error: { code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait for the next write window or use a different store.' },
    });
    expect(await w.host.execute(request('fail', { kind: 'plain' }))).toEqual({ ok: false, error: { code: 'TOOL_ERROR', message: 'plain failure' } });
    expect(await w.host.execute(request('fail', { kind: 'string' }))).toEqual({ ok: false, error: { code: 'TOOL_ERROR', message: 'a thrown string' } });
  });
});

describe('refusals', () => {
  it('refuses calls it cannot run without sending them to the worker', async () => {
    const w = startWorker(fixture('never-answers'));
    await w.ready;
    const code = async (call: ReturnType<typeof request>) => {
      const result = await w.host.execute(call);
      return result.ok ? 'ok' : result.error.code;
    };
    const aborted = new AbortController();
    aborted.abort();
    expect(await code(request('wait_forever', {}, { signal: aborted.signal }))).toBe('CANCELLED');
    expect(await code(request('wait_forever', {}, { deadline: Date.now() - 1 }))).toBe('TOOL_TIMEOUT');
    expect(await code(request('wait_forever', {}, { requestId: 'has space' }))).toBe('INVALID_INPUT');
    const first = request('wait_forever', {}, { deadline: Date.now() + 30_000 });
    void w.host.execute(first);
    expect(await code({ ...first })).toBe('CONFLICT');
    w.host.setGranted([]);
    expect(await code(request('wait_forever'))).toBe('PERMISSION_DENIED');
    // Only the one accepted call reached the handler.
    expect(w.host.inFlight).toBe(1);
  });
});

describe('deadlines and cancellation', () => {
  it('resolves TOOL_TIMEOUT at the deadline, aborts the handler signal and keeps the worker serving', async () => {
    const w = startWorker(fixture('never-answers'));
    await w.ready;
    const call = request('wait_forever', {}, { deadline: Date.now() + 300 });
    const result = await w.host.execute(call);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('TOOL_TIMEOUT');
    await waitFor(() => w.logs.includes(`worker:info: aborted ${call.requestId} TimeoutError`), 'the handler to see its signal aborted');
    expect(w.host.state).toBe('running');
    expect(w.host.inFlight).toBe(0);
  });

  it('drops and logs a result that arrives after the deadline', async () => {
    const w = startWorker(fixture('slow-answer'));
    await w.ready;
    const late = request('slow', { delayMs: 500 }, { deadline: Date.now() + 150 });
    const result = await w.host.execute(late);
    expect(!result.ok && result.error.code).toBe('TOOL_TIMEOUT');
    await waitFor(
      () => w.logs.some((l) => l.includes(`Late result for request ${late.requestId} dropped`) && l.includes('TOOL_TIMEOUT')),
      'the late result to be logged',
    );
    expect(await w.host.execute(request('slow', { delayMs: 0 }))).toEqual({ ok: true, value: expect.stringContaining('slow answer') });
  });

  it('resolves CANCELLED when the caller aborts and aborts the handler signal', async () => {
    const w = startWorker(fixture('never-answers'));
    await w.ready;
    const controller = new AbortController();
    const call = request('wait_forever', {}, { signal: controller.signal, deadline: Date.now() + 30_000 });
    const pending = w.host.execute(call);
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(!result.ok && result.error.code).toBe('CANCELLED');
    await waitFor(() => w.logs.includes(`worker:info: aborted ${call.requestId} AbortError`), 'the handler abort');
  });
});

describe('worker faults', () => {
  it('rejects every in-flight call with WORKER_CRASHED as soon as the worker dies, long before the deadline', { timeout: 5000 }, async () => {
    const w = startWorker(fixture('crash-mid-call'));
    await w.ready;
    const deadline = Date.now() + 30_000;
    const calls = [
      w.host.execute(request('crash', { afterMs: 60_000 }, { deadline })),
      w.host.execute(request('crash', { afterMs: 60_000 }, { deadline })),
      w.host.execute(request('crash', { afterMs: 100 }, { deadline })),
    ];
    const results = await Promise.all(calls);
    for (const result of results) {
      expect(result.ok).toBe(false);
      const error = (result as unknown as { error: WorkerExitError }).error;
      expect(error.code).toBe('WORKER_CRASHED');
      expect(error.details).toEqual({ reason: 'abnormal-exit', exitCode: 1, signal: null });
    }
    expect(await w.exit).toEqual({ reason: 'abnormal-exit', exitCode: 1, signal: null, expected: false });
    await waitFor(() => w.logs.some((l) => l.startsWith('stderr:') && l.includes('boom in the middle of a call')), 'the stack trace on stderr');
    // A call after the death never reaches the dead process.
    const after = await w.host.execute(request('ok'));
    expect(!after.ok && after.error.code).toBe('TOOL_UNAVAILABLE');
  });

  it('reports the exit code of a process.exit mid-call', { timeout: 5000 }, async () => {
    const w = startWorker(fixture('crash-mid-call'));
    await w.ready;
    const result = await w.host.execute(request('crash', { how: 'exit', afterMs: 50 }, { deadline: Date.now() + 30_000 }));
    expect((result as unknown as { error: WorkerExitError }).error.details).toEqual({ reason: 'abnormal-exit', exitCode: 3, signal: null });
  });

  it('detects a blocked event loop: WORKER_UNRESPONSIVE, and the process is killed', { timeout: 10_000 }, async () => {
    const w = startWorker(fixture('busy-loop'));
    await w.ready;
    const result = await w.host.execute(request('spin', {}, { deadline: Date.now() + 30_000 }));
    expect(!result.ok && result.error.code).toBe('WORKER_UNRESPONSIVE');
    const exit = await w.exit;
    expect(exit.reason).toBe('unresponsive');
    expect(exit.signal).toBe('SIGKILL');
    expect(w.logs.some((l) => l.startsWith('host:error: Not responding'))).toBe(true);
  });

  it('kills a worker that floods 200,000 messages while the host keeps running timers and serving another extension', { timeout: 15_000 }, async () => {
    const flood = startWorker(fixture('flood'));
    const other = startWorker(fixture('seed-example'));
    await Promise.all([flood.ready, other.ready]);
    let ticks = 0;
    const probe = setInterval(() => ticks++, 5);
    try {
      const flooding = flood.host.execute(request('flood', {}, { deadline: Date.now() + 30_000 }));
      await waitFor(() => flood.logs.some((l) => l.includes('flood 1')), 'the flood to start');
      const ticksAtStart = ticks;
      const answer = await other.host.execute(request('search_knowledge_base', { query: 'cove' }));
      expect(answer).toEqual({ ok: true, value: 'Smugglers used the lighthouse cove at low tide.' });
      const result = await flooding;
      expect(!result.ok && result.error.code).toBe('WORKER_CRASHED');
      expect((await flood.exit).reason).toBe('flood');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ticks).toBeGreaterThan(ticksAtStart);
    } finally {
      clearInterval(probe);
    }
    expect(flood.logs.some((l) => l.includes('more than 2000 messages within one second'))).toBe(true);
    // Only what arrived before the cap tripped was processed (about one second's worth), not 200,000.
    expect(flood.logs.filter((l) => l.includes(': flood ')).length).toBeLessThan(20_000);
    expect(other.host.state).toBe('running');
  });

  it('refuses a 2 MB result in the worker with RESULT_TOO_LARGE', async () => {
    const w = startWorker(fixture('big-result'));
    await w.ready;
    const result = await w.host.execute(request('big'));
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'RESULT_TOO_LARGE',
        message: `The tool result is ${2 * 1024 * 1024} bytes; the limit is ${MAX_RESULT_BYTES} bytes.`,
        hint: 'Return a summary or a smaller page of results.',
      },
    });
    expect(w.host.state).toBe('running');
  });

  it('re-checks the size on the host when extension code bypasses the runtime', async () => {
    const w = startWorker(fixture('rogue-results'));
    await w.ready;
    const result = await w.host.execute(request('rogue', { mode: 'oversized' }));
    expect(!result.ok && result.error.code).toBe('RESULT_TOO_LARGE');
    expect(w.logs.some((l) => l.startsWith('host:warn: rogue returned 2097152 bytes'))).toBe(true);
  });

  it('drops and logs a result for an unknown request id; the real answer still arrives', async () => {
    const w = startWorker(fixture('rogue-results'));
    await w.ready;
    expect(await w.host.execute(request('rogue', { mode: 'unknown-id' }))).toEqual({ ok: true, value: 'real answer' });
    await waitFor(() => w.logs.includes('host:warn: Result for unknown request no-such-request-42 dropped.'), 'the drop to be logged');
  });

  it('stop() ends pending calls at once and the worker exits on shutdown', async () => {
    const w = startWorker(fixture('never-answers'));
    await w.ready;
    const pending = w.host.execute(request('wait_forever', {}, { deadline: Date.now() + 30_000 }));
    const exit = w.host.stop({ code: 'HOST_SHUTDOWN', message: 'bye' });
    expect(await pending).toEqual({ ok: false, error: { code: 'HOST_SHUTDOWN', message: 'bye' } });
    expect(await exit).toEqual({ reason: 'clean-exit', exitCode: 0, signal: null, expected: true });
  });
});

describe('isolation', () => {
  it('gives the worker no parent environment variables and strips identity args', async () => {
    process.env.CANARY_API_KEY = 'sk-canary-should-not-leak';
    process.env.CANARY_PLAIN = 'plain-canary';
    try {
      const w = startWorker(fixture('env-report'));
      await w.ready;
      const result = await w.host.execute(request('env', { q: 1, __userId: 'u1', __user_id: 'u2', userId: 'u3' }));
      expect(result.ok).toBe(true);
      const value = (result as { value: { env: Record<string, string>; cwd: string; dataDir: string; payload: { args: unknown } } }).value;
      expect(Object.keys(value.env).sort()).toEqual(['NODE_ENV', 'SPINDLE_EXTENSION_ID']);
      expect(value.env.SPINDLE_EXTENSION_ID).toBe('env-report');
      expect(JSON.stringify(value.env)).not.toContain('canary');
      expect(value.cwd).toBe(fixture('env-report'));
      expect(value.dataDir).toBe(w.dataPath);
      expect(value.payload.args).toEqual({ q: 1 });
    } finally {
      delete process.env.CANARY_API_KEY;
      delete process.env.CANARY_PLAIN;
    }
  });

  it('filters secret-looking names even when a caller passes them', () => {
    const env = minimalWorkerEnv({ OPENAI_API_KEY: 'x', GITHUB_TOKEN: 'y', MY_SECRET: 'z', DB_PASSWORD: 'w', LANG: 'C' }, { PATH: '/bin', HOME: '/h' });
    expect(env).toEqual({ NODE_ENV: 'production', LANG: 'C' });
  });

  it('a send to a dead worker returns false instead of throwing ERR_IPC_CHANNEL_CLOSED', async () => {
    const handle = new NodeLauncher().launch({ id: 'dead', entry: RUNTIME, env: {}, cwd: tempDir('dead') });
    const exited = new Promise<[number | null, string | null]>((resolve) => handle.onExit((code, signal) => resolve([code, signal])));
    handle.kill();
    expect(await exited).toEqual([null, 'SIGKILL']);
    expect(handle.send({ type: 'ping', seq: 1 })).toBe(false);
    handle.kill();
  });

  it('reports a launch failure as an exit instead of throwing', async () => {
    const handle = new NodeLauncher().launch({ id: 'nowhere', entry: RUNTIME, env: {}, cwd: path.join(tempDir('gone'), 'missing') });
    const exit = await new Promise<[number | null, string | null]>((resolve) => handle.onExit((code, signal) => resolve([code, signal])));
    expect(exit).toEqual([null, null]);
    expect(handle.send({ type: 'ping', seq: 1 })).toBe(false);
  });

  it("a handler's second argument has one AbortSignal and no named members", async () => {
    const w = startWorker(fixture('context-echo'));
    await w.ready;
    const result = await w.host.execute(request('echo', {}));
    expect(result.ok).toBe(true);
    expect((result as { value: { handlerContext: unknown } }).value.handlerContext).toEqual({
      ownNames: [],
      signalIsAbortSignal: true,
      sameSignal: true,
      aborted: false,
      abort: 'undefined',
    });
  });
});

describe('batching and the flood cap', () => {
  /** A WorkerHost on a fake channel: the test plays the worker. */
  function fakeWorker(timings: Partial<WorkerHostTimings> = {}) {
    const sent: unknown[] = [];
    const logs: string[] = [];
    let deliver: (message: unknown) => void = () => {};
    let exit: (code: number | null, signal: string | null) => void = () => {};
    const handle: WorkerHandle = {
      pid: 1,
      stdout: null,
      stderr: null,
      send: (message) => (sent.push(message), true),
      onMessage: (listener) => (deliver = listener),
      onExit: (listener) => (exit = listener),
      kill: () => queueMicrotask(() => exit(null, 'SIGKILL')),
    };
    const host = new WorkerHost({
      manifest: { id: 'fake', name: 'Fake', version: '1.0.0', description: '', main: 'index.js', permissions: ['tools'] } as ExtensionManifest,
      extensionPath: '/nowhere',
      dataPath: '/nowhere',
      granted: ['tools'],
      launcher: { launch: () => handle },
      entry: 'runtime.js',
      timings: { heartbeatIntervalMs: 60_000, ...timings },
      callbacks: { onLog: (level, source, text) => logs.push(`${source}:${level}: ${text}`) },
    });
    host.start();
    deliver({ type: 'ready' });
    return { host, sent, logs, deliver: (message: unknown) => deliver(message) };
  }

  const tick = () => new Promise((resolve) => process.nextTick(resolve));

  it('sends the first call of a tick at once and the others made in the same tick as one batch write', async () => {
    const w = fakeWorker();
    await tick();
    w.sent.length = 0;
    const calls = [request('a'), request('b'), request('c')];
    for (const call of calls) void w.host.execute(call);
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]).toMatchObject({ type: 'tool_invocation', payload: { requestId: calls[0]!.requestId } });
    await tick();
    expect(w.sent).toHaveLength(2);
    const batch = w.sent[1] as { type: string; messages: Array<{ type: string; payload: { requestId: string } }> };
    expect(batch.type).toBe('batch');
    expect(batch.messages.map((m) => [m.type, m.payload.requestId])).toEqual(calls.slice(1).map((c) => ['tool_invocation', c.requestId]));
    await w.host.stop();
  });

  it('handles each item of a worker batch as if it came alone; a nested or oversized batch is refused', async () => {
    const w = fakeWorker();
    const call = request('a');
    const pending = w.host.execute(call);
    w.deliver({
      type: 'batch',
      messages: [
        { type: 'log', level: 'info', message: 'from a batch' },
        { type: 'batch', messages: [{ type: 'log', level: 'info', message: 'nested' }] },
        { type: 'tool_invocation_result', requestId: call.requestId, ok: true, value: 'batched answer' },
      ],
    });
    expect(await pending).toEqual({ ok: true, value: 'batched answer' });
    expect(w.logs).toContain('worker:info: from a batch');
    expect(w.logs.some((l) => l.includes('nested'))).toBe(false);
    expect(w.logs.some((l) => l.includes('malformed message') && l.includes('"batch"'))).toBe(true);
    w.deliver({ type: 'batch', messages: Array.from({ length: MAX_BATCH_ITEMS + 1 }, () => ({ type: 'log', level: 'info', message: 'too many' })) });
    expect(w.logs.some((l) => l.includes('too many'))).toBe(false);
    expect(w.logs.some((l) => l.includes(`a batch of ${MAX_BATCH_ITEMS + 1} messages`))).toBe(true);
    expect(w.host.state).toBe('running');
    await w.host.stop();
  });

  it('counts every unsolicited item of a batch towards the flood cap, but not answers to calls in flight', async () => {
    const w = fakeWorker({ maxMessagesPerSecond: 5 });
    const calls = Array.from({ length: 20 }, (_, i) => request(`t${i}`));
    const pending = calls.map((call) => w.host.execute(call));
    w.deliver({ type: 'batch', messages: calls.map((c) => ({ type: 'tool_invocation_result', requestId: c.requestId, ok: true, value: 'ok' })) });
    for (const result of await Promise.all(pending)) expect(result).toEqual({ ok: true, value: 'ok' });
    expect(w.host.state).toBe('running');
    // The same answers again are no longer awaited: they count.
    w.deliver({ type: 'batch', messages: calls.map((c) => ({ type: 'tool_invocation_result', requestId: c.requestId, ok: true, value: 'again' })) });
    expect((await w.host.whenExited()).reason).toBe('flood');
    // `ready` took one of the five places: four stray answers were handled, the fifth tripped the cap.
    expect(w.logs.filter((l) => l.includes('Late result')).length).toBe(4);
  });
});

describe('throughput', () => {
  it('answers 3000 calls in a burst without tripping the 2000 messages/second flood cap', { timeout: 20_000 }, async () => {
    const w = startWorker(path.join(import.meta.dirname, '../../bench/fixtures/extensions/bench-echo'), { timings: { heartbeatIntervalMs: 1000 } });
    await w.ready;
    let next = 0;
    const lane = async () => {
      while (next < 3000) {
        const result = await w.host.execute(request('echo', { text: `n${next++}` }));
        expect(result.ok).toBe(true);
      }
    };
    await Promise.all(Array.from({ length: 64 }, lane));
    expect(w.host.state).toBe('running');
    expect(w.logs.filter((l) => l.includes('messages within one second'))).toEqual([]);
  });
});

describe('shared chat context (shared/protocol/context.ts)', () => {
  const chat = [
    { role: 'user' as const, content: 'Who used the cove?' },
    { role: 'assistant' as const, content: 'Let me check.' },
  ];
  const flat = 'user: Who used the cove?\nassistant: Let me check.';
  interface Seen {
    args: Record<string, unknown>;
    argKeys: string[];
    payloadKeys: string[];
    contextMessages?: unknown;
    councilMember?: unknown;
  }

  it('two calls sharing a context each get an equal, independent contextMessages copy and args.context', async () => {
    const w = startWorker(fixture('context-echo'));
    await w.ready;
    const call = () => w.host.execute(request('echo', { q: 1, context: flat, __deadlineMs: 5 }, { councilMember: member, contextMessages: chat }));
    // Same tick (one batch) and a later one (the worker's cached copy).
    const results = await Promise.all([call(), call()]);
    results.push(await call());
    for (const result of results) {
      expect(result.ok).toBe(true);
      const seen = (result as { value: Seen }).value;
      // The handler mutated its copy; the next call still sees the original.
      expect(seen.contextMessages).toEqual(chat);
      expect(seen.args).toEqual({ q: 1, context: flat, __deadlineMs: 5 });
      expect(seen.argKeys).toEqual(['q', 'context', '__deadlineMs']);
      expect(seen.payloadKeys).toEqual(['toolName', 'args', 'requestId', 'councilMember', 'contextMessages']);
      expect(seen.councilMember).toEqual(member);
    }
    expect(chat[0]!.content).toBe('Who used the cove?');
    // A call without a context is unchanged.
    const plain = await w.host.execute(request('echo', { q: 2 }));
    expect((plain as { value: Seen }).value.payloadKeys).toEqual(['toolName', 'args', 'requestId']);
  });

  it('a restarted worker gets the context again', async () => {
    const first = startWorker(fixture('context-echo'));
    await first.ready;
    const call = (host: WorkerHost) => host.execute(request('echo', { context: flat }, { contextMessages: chat }));
    expect(((await call(first.host)) as { value: Seen }).value.contextMessages).toEqual(chat);
    await first.host.stop();
    const second = startWorker(fixture('context-echo'));
    await second.ready;
    const again = (await call(second.host)) as { value: Seen };
    expect(again.value.contextMessages).toEqual(chat);
    expect(again.value.args).toEqual({ context: flat });
  });

  it('puts a context once per worker, refers to it from each call and drops the least recently used', async () => {
    const sent: unknown[] = [];
    const exits: Array<(code: number | null, signal: string | null) => void> = [];
    const handle: WorkerHandle = {
      pid: 1,
      stdout: null,
      stderr: null,
      send: (message) => (sent.push(message), true),
      onMessage: () => {},
      onExit: (listener) => exits.push(listener),
      kill: () => queueMicrotask(() => exits.forEach((exit) => exit(null, 'SIGKILL'))),
    };
    const make = () =>
      new WorkerHost({
        manifest: { id: 'fake', name: 'Fake', version: '1.0.0', description: '', main: 'index.js', permissions: ['tools'] } as ExtensionManifest,
        extensionPath: '/nowhere',
        dataPath: '/nowhere',
        granted: ['tools'],
        launcher: { launch: () => handle },
        entry: 'runtime.js',
        timings: { heartbeatIntervalMs: 60_000 },
      });
    const items = () => sent.splice(0).flatMap((m) => ((m as { type: string }).type === 'batch' ? (m as { messages: unknown[] }).messages : [m])) as Array<Record<string, unknown>>;
    const tick = () => new Promise((resolve) => process.nextTick(resolve));

    const host = make();
    host.start();
    await tick();
    items();
    for (let i = 0; i < 3; i++) void host.execute(request('a', { context: flat }, { contextMessages: chat }));
    await tick();
    const first = items();
    expect(first.map((m) => m.type)).toEqual(['context_put', 'tool_invocation', 'tool_invocation', 'tool_invocation']);
    expect(first[0]).toEqual({ type: 'context_put', contextId: 'ctx-1', contextMessages: chat, context: flat });
    for (const m of first.slice(1)) {
      expect(m.contextRef).toBe('ctx-1');
      const payload = m.payload as Record<string, unknown>;
      expect(payload.contextMessages).toBeUndefined();
      expect(payload.args).toEqual({ context: null });
    }

    // Four more contexts: the oldest is dropped after the put that evicts it.
    for (let i = 0; i < 4; i++) void host.execute(request('a', {}, { contextMessages: [...chat] }));
    await tick();
    expect(items().map((m) => `${String(m.type)} ${String(m.contextId ?? m.contextRef)}`)).toEqual([
      'context_put ctx-2', 'tool_invocation ctx-2',
      'context_put ctx-3', 'tool_invocation ctx-3',
      'context_put ctx-4', 'tool_invocation ctx-4',
      'context_put ctx-5', 'context_drop ctx-1', 'tool_invocation ctx-5',
    ]);

    // A new WorkerHost (a restarted worker) has sent nothing yet: it puts again.
    const restarted = make();
    restarted.start();
    await tick();
    items();
    void restarted.execute(request('a', { context: flat }, { contextMessages: chat }));
    await tick();
    expect(items().map((m) => m.type)).toEqual(['context_put', 'tool_invocation']);
    host.rejectInFlight({ code: 'CANCELLED', message: 'done' }, 'cancelled');
    restarted.rejectInFlight({ code: 'CANCELLED', message: 'done' }, 'cancelled');
    handle.kill();
    await Promise.all([host.whenExited(), restarted.whenExited()]);
  });
});
