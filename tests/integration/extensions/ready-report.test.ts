// The worker's ready report (permission model, network namespace) is what the host shows on the extension's card.
// Extension code runs before that report: it must not be able to make its worker look more confined than it is.
import { afterEach, describe, expect, it } from 'vitest';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';
import { fixture, startWorker, stopAllWorkers, waitFor } from './harness';

afterEach(stopAllWorkers);

describe("a worker's ready report", () => {
  it('says what confined the worker when it loaded the extension, whatever the extension changed after', async () => {
    // Neither layer here (the test launcher): the extension pretends both are there.
    const w = startWorker(fixture('report-spoofer'), { granted: [], launcher: new NodeLauncher({ contain: false, networkNamespace: false }) });
    await waitFor(() => w.logs.find((l) => l.includes('spoofed networkInterfaces,permission')), 'the spoofing log line', 15_000);
    expect(await w.ready).toEqual({ permissionModel: false, networkNamespace: false });
  });
});
