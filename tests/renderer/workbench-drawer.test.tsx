// @vitest-environment real-core
// The Workbench's extensions panel keeps its frames while the Workbench changes layout around it: when the sessions
// arrive, when the first is made and when the last is deleted. A frame made again reloads its page, and a click the
// person (or a test) aimed at it meanwhile lands nowhere.
import { cloneElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { createFrontendsStore, frontendsActions } from '../../renderer/src/features/frontends/frontends-store';
import { WorkbenchPanel } from '../../renderer/src/features/workbench/WorkbenchPanel';
import { buttonNamed, cleanup, controlFrames, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';

// The frames as the app makes them, without their address: happy-dom loads no frame page.
vi.mock('../../renderer/src/features/frontends/SurfaceFrame', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../renderer/src/features/frontends/SurfaceFrame')>();
  return { ...actual, SurfaceFrame: (props: Parameters<typeof actual.SurfaceFrame>[0]) => cloneElement(actual.SurfaceFrame(props), { src: undefined, srcDoc: '' }) };
});

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  vi.unstubAllGlobals();
});

describe("the Workbench's extensions panel", () => {
  it('is the same element with the same frame from no session to one and back', async () => {
    controlFrames();
    const host = await RealHost.start();
    const frontends = createFrontendsStore();
    frontendsActions.openSurface(frontends, 'dice_tray', 'drawer-1', 'drawer', { title: 'Dice' });
    frontends.setState({ drawerOpen: true });
    const { container } = await renderShell(
      host,
      <FrontendsProvider value={{ store: frontends, brokers: new Map() }}>
        <WorkbenchPanel />
      </FrontendsProvider>,
    );
    const frame = () => container.querySelector('iframe[data-surface-id="drawer-1"]');
    const before = frame();
    expect(before).not.toBeNull();
    expect(container.querySelector('[data-testid="session"]')).toBeNull();

    await settle(() => buttonNamed(container, 'New session').click());
    expect(container.querySelectorAll('[data-testid="session"]')).toHaveLength(1);
    expect(frame()).toBe(before);

    // The last session deleted: the empty Workbench again, the same frame still.
    const id = container.querySelector<HTMLElement>('[data-testid="session"]')!.dataset.id!;
    await settle(async () => void (await host.arrange('chat.sessions.delete', { sessionId: id })));
    expect(container.querySelector('[data-testid="session"]')).toBeNull();
    expect(frame()).toBe(before);
  });
});
