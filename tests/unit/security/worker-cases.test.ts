// security.md §8.3 W5 and W8 on a WorkerHost over a fake channel and fake time.
import { describe, expect, it } from 'vitest';
import type { WorkerExitError } from '../../../electron/core/extensions/workers/worker-host';
import { call, fakeWorker, settle } from '../extensions/fake-worker';

describe('worker faults', () => {
  it('W5: a worker that exits cleanly (code 0) with calls pending rejects them WORKER_CRASHED (clean-exit) at once', async () => {
    const w = fakeWorker();
    const first = w.host.execute(call(w.clock, 't', { deadline: w.clock.now() + 60_000 }));
    const second = w.host.execute(call(w.clock, 'u', { deadline: w.clock.now() + 60_000 }));
    w.handle.exit(0, null);
    for (const result of await Promise.all([first, second])) {
      expect(result).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
      expect((result as unknown as { error: WorkerExitError }).error.details).toMatchObject({ reason: 'clean-exit', exitCode: 0 });
    }
    expect(await w.host.whenExited()).toMatchObject({ reason: 'clean-exit', exitCode: 0, expected: false });
    // No replay: nothing more was sent after the two invocations.
    expect(w.handle.of('tool_invocation')).toHaveLength(2);
  });

  it('W8: progress messages (unknown to the protocol, out of order, or after the end) are ignored; the deadline stays the hard limit', async () => {
    const w = fakeWorker();
    const request = call(w.clock, 't', { deadline: w.clock.now() + 5000 });
    let settled = false;
    const pending = w.host.execute(request).then((result) => ((settled = true), result));
    for (const progress of [50, 10, 120, -1]) w.handle.say({ type: 'progress', requestId: request.requestId, progress, total: 100 });
    w.handle.say({ type: 'progress', requestId: 'never-sent', progress: 1 });
    // The worker stays alive (heartbeats) and keeps sending progress; only the deadline ends the call.
    for (let i = 0; i < 4; i++) {
      w.clock.advance(1000);
      w.handle.say({ type: 'heartbeat' });
      w.handle.say({ type: 'progress', requestId: request.requestId, progress: 99 - i });
    }
    w.clock.advance(999);
    w.handle.say({ type: 'heartbeat' });
    await settle();
    expect(settled).toBe(false);
    w.clock.advance(1);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    // Late progress for the finished call changes nothing and the worker keeps running.
    w.handle.say({ type: 'progress', requestId: request.requestId, progress: 100 });
    expect(w.host.state).toBe('running');
    expect(w.logs.filter((line) => /Ignored a malformed message/.test(line)).length).toBeGreaterThanOrEqual(5);
  });
});
