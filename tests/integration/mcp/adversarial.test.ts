// Hostile and broken MCP servers: early exit, silence, shell metacharacters, URLs in server text, floods.
import cp from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeHarness, stdioInput, STDIO_FIXTURE, waitFor, type Harness } from '../../unit/mcp/harness';
import { FakeClock } from '../../helpers/fake-time';
import { alive } from '../../helpers/process-alive';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.dispose();
});

const marker = () => path.join(os.tmpdir(), `cw-pwned-${randomUUID()}`);


describe('MCP servers that fail', () => {
  it('a server that exits at start is crashed with a clear error, restarted with backoff, then failed', async () => {
    // The restart policy runs on fake time (the servers are real processes): each backoff is one advance, no sleep.
    const clock = new FakeClock();
    await h.dispose();
    h = makeHarness({ clock, timers: clock });
    await h.manager.add(stdioInput('dies', 'exit-at-start', { enabled: false }));
    const first = await h.manager.connect('dies');
    expect(first.status).toBe('crashed');
    expect(first.lastError?.message).toMatch(/MCP server "dies" failed to start/);
    expect(first.restartAt).toBe(clock.now() + 100);
    expect(first.recentCrashes).toBe(1);
    expect(clock.pendingTimers).toBe(1); // the restart, on the fake clock
    const starts = () => h.manager.logLines('dies').filter((l) => l.includes('starting:')).length;

    clock.advance(99);
    expect(starts()).toBe(1);
    clock.advance(1);
    await waitFor(() => h.manager.get('dies').recentCrashes === 2 && h.manager.get('dies').status === 'crashed', 'the second crash');
    expect(h.manager.get('dies').restartAt).toBe(clock.now() + 200);
    clock.advance(200);
    const failed = await waitFor(() => (h.manager.get('dies').status === 'failed' ? h.manager.get('dies') : null), 'status failed');
    expect(failed.recentCrashes).toBe(3);
    expect(failed.restartAt).toBeUndefined();
    const log = h.manager.logLines('dies').join('\n');
    expect(log).toContain('boom: this server cannot find its config');
    expect(log).toMatch(/restarting in 100 ms \(failure 1\)/);
    expect(log).toMatch(/restarting in 200 ms \(failure 2\)/);
    expect(log).toMatch(/stopped after 3 failures/);
    const statuses = h.events.flatMap((e) => (e.type === 'mcp.changed' && e.server.config.id === 'dies' ? [e.server.status] : []));
    expect(statuses.filter((s) => s === 'crashed')).toHaveLength(2);
    expect(statuses.at(-1)).toBe('failed');
    // Failed stays failed: an hour later nothing has restarted it.
    clock.advance(3_600_000);
    expect(h.manager.get('dies').status).toBe('failed');
    expect(starts()).toBe(3);
    // A manual connect starts again with a clean budget.
    expect((await h.manager.connect('dies')).recentCrashes).toBe(1);
  });

  it('a connected server that dies has its tools marked unavailable, then restarts and recovers', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    const { pid } = await h.manager.connect('fx');
    process.kill(pid!, 'SIGKILL');
    await waitFor(() => h.manager.get('fx').status === 'crashed', 'status crashed');
    expect(h.manager.get('fx').lastError).toMatchObject({ code: 'WORKER_CRASHED', message: expect.stringMatching(/exited/) });
    expect(h.registry.get('mcp-fx:echo')?.status).toBe('unavailable');
    expect(await h.registry.invoke('mcp-fx:echo', { text: 'x' }, { timeoutMs: 1000 })).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE' } });
    await waitFor(() => h.manager.get('fx').status === 'connected', 'reconnected');
    expect(h.manager.get('fx').pid).not.toBe(pid);
    expect(await h.registry.invoke('mcp-fx:echo', { text: 'back' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'back' });
  });

  it('W7: a server flooding log notifications: every line is kept (capped), but mcp.log events are rate-limited per second and the held-back count is said', async () => {
    await h.dispose();
    // The log's one-second window reads this clock: moved on by hand instead of sleeping.
    let skew = 0;
    h = makeHarness({ maxLogEventsPerSecond: 5, clock: { now: () => Date.now() + skew } });
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    expect(await h.registry.invoke('mcp-fx:flood', { count: 200 }, { timeoutMs: 10_000 })).toMatchObject({ ok: true });
    await waitFor(() => h.manager.logLines('fx').filter((l) => l.includes('flood line')).length === 200, 'all 200 lines stored');
    const streamed = h.events.filter((e) => e.type === 'mcp.log' && e.id === 'fx');
    // Five a second at most (the test spans a few seconds at the very most), not two hundred.
    expect(streamed.length).toBeLessThan(40);
    // The next line after the window says how many were held back.
    skew += 1100;
    await h.registry.invoke('mcp-fx:echo', { text: 'after' }, { timeoutMs: 5000 });
    expect(h.events.some((e) => e.type === 'mcp.log' && /log lines were stored without being streamed \(more than 5 per second\)/.test(e.line))).toBe(true);
  });

  it("logs one line per tool call in the server's log: the tool, ok or the error code, and the time (never the arguments or result)", async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    expect(await h.registry.invoke('mcp-fx:echo', { text: 'private words' }, { timeoutMs: 5000 })).toMatchObject({ ok: true });
    expect(await h.registry.invoke('mcp-fx:fail', {}, { timeoutMs: 5000 })).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR' } });
    const calls = h.manager.logLines('fx').filter((l) => l.includes(' call '));
    expect(calls).toEqual([expect.stringMatching(/call echo: ok, \d+ ms$/), expect.stringMatching(/call fail: MCP_TOOL_ERROR, \d+ ms$/)]);
    expect(h.manager.logLines('fx').join('\n')).not.toContain('private words');
  });

  it('a server that never answers initialize times out, is stopped, and counts as a crash', async () => {
    await h.dispose();
    h = makeHarness({ initializeTimeoutMs: 400, crash: { baseDelayMs: 60_000 } });
    await h.manager.add(stdioInput('mute', 'silent', { enabled: false }));
    // Without the initialize timeout this connect would never return (the test's own timeout fails it).
    const info = await h.manager.connect('mute');
    expect(info.status).toBe('crashed');
    expect(info.lastError).toMatchObject({ code: 'MCP_INIT_TIMEOUT', message: 'MCP server "mute" did not answer initialize within 400 ms' });
    expect(h.registry.list({ sourceId: 'mcp-mute' })).toEqual([]);
  });

  it('a missing command fails with a message naming the command', async () => {
    const file = marker();
    await h.manager.add({ id: 'nope', transport: 'stdio', command: `definitely-not-a-command; touch ${file}`, enabled: false });
    const info = await h.manager.connect('nope');
    expect(info.status).toBe('crashed');
    expect(info.lastError).toMatchObject({ code: 'MCP_CONNECT_FAILED', path: '/command' });
    expect(info.lastError?.message).toContain('command not found');
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('MCP servers and the shell, the environment and URLs', () => {
  it('passes arguments with shell metacharacters literally and runs no shell', async () => {
    const files = [marker(), marker(), marker()];
    const args = [`; touch ${files[0]}`, `$(touch ${files[1]})`, `\`touch ${files[2]}\``, '| cat /etc/passwd', '&& echo hi', "'quoted' \"double\"", '*', '$HOME'];
    await h.manager.add({ id: 'meta', transport: 'stdio', command: process.execPath, args: [STDIO_FIXTURE, ...args], enabled: false });
    expect((await h.manager.connect('meta')).status).toBe('connected');
    const outcome = await h.registry.invoke('mcp-meta:argv', {}, { timeoutMs: 5000 });
    expect(outcome.ok).toBe(true);
    const seen = JSON.parse((outcome as { content: string }).content) as { argv: string[] };
    expect(seen.argv).toEqual(args);
    for (const file of files) expect(fs.existsSync(file)).toBe(false);
  });

  it('gives a stdio server only its configured environment plus PATH, never the parent secrets', async () => {
    process.env.CW_TEST_PARENT_SECRET = 'sk-parent-should-not-leak';
    try {
      await h.manager.add(stdioInput('env', 'basic', { enabled: false, env: { MY_TOKEN: 'configured-token-value' } }));
      await h.manager.connect('env');
      const outcome = await h.registry.invoke('mcp-env:argv', {}, { timeoutMs: 5000 });
      const seen = JSON.parse((outcome as { content: string }).content) as { envKeys: string[] };
      expect(seen.envKeys).toEqual(['MY_TOKEN', 'PATH']);
    } finally {
      delete process.env.CW_TEST_PARENT_SECRET;
    }
  });

  it('never spawns or opens anything from server-supplied URLs in instructions, descriptions or results', async () => {
    const spawn = vi.spyOn(cp, 'spawn');
    const others = (['exec', 'execFile', 'fork', 'spawnSync', 'execSync', 'execFileSync'] as const).map((name) => vi.spyOn(cp, name));
    const file = marker();
    // Host timers on fake time: whatever the host scheduled after reading those texts runs when the clock moves.
    const clock = new FakeClock();
    await h.dispose();
    h = makeHarness({ clock, timers: clock });
    await h.manager.add(stdioInput('urls', 'basic', { enabled: false, env: { MARKER: file } }));
    const info = await h.manager.connect('urls');
    expect(info.server?.instructions).toContain('https://evil.example/setup');
    expect(h.manager.tools('urls').find((t) => t.name === 'url')?.description).toContain('https://evil.example/login');
    const outcome = await h.registry.invoke('mcp-urls:url', {}, { timeoutMs: 5000 });
    expect(outcome).toMatchObject({ ok: true, content: expect.stringContaining('https://evil.example/auth') });
    // No sleep: a minute of host timers fires, then one more call's answer comes back after all of it.
    clock.advance(60_000);
    expect(await h.registry.invoke('mcp-urls:echo', { text: 'after' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'after' });
    // Exactly one process: the configured server, with the configured arguments.
    expect(spawn).toHaveBeenCalledTimes(1);
    expect(spawn.mock.calls[0]?.[0]).toBe(process.execPath);
    expect(spawn.mock.calls[0]?.[1]).toEqual([STDIO_FIXTURE, '--mode', 'basic']);
    expect(spawn.mock.calls[0]?.[2]).toMatchObject({ shell: false });
    for (const spy of others) expect(spy).not.toHaveBeenCalled();
    for (const suffix of ['-instructions', '-description', '-result', '-open']) expect(fs.existsSync(file + suffix)).toBe(false);
  });
});

describe('MCP servers that flood', () => {
  it('50,000 log notifications: the host stays responsive, the log stays capped, the excess is dropped and counted', async () => {
    await h.manager.add(stdioInput('flood', 'basic', { enabled: false }));
    await h.manager.connect('flood');
    await h.manager.add(stdioInput('side', 'basic', { enabled: false }));
    await h.manager.connect('side');
    let floodSettled = false;
    const flood = h.registry.invoke('mcp-flood:flood', { count: 50_000 }, { timeoutMs: 15_000 }).finally(() => {
      floodSettled = true;
    });
    // Responsive, shown by order instead of a clock: once the flood is arriving, calls to another server
    // go out and come back, one after another, before the flood's own answer is read.
    await waitFor(() => h.manager.logLines('flood').some((l) => l.includes('flood line')), 'the first flood lines');
    const SIDE_CALLS = 5;
    for (let i = 0; i < SIDE_CALLS; i++) {
      expect(await h.registry.invoke('mcp-side:echo', { text: `side ${i}` }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: `side ${i}` });
    }
    expect(floodSettled).toBe(false);
    expect(await flood).toMatchObject({ ok: true, content: 'flooded' });
    // Every notification was either logged or counted as dropped.
    const dropped = await waitFor(() => {
      const lines = h.manager.logLines('flood');
      const logged = lines.filter((l) => l.includes('flood line')).length;
      const counted = lines.reduce((sum, l) => sum + Number(/dropped (\d+) log notifications/.exec(l)?.[1] ?? 0), 0);
      return logged + counted === 50_000 ? counted : null;
    }, 'every notification logged or counted', 10_000);
    expect(dropped).toBeGreaterThan(40_000);
    expect(await h.registry.invoke('mcp-flood:echo', { text: 'alive' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'alive' });
    expect(h.manager.logLines('flood').length).toBeLessThanOrEqual(1000);
    const logEvents = h.events.filter((e) => e.type === 'mcp.log').length;
    expect(logEvents).toBeLessThan(2000);
    expect(logEvents).toBeGreaterThan(50);
  });

  it('50,000 stderr lines: the log stays capped and the server keeps answering', async () => {
    await h.manager.add(stdioInput('noisy', 'basic', { enabled: false }));
    await h.manager.connect('noisy');
    expect(await h.registry.invoke('mcp-noisy:stderr_flood', { count: 50_000 }, { timeoutMs: 10_000 })).toMatchObject({ ok: true });
    await waitFor(() => h.manager.logLines('noisy').some((l) => l.includes('stderr flood 49999')), 'the last stderr line', 10_000);
    expect(h.manager.logLines('noisy').length).toBeLessThanOrEqual(1000);
    expect(await h.registry.invoke('mcp-noisy:echo', { text: 'ok' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'ok' });
  });
});

describe('dead processes', () => {
  it('dispose leaves no server process behind', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    const { pid } = await h.manager.connect('fx');
    expect(alive(pid!)).toBe(true);
    await h.manager.dispose();
    await waitFor(() => !alive(pid!), 'the server process to exit', 6000);
  });
});
