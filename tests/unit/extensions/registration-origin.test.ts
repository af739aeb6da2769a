// security.md R15: a registration from a worker that may no longer register (told to stop, replaced) is ignored and logged.
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_GRACE_MS } from '../../../shared/protocol';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeClock } from '../../helpers/fake-time';
import { FakeSink, fixture, MemoryState } from '../../integration/extensions/harness';
import { fakeWorker, FakeLauncher, settle } from './fake-worker';

afterEach(cleanupTempDirs);

const tool = (name: string) => ({ name, display_name: name, description: 'x', parameters: { type: 'object', properties: {} } });

describe('registrations outside a worker’s life', () => {
  it('R15: a worker told to stop cannot register: the registration never reaches the host, and the log says why', () => {
    const registered: string[] = [];
    const w = fakeWorker({ callbacks: { onRegisterTool: (t) => registered.push(t.name) } });
    w.handle.say({ type: 'register_tool', tool: tool('before') });
    void w.host.stop();
    w.handle.say({ type: 'register_tool', tool: tool('during_shutdown') });
    expect(registered).toEqual(['before']);
    expect(w.logs).toContain('host:warn: registerTool("during_shutdown") ignored: the worker is stopping.');
  });

  it('through the manager: a tool registered while the extension is being disabled never reaches the registry', async () => {
    const clock = new FakeClock();
    const launcher = new FakeLauncher(false);
    const sink = new FakeSink();
    const manager = new ExtensionManager({ dataDir: tempDir(), bundledDir: null, launcher, workerEntry: 'runtime.js', sink, state: new MemoryState(), clock, timers: clock });
    await manager.init();
    await manager.installFromFolder(fixture('seed-example'), { grant: ['tools'] });
    const worker = launcher.last;
    worker.say({ type: 'register_tool', tool: tool('search_knowledge_base') });
    worker.say({ type: 'ready', contained: true });
    const disabling = manager.disable('seed-example');
    await settle();
    worker.say({ type: 'register_tool', tool: tool('sneaked_in') });
    clock.advance(SHUTDOWN_GRACE_MS);
    await disabling;
    expect(sink.calls.filter((c) => c.startsWith('register'))).toEqual(['register seed-example:search_knowledge_base']);
    expect(manager.getLogLines('seed-example').some((l) => l.includes('registerTool("sneaked_in") ignored: the worker is stopping.'))).toBe(true);
    await manager.dispose();
  });

  it('R15: after a restart, the replaced worker (an unknown port now) cannot register: ignored, and the log says so once', async () => {
    const clock = new FakeClock();
    const launcher = new FakeLauncher(true);
    const sink = new FakeSink();
    const manager = new ExtensionManager({ dataDir: tempDir(), bundledDir: null, launcher, workerEntry: 'runtime.js', sink, state: new MemoryState(), clock, timers: clock });
    await manager.init();
    await manager.installFromFolder(fixture('seed-example'), { grant: ['tools'] });
    const old = launcher.last;
    old.say({ type: 'register_tool', tool: tool('search_knowledge_base') });
    old.say({ type: 'ready', contained: true });
    const restarting = manager.restart('seed-example');
    await settle();
    clock.advance(SHUTDOWN_GRACE_MS);
    await restarting;
    expect(launcher.last).not.toBe(old);
    old.sayFromThePipe({ type: 'register_tool', tool: tool('from_the_old_worker') });
    old.sayFromThePipe({ type: 'register_tool', tool: tool('again_from_the_old_worker') });
    await settle();
    expect(sink.calls.filter((c) => c.includes('old_worker'))).toEqual([]);
    const notes = manager.getLogLines('seed-example').filter((l) => l.includes('ignored: the worker has exited'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('registerTool("from_the_old_worker")');
    await manager.dispose();
  });
});
