// A worker's managed backend processes on fake time and a played child: the startup and heartbeat watchdogs fire on
// the host's clock whatever the child does, a stop the child does not finish is forced after five seconds, a child
// that floods is ended, and the worker hears each state change once, in order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackendProcesses, PROCESS_STOP_GRACE_MS, type BackendProcessInfo } from '../../../electron/core/extensions/workers/backend-processes';
import { MAX_WORKER_MESSAGES_PER_SECOND, type HostToWorkerMessage } from '../../../shared/protocol';
import { FakeClock } from '../../helpers/fake-time';
import { DEFAULT_WORKER_TIMINGS, WorkerLiveness } from '../../../electron/core/extensions/workers/worker-liveness';
import { fakeWorker, FakeLauncher } from './fake-worker';

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-processes-'));
  fs.mkdirSync(path.join(folder, 'dist'));
  fs.writeFileSync(path.join(folder, 'dist', 'child.js'), 'export default () => {};');
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

function table() {
  const clock = new FakeClock();
  const launcher = new FakeLauncher();
  const toWorker: HostToWorkerMessage[] = [];
  const logs: string[] = [];
  // The worker's own message budget, which its children share.
  const budget = new WorkerLiveness(clock, clock, DEFAULT_WORKER_TIMINGS, { ping: () => undefined, unresponsive: () => undefined, tick: () => undefined });
  const processes = new BackendProcesses({ extensionId: 'ext', extensionPath: folder, launcher, runtimeEntry: 'runtime.js', clock, timers: clock, notify: (m) => toWorker.push(m), log: (level, text) => logs.push(`${level}: ${text}`), flooded: () => budget.flooded() });
  const states = () => toWorker.flatMap((m) => (m.type === 'process_lifecycle' ? [(m.event as { state: string }).state] : []));
  return { clock, launcher, processes, toWorker, logs, states };
}

const spawn = (processes: BackendProcesses, options: Record<string, unknown> = {}) => processes.spawn({ options: { entry: 'dist/child.js', ...options }, has: { payload: false, metadata: false } });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('managed backend processes on the host', () => {
  it('a child not ready by its startup time is killed and the spawn refused PROCESS_TIMEOUT; the time is clamped to 1 s at least', async () => {
    const t = table();
    const spawned = spawn(t.processes, { startupTimeoutMs: 10 });
    const outcome = spawned.then(() => 'ready', (err: { error: { code: string } }) => err.error.code);
    t.clock.advance(999);
    await settle();
    expect(t.launcher.last.killed).toBe(false);
    t.clock.advance(1);
    expect(await outcome).toBe('PROCESS_TIMEOUT');
    expect(t.launcher.last.killed).toBe(true);
    expect(t.states()).toEqual(['starting', 'timed_out']);
    expect(t.processes.size).toBe(0);
  });

  it('a ready child that stops heartbeating is killed at its heartbeat time; each heartbeat resets it', async () => {
    const t = table();
    const spawned = spawn(t.processes, { heartbeatTimeoutMs: 2000 });
    const child = t.launcher.last;
    child.say({ type: 'child_signal', signal: 'ready' });
    const info: BackendProcessInfo = await spawned;
    expect(info).toMatchObject({ state: 'running', kind: 'dist/child.js', userId: 'local' });
    t.clock.advance(1500);
    child.say({ type: 'child_signal', signal: 'heartbeat' });
    t.clock.advance(1500);
    expect(child.killed).toBe(false);
    t.clock.advance(500);
    expect(child.killed).toBe(true);
    expect(t.states()).toEqual(['starting', 'running', 'running', 'timed_out']);
    expect(t.processes.get(info.processId)).toBeNull();
  });

  it('a stop the child does not finish is forced after five seconds and said as stopped', async () => {
    const t = table();
    const spawned = spawn(t.processes, { heartbeatTimeoutMs: 0 });
    t.launcher.last.say({ type: 'child_signal', signal: 'ready' });
    const { processId } = await spawned;
    t.processes.stop(processId, 'closing');
    expect(t.launcher.last.of('child_stop')).toEqual([{ type: 'child_stop', reason: 'closing' }]);
    t.clock.advance(PROCESS_STOP_GRACE_MS - 1);
    expect(t.launcher.last.killed).toBe(false);
    t.clock.advance(1);
    expect(t.launcher.last.killed).toBe(true);
    const last = t.toWorker.at(-1) as { event: Record<string, unknown> };
    expect(last.event).toMatchObject({ state: 'stopped', previousState: 'stopping', exitReason: 'stopped', error: 'Backend process force-stopped after stop timeout' });
  });

  it("a child that sends more than the flood limit in a second (its worker's, which its children share) is ended as failed; its messages up to then reached the worker, and a new second counts anew", async () => {
    const t = table();
    const spawned = spawn(t.processes, { heartbeatTimeoutMs: 0 });
    const child = t.launcher.last;
    child.say({ type: 'child_signal', signal: 'ready' });
    await spawned;
    // Its ready signal counted as one of the second's messages.
    for (let i = 1; i < MAX_WORKER_MESSAGES_PER_SECOND; i++) child.say({ type: 'child_message', payload: i });
    expect(child.killed).toBe(false);
    child.say({ type: 'child_message', payload: 'one too many' });
    expect(child.killed).toBe(true);
    expect(t.toWorker.filter((m) => m.type === 'process_message')).toHaveLength(MAX_WORKER_MESSAGES_PER_SECOND - 1);
    expect(t.states().at(-1)).toBe('failed');

    t.clock.advance(1000);
    const calm = spawn(t.processes, { heartbeatTimeoutMs: 0 });
    const steady = t.launcher.last;
    steady.say({ type: 'child_signal', signal: 'ready' });
    await calm;
    for (let second = 0; second < 3; second++) {
      t.clock.advance(1000);
      for (let i = 0; i < MAX_WORKER_MESSAGES_PER_SECOND; i++) steady.say({ type: 'child_message', payload: i });
    }
    expect(steady.killed).toBe(false);
  });

  it('a malformed message is ignored and said; a message outside the grammar is dropped, not delivered', async () => {
    const t = table();
    const spawned = spawn(t.processes, { heartbeatTimeoutMs: 0 });
    const child = t.launcher.last;
    child.say({ type: 'child_signal', signal: 'ready' });
    const { processId } = await spawned;
    child.say({ type: 'register_tool', tool: {} });
    child.say({ type: 'child_message', payload: { deep: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] } });
    expect(t.toWorker.filter((m) => m.type === 'process_message')).toEqual([]);
    expect(t.logs.join('\n')).toMatch(/Ignored a malformed message from backend process dist\/child\.js: unknown message type "register_tool"/);
    expect(t.logs.join('\n')).toMatch(/sent a message that was dropped: payload\.deep(\[0\])+ is nested deeper than 32 levels/);
    expect(t.processes.get(processId)).toMatchObject({ state: 'running' });
  });

  it('a stop while the child is still starting refuses the spawn PROCESS_FAILED once it stops', async () => {
    const t = table();
    const spawned = spawn(t.processes).then(() => 'ready', (err: { error: { code: string; message: string } }) => `${err.error.code}: ${err.error.message}`);
    const { processId } = t.processes.list()[0]!;
    t.processes.stop(processId, undefined);
    t.launcher.last.say({ type: 'child_signal', signal: 'stopped' });
    expect(await spawned).toBe('PROCESS_FAILED: Backend process stopped before it became ready');
    expect(t.states()).toEqual(['starting', 'stopping', 'stopped']);
  });

  it("counts with its worker: their memory together against the worker's cap, and a worker killed for it, or for breaking the protocol, takes its children with it", async () => {
    for (const ending of ['memory', 'protocol'] as const) {
      const w = fakeWorker({ extensionPath: folder, timings: { memoryCapBytes: 100 * 1024 * 1024 } });
      const spawned = w.host.processes.spawn({ options: { entry: 'dist/child.js', heartbeatTimeoutMs: 0 }, has: { payload: false, metadata: false } });
      const child = w.launcher.last;
      child.say({ type: 'child_signal', signal: 'ready' });
      await spawned;
      w.handle.resident = 60 * 1024 * 1024;
      child.resident = ending === 'memory' ? 60 * 1024 * 1024 : 1024;
      // Two heartbeats: the memory is read every second one (answered, so the worker is alive).
      for (let i = 0; i < 2; i++) {
        w.clock.advance(1000);
        w.handle.say({ type: 'heartbeat', seq: i + 1 });
      }
      if (ending === 'protocol') {
        expect(child.killed).toBe(false);
        w.handle.breakProtocol('not a frame');
      }
      await settle();
      expect(child.killed).toBe(true);
      expect(w.host.processes.size).toBe(0);
      if (ending === 'memory') expect(w.logs.join('\n')).toMatch(/Stopped: it used 120 MB of memory; the cap is 100 MB\./);
    }
  });
});
