// MCP crash and restart policy on fake servers and fake time: backoff, give-up after 3 failures in 5 minutes,
// a lost connection counted once, list_changed debounce. No process, no socket, no sleep; the real
// servers are in tests/integration/mcp (adversarial.test.ts, stdio.test.ts, http.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { FakeClock } from '../../helpers/fake-time';
import { ECHO_TOOL, FakeMcpServers, settle } from './fake-server';
import { makeHarness, type Harness } from './harness';

let clock: FakeClock;
let servers: FakeMcpServers;
let h: Harness;
beforeEach(() => {
  clock = new FakeClock();
  servers = new FakeMcpServers();
  // Harness defaults: restart after 100 ms, doubling, at most 400; list_changed debounced 50 ms.
  h = makeHarness({ clock, timers: clock, connector: servers.connector });
});
afterEach(async () => {
  await h.dispose();
});

const stdio = (id: string) => ({ id, transport: 'stdio', command: 'fake-server', enabled: false });
const invoke = (name: string, args: Record<string, unknown> = {}) => h.registry.invoke(name, args, { timeoutMs: 5000 });
const statuses = (id: string) => h.events.flatMap((e) => (e.type === 'mcp.changed' && e.server.config.id === id ? [e.server.status] : []));

/** Moves fake time on and lets the restart it fired finish its start. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  await settle();
}

describe('a server that fails at start', () => {
  it('is crashed with the reason and its last stderr line, restarted after 100 then 200 ms, then failed; failed stays failed; connect starts again with a clean budget', async () => {
    servers.script('dies').failStart = { error: new Error('Connection closed'), stderr: 'boom: this server cannot find its config' };
    await h.manager.add(stdio('dies'));
    const first = await h.manager.connect('dies');
    expect(first).toMatchObject({ status: 'crashed', recentCrashes: 1, restartAt: clock.now() + 100 });
    expect(first.lastError).toMatchObject({ code: 'MCP_CONNECT_FAILED', message: 'MCP server "dies" failed to start: Connection closed (stderr: boom: this server cannot find its config)' });
    expect(clock.pendingTimers).toBe(1);
    // The restart timer never holds a process open.
    expect(clock.referencedTimers).toBe(0);

    await advance(99);
    expect(servers.of('dies')).toHaveLength(1);
    await advance(1);
    expect(servers.of('dies')).toHaveLength(2);
    expect(h.manager.get('dies')).toMatchObject({ status: 'crashed', recentCrashes: 2, restartAt: clock.now() + 200 });

    await advance(199);
    expect(servers.of('dies')).toHaveLength(2);
    await advance(1);
    const failed = h.manager.get('dies');
    expect(failed).toMatchObject({ status: 'failed', recentCrashes: 3 });
    expect(failed.restartAt).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
    const log = h.manager.logLines('dies').join('\n');
    expect(log).toMatch(/restarting in 100 ms \(failure 1\)/);
    expect(log).toMatch(/restarting in 200 ms \(failure 2\)/);
    expect(log).toMatch(/stopped after 3 failures in 5 minutes/);
    expect(statuses('dies').filter((s) => s === 'crashed')).toHaveLength(2);
    expect(statuses('dies').at(-1)).toBe('failed');

    // An hour later nothing has restarted it.
    await advance(3_600_000);
    expect(h.manager.get('dies').status).toBe('failed');
    expect(servers.of('dies')).toHaveLength(3);

    // Fixed, and connected by hand: a fresh budget, and it runs.
    delete servers.script('dies').failStart;
    const again = await h.manager.connect('dies');
    expect(again).toMatchObject({ status: 'connected', recentCrashes: 0, toolCount: 1 });
    expect(await invoke('mcp-dies:echo', { text: 'back' })).toMatchObject({ ok: true, content: 'back' });
  });

  it('the delay doubles up to its cap and failures older than 5 minutes are forgotten', async () => {
    await h.dispose();
    h = makeHarness({ clock, timers: clock, connector: servers.connector, crash: { baseDelayMs: 100, maxDelayMs: 150, limit: 10 } });
    servers.script('slow').failStart = { error: new Error('nope') };
    await h.manager.add(stdio('slow'));
    expect((await h.manager.connect('slow')).restartAt).toBe(clock.now() + 100);
    await advance(100);
    expect(h.manager.get('slow').restartAt).toBe(clock.now() + 150);
    await advance(150);
    expect(h.manager.get('slow')).toMatchObject({ recentCrashes: 3, restartAt: clock.now() + 150 });
    // Fixed: it connects at the next restart, and after five quiet minutes its failures are forgotten.
    delete servers.script('slow').failStart;
    await advance(150);
    expect(h.manager.get('slow').status).toBe('connected');
    await advance(5 * 60_000);
    servers.last('slow').die();
    expect(h.manager.get('slow')).toMatchObject({ status: 'crashed', recentCrashes: 1, restartAt: clock.now() + 100 });
  });

  it('an initialize that times out is MCP_INIT_TIMEOUT and counts as a crash', async () => {
    await h.dispose();
    h = makeHarness({ clock, timers: clock, connector: servers.connector, initializeTimeoutMs: 400 });
    servers.script('mute').failStart = { error: new McpError(ErrorCode.RequestTimeout, 'Request timed out') };
    await h.manager.add(stdio('mute'));
    const info = await h.manager.connect('mute');
    expect(info).toMatchObject({ status: 'crashed', recentCrashes: 1 });
    expect(info.lastError).toMatchObject({ code: 'MCP_INIT_TIMEOUT', message: 'MCP server "mute" did not answer initialize within 400 ms' });
    expect(h.registry.list({ sourceId: 'mcp-mute' })).toEqual([]);
  });
});

describe('a connected server that dies', () => {
  it('has its tools marked unavailable at once, then restarts after the backoff in a new session and answers again', async () => {
    await h.manager.add(stdio('fx'));
    const { pid } = await h.manager.connect('fx');
    expect(await invoke('mcp-fx:echo', { text: 'a' })).toMatchObject({ ok: true, content: 'a' });

    servers.last('fx').die('fatal: out of cheese');
    const crashed = h.manager.get('fx');
    expect(crashed).toMatchObject({ status: 'crashed', recentCrashes: 1, restartAt: clock.now() + 100 });
    expect(crashed.lastError).toMatchObject({ code: 'WORKER_CRASHED', message: 'MCP server "fx" exited (stderr: fatal: out of cheese)' });
    expect(h.registry.get('mcp-fx:echo')?.status).toBe('unavailable');
    expect(await invoke('mcp-fx:echo', { text: 'x' })).toMatchObject({ ok: false, error: { code: 'TOOL_UNAVAILABLE' } });

    await advance(99);
    expect(servers.of('fx')).toHaveLength(1);
    await advance(1);
    expect(h.manager.get('fx').status).toBe('connected');
    expect(h.manager.get('fx').pid).not.toBe(pid);
    expect(h.registry.get('mcp-fx:echo')?.status).toBe('available');
    expect(await invoke('mcp-fx:echo', { text: 'back' })).toMatchObject({ ok: true, content: 'back' });
    expect(servers.last('fx').calls).toEqual([{ name: 'echo', args: { text: 'back' } }]);
  });

  it('disconnecting while a restart is pending cancels the restart', async () => {
    await h.manager.add(stdio('fx'));
    await h.manager.connect('fx');
    servers.last('fx').die();
    expect(clock.pendingTimers).toBe(1);
    await h.manager.disconnect('fx');
    expect(clock.pendingTimers).toBe(0);
    await advance(3_600_000);
    expect(h.manager.get('fx').status).toBe('stopped');
    expect(servers.of('fx')).toHaveLength(1);
  });

  it('an HTTP server that cannot be reached: the calls that find it gone fail WORKER_CRASHED, it counts once, and it reconnects after the backoff', async () => {
    await h.manager.add({ id: 'web', transport: 'http', url: 'http://127.0.0.1:9/mcp', enabled: false });
    await h.manager.connect('web');
    const gone = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    servers.script('web').call = () => {
      throw gone;
    };
    const [lost, alsoLost] = await Promise.all([invoke('mcp-web:echo', { text: 'b' }), invoke('mcp-web:echo', { text: 'c' })]);
    expect(lost).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED', message: expect.stringContaining('MCP server "web" cannot be reached') } });
    expect(alsoLost).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect(h.manager.get('web')).toMatchObject({ status: 'crashed', recentCrashes: 1 });
    expect(h.registry.get('mcp-web:echo')?.status).toBe('unavailable');

    delete servers.script('web').call;
    await advance(100);
    expect(h.manager.get('web').status).toBe('connected');
    expect(await invoke('mcp-web:echo', { text: 'd' })).toMatchObject({ ok: true, content: 'd' });
  });
});

describe('notifications/tools/list_changed', () => {
  it('a burst becomes one tools/list after the debounce, and one mcp.changed', async () => {
    await h.manager.add(stdio('fx'));
    await h.manager.connect('fx');
    const session = servers.last('fx');
    expect(session.listCalls).toBe(1);
    const changedBefore = statuses('fx').length;
    servers.script('fx').tools = [ECHO_TOOL, { name: 'added_later', inputSchema: { type: 'object' } }];
    for (let i = 0; i < 5; i++) session.toolsChanged();
    await advance(49);
    expect(session.listCalls).toBe(1);
    expect(h.registry.get('mcp-fx:added_later')).toBeUndefined();
    await advance(1);
    expect(session.listCalls).toBe(2);
    expect(h.registry.get('mcp-fx:added_later')?.status).toBe('available');
    expect(statuses('fx').length - changedBefore).toBe(1);
    expect(h.manager.get('fx').toolCount).toBe(2);
    // The debounce timer never holds a process open, and none is left.
    expect(clock.pendingTimers).toBe(0);
  });

  it('a tool that vanishes from the list is unregistered', async () => {
    await h.manager.add(stdio('fx'));
    await h.manager.connect('fx');
    servers.script('fx').tools = [];
    servers.last('fx').toolsChanged();
    await advance(50);
    expect(h.registry.get('mcp-fx:echo')).toBeUndefined();
    expect(h.manager.get('fx').toolCount).toBe(0);
  });
});
