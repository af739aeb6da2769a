// WorkerHost against real worker processes: the seed contract, real faults, the framed channel, containment, storage.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESULT_BYTES, MAX_WORKER_FRAME_CHARS } from '../../../shared/protocol';
import type { CouncilMemberContext } from '../../../shared/types/spindle';
import { minimalWorkerEnv, NodeLauncher, type Launcher } from '../../../electron/core/extensions/workers/launcher';
import type { WorkerExitError } from '../../../electron/core/extensions/workers/worker-host';
import { asJson, fixture, request, startWorker, stopAllWorkers, tempDir, waitFor } from './harness';

afterEach(stopAllWorkers);

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

describe('seed 000 contract', () => {
  it('runs the seed example unchanged: it registers and answers with and without a council member', async () => {
    const w = startWorker(fixture('seed-example'));
    await w.ready;
    expect(w.registered.map((t) => t.name)).toEqual(['search_knowledge_base']);
    expect(await w.host.execute(request('search_knowledge_base', { query: 'lighthouse', limit: 2 }))).toEqual({
      ok: true,
      value: "The lighthouse keeper vanished during the storm of 1887.\nThe lighthouse lamp was last lit by the keeper's daughter.",
    });
    const voiced = await w.host.execute(
      request('search_knowledge_base', { query: 'smugglers', context: 'chat so far' }, { councilMember: member, contextMessages: [{ role: 'user', content: 'Who used the cove?' }] }),
    );
    expect(voiced).toEqual({ ok: true, value: 'Mira (Archivist) reports:\nSmugglers used the lighthouse cove at low tide.' });
    expect(await w.host.execute(request('something_else'))).toEqual({ ok: true, value: 'Unknown tool' });
  });

  it('answers a simulation with the placeholder when the extension has no TOOL_SIMULATION handler', async () => {
    const w = startWorker(fixture('seed-example'));
    await w.ready;
    expect(asJson(await w.host.simulate(request('search_knowledge_base', { query: 'x' })))).toEqual({ ok: true, value: { ok: true, simulated: true, unvalidated: true } });
  });

  it('holds a call that arrives while the entry is still loading until it has loaded', async () => {
    const w = startWorker(fixture('slow-load'));
    await waitFor(() => w.registered.length === 1, 'the registration');
    expect(w.host.state).toBe('starting');
    expect(await w.host.execute(request('early'))).toEqual({ ok: true, value: 'answered after loading' });
  });

  it('loads a CommonJS extension', async () => {
    const w = startWorker(fixture('commonjs-tool'));
    await w.ready;
    expect(await w.host.execute(request('cjs_echo', { text: 'hi' }))).toEqual({ ok: true, value: 'cjs:hi:index.js' });
  });

  it('calls a handler as Lumiverse does, (payload, userId), with the abort signal in a third argument', async () => {
    const w = startWorker(fixture('context-echo'));
    await w.ready;
    const result = asJson(await w.host.execute(request('echo', {})));
    expect(result).toMatchObject({
      ok: true,
      value: { userId: 'local', handlerContext: { ownNames: ['signal'], signalIsAbortSignal: true, aborted: false, abort: 'undefined' } },
    });
  });

  it('calls that share a chat context (sent once) each see all of it, as a copy of their own', async () => {
    const w = startWorker(fixture('context-echo'));
    await w.ready;
    const chat = [
      { role: 'user' as const, content: 'Who used the cove?' },
      { role: 'assistant' as const, content: 'Let me check.' },
    ];
    const flat = 'user: Who used the cove?\nassistant: Let me check.';
    const call = () => w.host.execute(request('echo', { q: 1, context: flat, __deadlineMs: 5 }, { councilMember: member, contextMessages: chat }));
    // The handler changes its copy every time; each call still sees the chat as it was sent.
    for (const result of [...(await Promise.all([call(), call()])), await call()]) {
      expect(asJson(result)).toMatchObject({
        ok: true,
        value: {
          args: { q: 1, context: flat, __deadlineMs: 5 },
          contextMessages: chat,
          councilMember: member,
          argKeys: ['q', 'context', '__deadlineMs'],
          payloadKeys: ['toolName', 'args', 'requestId', 'councilMember', 'contextMessages'],
        },
      });
    }
    expect(chat[0]!.content).toBe('Who used the cove?');
  });

  it('passes a thrown {code, hint} through as a structured error; other throws become TOOL_ERROR', async () => {
    const w = startWorker(fixture('structured-error'));
    await w.ready;
    expect(await w.host.execute(request('fail'))).toEqual({
      ok: false,
      error: { code: 'DB_READONLY', message: 'Database is read-only.', hint: 'Wait for the next write window or use a different store.' },
    });
    expect(await w.host.execute(request('fail', { kind: 'plain' }))).toEqual({ ok: false, error: { code: 'TOOL_ERROR', message: 'plain failure' } });
  });
});

describe('real faults', () => {
  it('at the deadline: TOOL_TIMEOUT, and the handler sees its signal abort', async () => {
    const w = startWorker(fixture('never-answers'));
    await w.ready;
    const call = request('wait_forever', {}, { deadline: Date.now() + 300 });
    expect(await w.host.execute(call)).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    await waitFor(() => w.logs.includes(`worker:info: aborted ${call.requestId} TimeoutError`), 'the handler to see its signal aborted');
    expect(w.host.state).toBe('running');
  });

  it('a worker that dies mid-call: every call WORKER_CRASHED at once, with the error it died of', { timeout: 10_000 }, async () => {
    const w = startWorker(fixture('crash-mid-call'));
    await w.ready;
    const deadline = Date.now() + 30_000;
    const results = await Promise.all([
      w.host.execute(request('crash', { afterMs: 60_000 }, { deadline })),
      w.host.execute(request('crash', { afterMs: 100 }, { deadline })),
    ]);
    for (const result of results) {
      const error = (result as unknown as { error: WorkerExitError }).error;
      expect(error.code).toBe('WORKER_CRASHED');
      expect(error.details).toEqual({ reason: 'abnormal-exit', exitCode: 1, signal: null });
      expect(error.message).toContain('Error: boom in the middle of a call');
    }
    expect(await w.exit).toMatchObject({ reason: 'abnormal-exit', exitCode: 1, expected: false, crashLine: 'Error: boom in the middle of a call' });
  });

  it('a blocked event loop: WORKER_UNRESPONSIVE and the process is killed', { timeout: 15_000 }, async () => {
    const w = startWorker(fixture('busy-loop'));
    await w.ready;
    expect(await w.host.execute(request('spin', {}, { deadline: Date.now() + 30_000 }))).toMatchObject({ ok: false, error: { code: 'WORKER_UNRESPONSIVE' } });
    expect(await w.exit).toMatchObject({ reason: 'unresponsive', signal: 'SIGKILL' });
  });

  it('W7: 200,000 log lines: the worker is stopped for flooding while another extension keeps answering', { timeout: 20_000 }, async () => {
    const flood = startWorker(fixture('flood'));
    const other = startWorker(fixture('seed-example'));
    await Promise.all([flood.ready, other.ready]);
    const flooding = flood.host.execute(request('flood', {}, { deadline: Date.now() + 30_000 }));
    expect(await other.host.execute(request('search_knowledge_base', { query: 'cove' }))).toEqual({ ok: true, value: 'Smugglers used the lighthouse cove at low tide.' });
    expect(await flooding).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect((await flood.exit).reason).toBe('flood');
    expect(other.host.state).toBe('running');
  });

  it('W9: refuses a 2 MB result in the worker, and re-checks on the host when the runtime is bypassed', async () => {
    const big = startWorker(fixture('big-result'));
    const rogue = startWorker(fixture('rogue-results'));
    await Promise.all([big.ready, rogue.ready]);
    expect(await big.host.execute(request('big'))).toMatchObject({ ok: false, error: { code: 'RESULT_TOO_LARGE', message: expect.stringContaining(`limit is ${MAX_RESULT_BYTES}`) } });
    expect(await rogue.host.execute(request('rogue', { mode: 'oversized' }))).toMatchObject({ ok: false, error: { code: 'RESULT_TOO_LARGE' } });
    expect(await rogue.host.execute(request('rogue', { mode: 'unknown-id' }))).toEqual({ ok: true, value: 'real answer' });
    // A malformed answer to a call in flight ends that call at once, not at its deadline.
    expect(await rogue.host.execute(request('rogue', { mode: 'untexted' }, { deadline: Date.now() + 60_000 }))).toMatchObject({ ok: false, error: { code: 'INVALID_RESULT', message: expect.stringContaining('malformed result') } });
    await waitFor(() => rogue.logs.includes('host:warn: Result for unknown request no-such-request-42 dropped.'), 'the drop to be logged');
  });
});

describe('the framed channel', () => {
  it('a line that is not JSON ends that worker with WORKER_PROTOCOL; the host and another worker go on', { timeout: 10_000 }, async () => {
    const breaker = startWorker(fixture('protocol-breaker'));
    const other = startWorker(fixture('seed-example'));
    await Promise.all([breaker.ready, other.ready]);
    const result = await breaker.host.execute(request('break', { how: 'not-json' }, { deadline: Date.now() + 30_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_PROTOCOL', message: expect.stringContaining('not JSON') } });
    expect(await breaker.exit).toMatchObject({ reason: 'protocol', expected: false });
    expect(await other.host.execute(request('search_knowledge_base', { query: 'cove' }))).toMatchObject({ ok: true });
  });

  it('a line without end is cut off at the frame cap, not buffered to 512 MB', { timeout: 30_000 }, async () => {
    const breaker = startWorker(fixture('protocol-breaker'));
    await breaker.ready;
    const result = await breaker.host.execute(request('break', { how: 'no-newline' }, { deadline: Date.now() + 60_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_PROTOCOL', message: expect.stringContaining(`longer than ${MAX_WORKER_FRAME_CHARS} characters`) } });
    expect((await breaker.exit).reason).toBe('protocol');
  });
});

describe('notification events', () => {
  /** A launcher that keeps every event message the host writes to the worker. */
  function recordingLauncher(sent: string[]): Launcher {
    const real = new NodeLauncher();
    return {
      containment: real.containment,
      launch(options) {
        const handle = real.launch(options);
        const send = handle.send.bind(handle);
        handle.send = (message) => {
          if (message.type === 'event') sent.push(message.event);
          return send(message);
        };
        return handle;
      },
    };
  }

  it('go only to a worker with a handler for them, as its handlers come and go', { timeout: 15_000 }, async () => {
    const sent: string[] = [];
    const w = startWorker(fixture('event-listener'), { launcher: recordingLauncher(sent) });
    await w.ready;
    expect(w.host.wantedEvents).toEqual(['CHAT_CHANGED', 'TOOL_INVOCATION']);
    w.host.sendEvent('STREAM_TOKEN_RECEIVED', { token: 'a' });
    w.host.sendEvent('MESSAGE_SENT', { message: 'early' });
    w.host.sendEvent('CHAT_CHANGED', { chatId: 'c1' });
    await waitFor(() => w.logs.some((l) => l.includes('CHAT_CHANGED c1')), 'the CHAT_CHANGED handler');
    expect(sent).toEqual(['CHAT_CHANGED']);

    // A handler added later (here, in a tool call) is said before the call's answer, and the host follows it.
    expect(await w.host.execute(request('listen'))).toEqual({ ok: true, value: 'listen' });
    expect(w.host.wantedEvents).toContain('MESSAGE_SENT');
    w.host.sendEvent('MESSAGE_SENT', { message: 'hello' });
    await waitFor(() => w.logs.some((l) => l.includes('MESSAGE_SENT hello')), 'the MESSAGE_SENT handler');
    expect(await w.host.execute(request('stop'))).toEqual({ ok: true, value: 'stop' });
    expect(w.host.wantedEvents).not.toContain('MESSAGE_SENT');
    w.host.sendEvent('MESSAGE_SENT', { message: 'late' });
    expect(sent).toEqual(['CHAT_CHANGED', 'MESSAGE_SENT']);
    expect(w.logs.join('\n')).not.toMatch(/MESSAGE_SENT (early|late)/);
  });
});

describe('containment', () => {
  it('an extension with no permissions reads no keys or settings, starts no process or thread, opens no socket', { timeout: 15_000 }, async () => {
    const dataDir = tempDir('contained');
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ openai: 'sk-canary-secret-4711' }));
    fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ canary: 'settings-canary-4711' }));
    const folder = path.join(dataDir, 'extensions', 'intruder');
    fs.mkdirSync(folder, { recursive: true });
    for (const name of fs.readdirSync(fixture('intruder'))) fs.copyFileSync(path.join(fixture('intruder'), name), path.join(folder, name));
    const received: string[] = [];
    const listener = net.createServer((socket) => socket.on('data', (data) => received.push(String(data))));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    fs.writeFileSync(path.join(folder, 'target.json'), JSON.stringify({ dataDir, port: (listener.address() as net.AddressInfo).port }));
    process.env.CANARY_HOST_KEY = 'sk-canary-env-4711';
    try {
      const w = startWorker(folder, { granted: [] });
      const line = await waitFor(() => w.logs.find((l) => l.startsWith('worker:info: attempts ')), 'the attempts');
      const attempts = JSON.parse(line.slice('worker:info: attempts '.length)) as Record<string, { ok: boolean; code?: string; value?: string }>;
      for (const [name, outcome] of Object.entries(attempts)) expect(outcome.ok, `${name}: ${JSON.stringify(outcome)}`).toBe(false);
      expect(attempts.parentEnviron!.code).toBe('ERR_ACCESS_DENIED');
      expect(attempts.secrets!.code).toBe('ERR_ACCESS_DENIED');
      expect(attempts.childProcess!.code).toBe('ERR_ACCESS_DENIED');
      expect(attempts.rawSocket!.code).toBe('ERR_ACCESS_DENIED');
      // Sealed where the runtime has the global (Node 22+, Electron's); absent on Node 20.
      const hasWebSocket = Number(process.versions.node.split('.')[0]) >= 22;
      expect(attempts.webSocket!.code).toBe(hasWebSocket ? 'ERR_ACCESS_DENIED' : 'ABSENT');
      expect(attempts.restoreWebSocket!.code).toBe(hasWebSocket ? 'TypeError' : 'ABSENT');
      expect(JSON.stringify(w.logs)).not.toMatch(/canary/);
      expect(received).toEqual([]);
      expect(fs.existsSync(path.join(folder, 'written.txt'))).toBe(false);
      await w.ready;
    } finally {
      delete process.env.CANARY_HOST_KEY;
      listener.close();
    }
  });

  it('W15: gives the worker no parent environment variables', async () => {
    process.env.CANARY_API_KEY = 'sk-canary-should-not-leak';
    try {
      const w = startWorker(fixture('env-report'));
      await w.ready;
      const result = asJson(await w.host.execute(request('env', { q: 1, __userId: 'u1' })));
      const value = (result as { value: { env: Record<string, string>; cwd: string; payload: { args: unknown } } }).value;
      expect(Object.keys(value.env).sort()).toEqual(['COUNCIL_WORKER_FDS', 'NODE_ENV', 'SPINDLE_EXTENSION_ID']);
      expect(value.cwd).toBe(fixture('env-report'));
      expect(value.payload.args).toEqual({ q: 1 });
    } finally {
      delete process.env.CANARY_API_KEY;
    }
  });

  it('a worker holding more resident memory than its cap is killed with WORKER_MEMORY', { timeout: 15_000 }, async () => {
    const w = startWorker(fixture('memory-hog'), { timings: { memoryCapBytes: 256 * 1024 * 1024 } });
    await w.ready;
    const result = await w.host.execute(request('hog', {}, { deadline: Date.now() + 30_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_MEMORY', message: expect.stringMatching(/\d+ MB over the 256 MB cap/) } });
    expect((await w.exit).reason).toBe('memory');
  });

  it('filters secret-looking names even when a caller passes them', () => {
    expect(minimalWorkerEnv({ OPENAI_API_KEY: 'x', GITHUB_TOKEN: 'y', MY_SECRET: 'z', LANG: 'C' }, { PATH: '/bin' })).toEqual({ NODE_ENV: 'production', LANG: 'C' });
  });

  it('the inspector stays closed: Node refuses it in a contained worker, the runtime seals it where nothing contains it', { timeout: 15_000 }, async () => {
    for (const [contained, launcher] of [
      [true, undefined],
      [false, new NodeLauncher({ contain: false })],
    ] as const) {
      const w = startWorker(fixture('inspector-probe'), launcher ? { launcher } : {});
      const isolation = await w.ready;
      expect(isolation.permissionModel).toBe(contained);
      const line = await waitFor(() => w.logs.find((l) => l.startsWith('worker:info: inspector ')), 'the inspector attempt');
      expect(JSON.parse(line.slice('worker:info: inspector '.length)), `contained: ${contained}`).toEqual({ ok: false, code: 'ERR_ACCESS_DENIED' });
    }
  });

  it('kills the whole process group: a child the worker started does not outlive it', { timeout: 10_000 }, async () => {
    const w = startWorker(fixture('spawner'), { launcher: new NodeLauncher({ contain: false }) });
    const line = await waitFor(() => w.logs.find((l) => l.includes('child pid ')), 'the child pid');
    const pid = Number(line.split('child pid ')[1]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await w.host.stop();
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the child to be gone');
  });
});
