// @vitest-environment real-core
// The hidden runtime frame of an extension's frontend, in the app against the real core and a real worker: it goes
// when its extension stops, also when it stops before the frame's page has loaded (no broker to tear down yet).
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrontendFrames } from '../../renderer/src/features/frontends/FrontendFrames';
import { cleanup, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { extensionsSettled, FIXTURE_EXTENSIONS } from './real-tools';

// The frame's page is never loaded here (happy-dom loads no frame page): the frame stays where it is before `load`.
vi.mock('../../renderer/src/features/frontends/SurfaceFrame', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../renderer/src/features/frontends/SurfaceFrame')>();
  return { ...actual, frameUrl: () => undefined };
});

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

describe("an extension's runtime frame", () => {
  it('goes when its extension is disabled before the frame has loaded, and comes back when it is enabled', async () => {
    const host = await RealHost.start();
    await host.arrange('extensions.install', { folder: path.join(FIXTURE_EXTENSIONS, 'lumiverse_frontend'), grant: 'requested' });
    await extensionsSettled(host);
    const { container } = await renderShell(host, <FrontendFrames />);
    const frames = () => container.querySelectorAll('iframe.runtime-frame[data-extension-id="lumiverse_frontend"]').length;
    await settle();
    expect(frames()).toBe(1);
    await settle(async () => void (await host.arrange('extensions.disable', { id: 'lumiverse_frontend' })));
    await settle();
    expect(frames()).toBe(0);
    await settle(async () => void (await host.arrange('extensions.enable', { id: 'lumiverse_frontend' })));
    await extensionsSettled(host);
    await settle();
    expect(frames()).toBe(1);
  }, 60_000);
});
