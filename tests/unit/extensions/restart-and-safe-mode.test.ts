// Restart policy and safe mode through the ExtensionManager, with a fake launcher and fake timers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExtensionManager, type ExtensionEvent, type ExtensionStateStore, type PersistedExtensionState } from '../../../electron/core/extensions/extension-manager';
import { START_RECORD_FILE, StartRecords } from '../../../electron/core/extensions/safe-mode';
import { silentLogger } from '../../../electron/core/ports';
import { FakeLauncher, flush } from './fake-worker';

const ID = 'crashy';
const dirs: string[] = [];

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cw-${prefix}-`));
  dirs.push(dir);
  return dir;
}

/** An extensions folder with one extension; the fake launcher never runs its code. */
function bundled(): string {
  const dir = tempDir('bundled');
  fs.mkdirSync(path.join(dir, ID));
  fs.writeFileSync(path.join(dir, ID, 'spindle.json'), JSON.stringify({ id: ID, name: 'Crashy', version: '1.0.0', description: 'x', main: 'index.js', permissions: ['tools'] }));
  fs.writeFileSync(path.join(dir, ID, 'index.js'), '');
  return dir;
}

class State implements ExtensionStateStore {
  readonly map = new Map<string, PersistedExtensionState>();
  getState = (id: string) => this.map.get(id);
  setState = async (id: string, state: PersistedExtensionState) => void this.map.set(id, { ...state, granted: [...state.granted] });
}

interface Rig {
  manager: ExtensionManager;
  launcher: FakeLauncher;
  events: ExtensionEvent[];
}

/** One run of the host: a manager over the same data folder and persisted state as the runs before it. */
async function hostRun(world: { dataDir: string; bundledDir: string; state: State }, script: (launcher: FakeLauncher) => void = () => {}): Promise<Rig> {
  const launcher = new FakeLauncher();
  script(launcher);
  const manager = new ExtensionManager({ dataDir: world.dataDir, bundledDir: world.bundledDir, launcher, workerEntry: 'runtime.js', sink: sink(), state: world.state, log: silentLogger });
  const events: ExtensionEvent[] = [];
  manager.onEvent((event) => events.push(event));
  await manager.init();
  await flush();
  return { manager, launcher, events };
}

function sink() {
  return { register: () => ({ ok: true as const }), unregister() {}, unregisterAll() {}, setSourceStatus() {} };
}

const crashAtStart = (launcher: FakeLauncher) => (launcher.onLaunch = (handle) => queueMicrotask(() => handle.exit(1)));
const neverReady = (launcher: FakeLauncher) => (launcher.onLaunch = (handle) => (handle.answersPings = false));

let world: { dataDir: string; bundledDir: string; state: State };
beforeEach(() => {
  vi.useFakeTimers({ now: 5_000_000 });
  world = { dataDir: tempDir('data'), bundledDir: bundled(), state: new State() };
});
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('restarts', () => {
  it('restarts a crashed worker after 1 s, then 2 s, and marks it failed on the third crash within 5 minutes', async () => {
    const run = await hostRun(world, crashAtStart);
    expect(run.manager.get(ID)).toMatchObject({ status: 'crashed', errorCode: 'WORKER_CRASHED', recentCrashes: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(run.launcher.launched).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.launcher.launched).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(run.launcher.launched).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.launcher.launched).toHaveLength(3);
    expect(run.manager.get(ID)).toMatchObject({ status: 'failed', recentCrashes: 3 });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(run.launcher.launched).toHaveLength(3);
  });

  it('keeps restarting crashes spread further apart than 5 minutes', async () => {
    const run = await hostRun(world);
    for (let i = 0; i < 4; i++) {
      run.launcher.last.exit(1);
      await vi.advanceTimersByTimeAsync(6 * 60_000);
    }
    expect(run.launcher.launched).toHaveLength(5);
    expect(run.manager.get(ID).status).toBe('running');
  });

  it('restarts an unresponsive worker in a new process', async () => {
    const run = await hostRun(world);
    run.launcher.last.answersPings = false;
    await vi.advanceTimersByTimeAsync(4000);
    expect(run.manager.get(ID)).toMatchObject({ status: 'crashed', errorCode: 'WORKER_UNRESPONSIVE' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(run.launcher.launched).toHaveLength(2);
    expect(run.manager.get(ID).status).toBe('running');
  });
});

describe('safe mode', () => {
  it('starts an extension that crashed at start three times in a row disabled next time, with a notice-worthy error', async () => {
    const first = await hostRun(world, crashAtStart);
    await vi.advanceTimersByTimeAsync(3000);
    expect(first.manager.get(ID).status).toBe('failed');
    await first.manager.dispose();

    const next = await hostRun(world, crashAtStart);
    expect(next.launcher.launched).toHaveLength(0);
    expect(next.manager.get(ID)).toMatchObject({ status: 'disabled', enabled: false, errorCode: 'EXTENSION_SAFE_MODE' });
    expect(next.manager.get(ID).error).toMatch(/failed to start 3 times in a row .* started disabled/);
    expect(next.events).toContainEqual(expect.objectContaining({ type: 'extension.status', id: ID, status: 'disabled', error: expect.objectContaining({ code: 'EXTENSION_SAFE_MODE' }) }));
    expect(world.state.getState(ID)).toMatchObject({ enabled: false });

    // And the one after that still says why, until someone enables it.
    await next.manager.dispose();
    const later = await hostRun(world);
    expect(later.manager.get(ID)).toMatchObject({ status: 'disabled', errorCode: 'EXTENSION_SAFE_MODE' });
    await later.manager.enable(ID);
    await flush();
    expect(later.manager.get(ID)).toMatchObject({ status: 'running', enabled: true });
    expect(new StartRecords(world.dataDir, silentLogger).failures(ID)).toBe(0);
  });

  it('counts a start the host did not survive: three host deaths during its start and it starts disabled', async () => {
    for (let death = 1; death <= 3; death++) {
      const run = await hostRun(world, neverReady);
      expect(run.launcher.launched).toHaveLength(1);
      expect(run.manager.get(ID).status).toBe('starting');
      // The host dies here: nothing of it runs again (no timer, no exit handler, no dispose).
      vi.clearAllTimers();
      expect(JSON.parse(fs.readFileSync(path.join(world.dataDir, START_RECORD_FILE), 'utf8'))).toEqual({ [ID]: { failed: death - 1, starting: true } });
    }
    const next = await hostRun(world);
    expect(next.launcher.launched).toHaveLength(0);
    expect(next.manager.get(ID)).toMatchObject({ status: 'disabled', errorCode: 'EXTENSION_SAFE_MODE' });
  });

  it('a start that succeeds in between resets the count; a shutdown during a start counts for nothing', async () => {
    const a = await hostRun(world, neverReady);
    vi.clearAllTimers();
    const b = await hostRun(world, neverReady);
    vi.clearAllTimers();
    // The second death is counted when the next host finds its mark.
    expect(JSON.parse(fs.readFileSync(path.join(world.dataDir, START_RECORD_FILE), 'utf8'))).toEqual({ [ID]: { failed: 1, starting: true } });
    const c = await hostRun(world);
    expect(c.manager.get(ID).status).toBe('running');
    expect(new StartRecords(world.dataDir, silentLogger).failures(ID)).toBe(0);
    await c.manager.dispose();
    const d = await hostRun(world, neverReady);
    await d.manager.dispose();
    await flush();
    expect(fs.readFileSync(path.join(world.dataDir, START_RECORD_FILE), 'utf8').trim()).toBe('{}');
    expect([a, b].every((run) => run.launcher.launched.length === 1)).toBe(true);
  });
});

describe('the start record file', () => {
  it('survives junk and prototype names: it is data, never code', () => {
    const dataDir = tempDir('records');
    const file = path.join(dataDir, START_RECORD_FILE);
    fs.writeFileSync(file, '{"__proto__": {"failed": 9}, "constructor": {"failed": 3}, "x": {"failed": -1}, "y": "nope"}');
    const records = new StartRecords(dataDir, silentLogger);
    expect(records.failures('constructor')).toBe(3);
    expect(records.inSafeMode('__proto__')).toBe(true);
    expect(records.failures('x')).toBe(0);
    expect(records.failures('toString')).toBe(0);
    fs.writeFileSync(file, 'not json');
    expect(records.failures('constructor')).toBe(0);
    records.failedStart('toString');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ toString: { failed: 1 } });
  });
});
