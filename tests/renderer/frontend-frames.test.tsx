// @vitest-environment real-core
// The hidden runtime frame of an extension's frontend, in the app against the real core and a real worker: it goes
// when its extension stops, also when it stops before the frame's page has loaded (no broker to tear down yet), and
// what its backend sent meanwhile reaches the frame once it has loaded.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrontendFrames } from '../../renderer/src/features/frontends/FrontendFrames';
import { FrameBroker } from '../../renderer/src/features/frontends/frame-broker';
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

  it('what its backend sent before the page loaded reaches the frame once it has, in order', async () => {
    const host = await RealHost.start();
    await host.arrange('extensions.install', { folder: path.join(FIXTURE_EXTENSIONS, 'lumiverse_frontend'), grant: 'requested' });
    await extensionsSettled(host);
    const { container } = await renderShell(host, <FrontendFrames />);
    await settle();
    const told: unknown[] = [];
    vi.spyOn(FrameBroker.prototype, 'notify').mockImplementation(function (this: FrameBroker, topic: string, data: unknown) {
      if (topic === 'backend') told.push(data);
    } as never);
    // The backend answers two rolls while the frame's page is still loading.
    const answered = new Promise<void>((resolve) => {
      const off = host.onEvent((event) => {
        if (event.type === 'extension.frontend-message' && (event.payload as { sides?: number }).sides === 20) resolve(off());
      });
    });
    for (const sides of [6, 20]) await settle(async () => void (await host.arrange('extensions.sendFrontend', { id: 'lumiverse_frontend', payload: { type: 'roll', sides } })));
    await settle(() => answered);
    expect(told).toEqual([]);
    const frame = container.querySelector<HTMLIFrameElement>('iframe.runtime-frame[data-extension-id="lumiverse_frontend"]')!;
    // Its page loads (happy-dom loads none: the window it would have, taking the frame's port).
    const posted: unknown[] = [];
    Object.defineProperty(frame, 'contentWindow', { value: { postMessage: (message: unknown) => posted.push(message) } });
    await settle(() => void frame.dispatchEvent(new Event('load')));
    expect(posted).toEqual([expect.objectContaining({ cw: 'frame-init' })]);
    expect(told).toEqual([{ payload: expect.objectContaining({ type: 'rolled', sides: 6 }) }, { payload: expect.objectContaining({ type: 'rolled', sides: 20 }) }]);
  }, 60_000);
});
