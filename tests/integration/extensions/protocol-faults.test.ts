// Real workers that break the channel or their memory cap: that worker is killed with a clear reason, the host and other workers go on.
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import { NodeLauncher } from '../../../electron/core/extensions/launcher';
import { FAST, FakeSink, fixture, MemoryState, request, RUNTIME, startWorker, stopAllWorkers, tempDir, waitFor } from './harness';

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  await stopAllWorkers();
});

async function breakerBeside(): Promise<{ m: ExtensionManager; sink: FakeSink }> {
  const sink = new FakeSink();
  const m = new ExtensionManager({
    dataDir: tempDir('breaker'),
    bundledDir: null,
    launcher: new NodeLauncher(),
    workerEntry: RUNTIME,
    sink,
    state: new MemoryState(),
    worker: FAST,
    // No restart within the test: the status keeps the reason.
    restart: { baseDelayMs: 60_000 },
  });
  managers.push(m);
  await m.init();
  await m.installFromFolder(fixture('protocol-breaker'), { grant: ['tools'] });
  await m.installFromFolder(fixture('seed-example'), { grant: ['tools'] });
  await waitFor(() => m.get('protocol-breaker').status === 'running' && m.get('seed-example').status === 'running', 'both workers');
  return { m, sink };
}

describe('a worker that writes what is not the protocol', () => {
  it.each([
    ['a line that is not JSON', 'junk-line', /wrote a line that is not JSON/],
    ['512 MB without a line end', 'endless-line', /wrote a message longer than 16777216 characters/],
  ])('%s: killed with WORKER_PROTOCOL; the host and the other extension go on', { timeout: 20_000 }, async (_what, how, reason) => {
    const { m, sink } = await breakerBeside();
    const result = await sink.executor('protocol-breaker', 'break').execute(request('break', { how }, { deadline: Date.now() + 15_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_PROTOCOL', message: expect.stringMatching(reason) } });
    await waitFor(() => m.get('protocol-breaker').status === 'crashed', 'the breaker to be down');
    expect(m.get('protocol-breaker')).toMatchObject({ errorCode: 'WORKER_PROTOCOL', error: expect.stringMatching(reason) });
    expect(m.getLogLines('protocol-breaker').some((l) => /Stopped: the worker wrote/.test(l))).toBe(true);
    // This process is the host: it is still here, and so is the other worker.
    expect(await sink.executor('seed-example', 'search_knowledge_base').execute(request('search_knowledge_base', { query: 'cove' }))).toEqual({
      ok: true,
      value: 'Smugglers used the lighthouse cove at low tide.',
    });
  });

  it('heartbeats interleaved with a lot of its own output never corrupt a frame', { timeout: 20_000 }, async () => {
    const w = startWorker(fixture('protocol-breaker'), { timings: { heartbeatIntervalMs: 10 } });
    await w.ready;
    const result = await w.host.execute(request('break', { how: 'chatter', lines: 1500 }, { deadline: Date.now() + 15_000 }));
    expect(result).toEqual({ ok: true, value: 'said 1500 lines' });
    const said = w.logs.filter((l) => l.startsWith('worker:info: line '));
    expect(said).toHaveLength(1500);
    expect(said[1499]).toBe(`worker:info: line 1499 ${'•'.repeat(1499 % 50)}`);
    expect(w.logs.filter((l) => l.startsWith('worker:info: console '))).toHaveLength(500);
    // stdout is a pipe of its own: its last lines may still be on the way.
    await waitFor(() => w.logs.filter((l) => l.startsWith('stdout:info: stdout ')).length === Math.ceil(1500 / 7), 'every stdout line');
    expect(w.logs.filter((l) => l.includes('Stopped'))).toEqual([]);
    expect(w.host.state).toBe('running');
  });
});

describe('a worker over its memory cap', () => {
  it('is killed with WORKER_MEMORY for memory the V8 heap cap does not see', { timeout: 20_000 }, async () => {
    const w = startWorker(fixture('memory-hog'), { memoryLimitMb: 160, timings: { heartbeatIntervalMs: 50 } });
    await w.ready;
    const result = await w.host.execute(request('hog', { maxMb: 1024 }, { deadline: Date.now() + 15_000 }));
    expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_MEMORY', message: expect.stringMatching(/MB resident, the limit is 160 MB/) } });
    expect(await w.exit).toMatchObject({ reason: 'memory', expected: false });
  });
});
