// The supervisor's crash policy through the ExtensionManager, on a fake launcher and fake time, with the default
// timings: a crash or an unresponsive worker restarts in a new process after 1 s, doubling; 3 crashes within
// 5 minutes mark it failed. No process and no sleep; the real workers are in tests/integration/extensions.
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionManager, type ExtensionEvent, type ExtensionManagerOptions } from '../../../electron/core/extensions/extension-manager';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeClock } from '../../helpers/fake-time';
import { FakeSink, fixture, MemoryState } from '../../integration/extensions/harness';
import { FakeLauncher, settle, type FakeHandle } from './fake-worker';

const ID = 'seed-example';
const managers: ExtensionManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  cleanupTempDirs();
});

const tool = (name: string) => ({ name, display_name: name, description: 'x', parameters: { type: 'object', properties: {} } });

/** The seed example installed on a fake launcher (workers leave at once on shutdown) and fake time. */
async function rig(options: Partial<ExtensionManagerOptions> = {}) {
  const clock = new FakeClock();
  const launcher = new FakeLauncher(true);
  const sink = new FakeSink();
  const events: ExtensionEvent[] = [];
  const manager = new ExtensionManager({ dataDir: tempDir(), bundledDir: null, launcher, workerEntry: 'runtime.js', sink, state: new MemoryState(), clock, timers: clock, ...options });
  managers.push(manager);
  manager.onEvent((event) => events.push(event));
  await manager.init();
  await manager.installFromFolder(fixture(ID), { grant: ['tools'] });
  const statuses = () => events.flatMap((e) => (e.type === 'extension.status' && e.id === ID ? [e.status] : []));
  const log = () => manager.getLogLines(ID).join('\n');
  /** The newest worker registers its tool and says it is ready. */
  const comesUp = (handle: FakeHandle = launcher.last) => {
    handle.say({ type: 'register_tool', tool: tool('lookup') });
    handle.say({ type: 'ready', contained: true });
  };
  /** Fake time moves on; whatever the timers started (a restart, a kill's exit) gets to finish. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await settle();
  };
  /** Time passes with the newest worker answering every ping, as a healthy one does. */
  const healthyFor = async (ms: number) => {
    for (let left = ms; left > 0; left -= 1000) {
      await advance(Math.min(1000, left));
      launcher.last.say({ type: 'heartbeat' });
    }
  };
  const call = (name = 'lookup') =>
    sink.executor(ID, name).execute({ toolName: name, args: {}, requestId: `r-${clock.timersSet}-${launcher.handles.length}`, deadline: clock.now() + 60_000, signal: new AbortController().signal });
  return { clock, launcher, sink, events, manager, statuses, log, comesUp, advance, healthyFor, call };
}

describe('a worker that crashes', () => {
  it('mid-call: the call fails WORKER_CRASHED at once naming the error, its tools go, and it restarts after 1 s in a new process', async () => {
    const t = await rig();
    t.comesUp();
    const first = t.launcher.last;
    const pending = t.call();
    first.say({ type: 'log', level: 'error', message: 'Error: boom in the middle of a call' });
    first.exit(1, null);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED', message: expect.stringContaining('Error: boom in the middle of a call') } });
    expect(t.sink.calls).toContain(`unregisterAll ${ID}`);
    expect(t.sink.names(ID)).toEqual([]);
    expect(t.sink.statuses.get(ID)).toBe('unavailable');
    expect(t.manager.get(ID)).toMatchObject({
      status: 'crashed',
      errorCode: 'WORKER_CRASHED',
      error: `Extension "${ID}" stopped: Error: boom in the middle of a call.`,
      lastCrash: 'Error: boom in the middle of a call',
      recentCrashes: 1,
    });
    expect(t.log()).toContain('Restarting in 1000 ms (crash 1 within 5 minutes).');

    await t.advance(999);
    expect(t.launcher.handles).toHaveLength(1);
    await t.advance(1);
    expect(t.launcher.handles).toHaveLength(2);
    t.comesUp();
    expect(t.manager.get(ID)).toMatchObject({ status: 'running', recentCrashes: 1 });
    expect(t.manager.get(ID).pid).not.toBe(first.pid);
    expect(t.sink.names(ID)).toEqual(['lookup']);
    expect(t.sink.statuses.get(ID)).toBe('available');
    expect(t.statuses()).toEqual(['starting', 'running', 'crashed', 'starting', 'running']);
  });

  it('the second crash within 5 minutes waits 2 s; a crash after 5 quiet minutes starts again at 1 s', async () => {
    const t = await rig();
    t.comesUp();
    t.launcher.last.exit(1, null);
    await t.advance(1000);
    t.comesUp();
    t.launcher.last.exit(1, null);
    expect(t.log()).toContain('Restarting in 2000 ms (crash 2 within 5 minutes).');
    await t.advance(1999);
    expect(t.launcher.handles).toHaveLength(2);
    await t.advance(1);
    expect(t.launcher.handles).toHaveLength(3);
    t.comesUp();

    await t.healthyFor(5 * 60_000);
    expect(t.launcher.handles).toHaveLength(3);
    expect(t.manager.get(ID).recentCrashes).toBe(0);
    t.launcher.last.exit(null, 'SIGSEGV');
    expect(t.manager.get(ID)).toMatchObject({ status: 'crashed', recentCrashes: 1 });
    expect(t.log().split('\n').at(-1)).toContain('Restarting in 1000 ms (crash 1 within 5 minutes).');
  });

  it('W4: 3 crashes within 5 minutes mark it failed; nothing restarts it, an hour later neither; a manual restart tries again with a fresh budget', async () => {
    const t = await rig();
    // It dies while loading, three times: 1 s, then 2 s apart.
    t.launcher.last.exit(1, null);
    await t.advance(1000);
    t.launcher.last.exit(1, null);
    await t.advance(2000);
    t.launcher.last.exit(1, null);
    expect(t.statuses()).toEqual(['starting', 'crashed', 'starting', 'crashed', 'starting', 'failed']);
    expect(t.manager.get(ID)).toMatchObject({ status: 'failed', errorCode: 'WORKER_CRASHED', error: expect.stringContaining('restart it by hand'), recentCrashes: 3 });
    expect(t.log()).toContain('Marked failed after 3 crashes within 5 minutes; it will not restart by itself.');
    expect(t.clock.pendingTimers).toBe(0);

    await t.advance(3_600_000);
    expect(t.launcher.handles).toHaveLength(3);
    expect(t.manager.get(ID).status).toBe('failed');

    await t.manager.restart(ID);
    expect(t.launcher.handles).toHaveLength(4);
    expect(t.manager.get(ID).recentCrashes).toBe(0);
    t.comesUp();
    expect(t.manager.get(ID).status).toBe('running');
  });

  it('disabling it while a restart is pending cancels the restart', async () => {
    const t = await rig();
    t.comesUp();
    t.launcher.last.exit(1, null);
    expect(t.clock.pendingTimers).toBeGreaterThan(0);
    await t.manager.disable(ID);
    expect(t.manager.get(ID).status).toBe('disabled');
    await t.advance(3_600_000);
    expect(t.launcher.handles).toHaveLength(1);
    expect(t.clock.pendingTimers).toBe(0);
  });

  it('a clean exit it was not asked for is a crash too', async () => {
    const t = await rig();
    t.comesUp();
    t.launcher.last.exit(0, null);
    expect(t.manager.get(ID)).toMatchObject({ status: 'crashed', error: expect.stringContaining('clean-exit, exit code 0') });
    await t.advance(1000);
    expect(t.launcher.handles).toHaveLength(2);
  });
});

describe('a worker that stops responding', () => {
  it('W2: answers pings while healthy; silent past 3 s it is killed, its call fails WORKER_UNRESPONSIVE, and it restarts in a new process', async () => {
    const t = await rig();
    t.comesUp();
    const first = t.launcher.last;
    // Healthy for a minute: every ping is answered.
    await t.healthyFor(60_000);
    expect(first.of('ping').length).toBeGreaterThanOrEqual(60);
    expect(first.killed).toBe(false);

    // A handler blocks its event loop: no more heartbeats.
    const pending = t.call();
    await t.advance(3000);
    expect(first.killed).toBe(false);
    await t.advance(1000);
    expect(first.killed).toBe(true);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'WORKER_UNRESPONSIVE' } });
    expect(t.manager.get(ID)).toMatchObject({ status: 'crashed', errorCode: 'WORKER_UNRESPONSIVE', recentCrashes: 1 });
    expect(t.log()).toMatch(/Not responding: no heartbeat for 4000 ms/);
    expect(t.sink.names(ID)).toEqual([]);

    await t.advance(1000);
    expect(t.launcher.handles).toHaveLength(2);
    t.comesUp();
    expect(t.manager.get(ID).status).toBe('running');
    expect(t.statuses()).toEqual(['starting', 'running', 'crashed', 'starting', 'running']);
  });

  it('a worker that never says ready is killed after the 10 s startup timeout, counted as a crash', async () => {
    const t = await rig();
    await t.advance(10_000);
    expect(t.launcher.last.killed).toBe(false);
    await t.advance(1000);
    expect(t.launcher.last.killed).toBe(true);
    expect(t.manager.get(ID)).toMatchObject({ status: 'crashed', errorCode: 'WORKER_UNRESPONSIVE', recentCrashes: 1 });
  });
});

describe('waiting for the extensions to settle', () => {
  it("whenSettled gives up on the manager's timers: a worker still starting at the bound does not hold it", async () => {
    const t = await rig();
    let settled = false;
    void t.manager.whenSettled(2000).then(() => (settled = true));
    await t.advance(1999);
    expect(settled).toBe(false);
    await t.advance(1);
    expect(settled).toBe(true);
    expect(t.manager.get(ID).status).toBe('starting');
  });

  it('whenSettled resolves as soon as the worker is ready, with no time passing', async () => {
    const t = await rig();
    const settled = t.manager.whenSettled(2000);
    t.comesUp();
    await settled;
    expect(t.manager.get(ID).status).toBe('running');
  });
});
