// Safe mode: an extension whose start failed three times in a row (its worker died first, or the host did) starts disabled next time.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionManager, type ExtensionEvent } from '../../../electron/core/extensions/extension-manager';
import { SAFE_MODE_FILE } from '../../../electron/core/extensions/workers/safe-mode';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeClock } from '../../helpers/fake-time';
import { FakeSink, fixture, MemoryState } from '../../integration/extensions/harness';
import { FakeLauncher, settle } from './fake-worker';

afterEach(cleanupTempDirs);

/** A data folder with the seed example installed as a user extension, and a manager over it. */
function rig(dataDir = tempDir(), state = new MemoryState()) {
  const clock = new FakeClock();
  const launcher = new FakeLauncher(true);
  const events: ExtensionEvent[] = [];
  const manager = new ExtensionManager({
    dataDir,
    bundledDir: null,
    launcher,
    workerEntry: 'runtime.js',
    sink: new FakeSink(),
    state,
    clock,
    timers: clock,
    restart: { baseDelayMs: 10 },
  });
  manager.onEvent((event) => events.push(event));
  return { dataDir, state, clock, launcher, manager, events };
}

async function installed() {
  const r = rig();
  await r.manager.init();
  await r.manager.installFromFolder(fixture('seed-example'), { grant: ['tools'] });
  r.launcher.last.say({ type: 'ready', contained: true });
  await r.manager.dispose();
  return r;
}

describe('safe mode', () => {
  it('three host deaths during its start hold it disabled at the fourth start, with an event and a log line', async () => {
    const first = await installed();
    for (let death = 1; death <= 3; death++) {
      // The host starts it and dies before the worker says it is ready: no dispose, no exit.
      const r = rig(first.dataDir, first.state);
      await r.manager.init();
      expect(r.manager.get('seed-example').status).toBe('starting');
      expect(r.launcher.handles).toHaveLength(1);
    }
    const r = rig(first.dataDir, first.state);
    await r.manager.init();
    expect(r.launcher.handles).toHaveLength(0);
    expect(r.manager.get('seed-example')).toMatchObject({ status: 'disabled', enabled: false, safeMode: true });
    expect(r.events).toContainEqual({ type: 'extension.safe-mode', id: 'seed-example', failures: 3 });
    expect(r.manager.getLogLines('seed-example').join('\n')).toMatch(/Safe mode: it failed to start 3 times in a row/);
    expect(first.state.getState('seed-example')).toMatchObject({ enabled: false });

    // Enabling it by hand clears the count: it starts, and the next host start starts it too.
    await r.manager.enable('seed-example');
    expect(r.launcher.handles).toHaveLength(1);
    r.launcher.last.say({ type: 'ready', contained: true });
    const after = rig(first.dataDir, first.state);
    await after.manager.init();
    expect(after.launcher.handles).toHaveLength(1);
  });

  it('a worker that dies before it is ready counts; three in a row across restarts hold it', async () => {
    const first = await installed();
    const r = rig(first.dataDir, first.state);
    await r.manager.init();
    for (let i = 0; i < 3; i++) {
      r.launcher.last.exit(1, null);
      await settle();
      r.clock.advance(1000);
      await settle();
    }
    expect(r.manager.get('seed-example').status).toBe('failed');
    expect(r.manager.getLogLines('seed-example').join('\n')).toMatch(/the next host start holds it disabled \(safe mode\)/);
    const next = rig(first.dataDir, first.state);
    await next.manager.init();
    expect(next.manager.get('seed-example')).toMatchObject({ status: 'disabled', safeMode: true });
  });

  it('a start that reaches ready resets the count', async () => {
    const first = await installed();
    for (let i = 0; i < 2; i++) await rig(first.dataDir, first.state).manager.init();
    const ok = rig(first.dataDir, first.state);
    await ok.manager.init();
    ok.launcher.last.say({ type: 'ready', contained: true });
    await ok.manager.dispose();
    expect(JSON.parse(fs.readFileSync(path.join(first.dataDir, SAFE_MODE_FILE), 'utf8'))).toEqual({});
    const again = rig(first.dataDir, first.state);
    await again.manager.init();
    expect(again.launcher.handles).toHaveLength(1);
  });

  it('a host stopped before a spread start launched a worker counts nothing against it', async () => {
    const first = await installed();
    for (let quit = 1; quit <= 3; quit++) {
      // A door's start (one launch per turn of the event loop); the host quits before the first turn.
      const r = rig(first.dataDir, first.state);
      await r.manager.init({ start: false });
      const spread = r.manager.startEnabled({ spread: true });
      expect(r.manager.get('seed-example').status).toBe('starting');
      await r.manager.dispose();
      await spread;
      expect(r.launcher.handles).toHaveLength(0);
    }
    const next = rig(first.dataDir, first.state);
    await next.manager.init();
    expect(next.launcher.handles).toHaveLength(1);
    expect(next.manager.get('seed-example').status).toBe('starting');
  });

  it('a broken safe-mode file is ignored, never fatal', async () => {
    const first = await installed();
    fs.writeFileSync(path.join(first.dataDir, SAFE_MODE_FILE), '{"seed-example": "nonsense", "__proto__": {"failures": 9}}');
    const r = rig(first.dataDir, first.state);
    await r.manager.init();
    expect(r.launcher.handles).toHaveLength(1);
  });
});
