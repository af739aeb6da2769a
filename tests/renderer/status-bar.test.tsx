// @vitest-environment real-core
// The status bar mirrors the connection state and what host.status reports, against the real core (in memory).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, cleanup, renderShell, settle } from './harness';
import { BUNDLED_PACKS, disposeAllHosts, RealHost } from './real-host';
import { registerTool } from './real-safety';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

/** "N extensions · N tools · N members" as the core counts them now. */
function counts(host: RealHost): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(host.core.extensions.list().length, 'extension')} · ${plural(host.core.registry.list().length, 'tool')} · ${plural(host.core.settings.get().council.members.length, 'member')}`;
}

/** Resolves once the extension's worker has registered a tool (its own pace: a child process), within 10 s. */
async function workerTool(host: RealHost, extensionId: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!host.core.registry.list().some((t) => t.extensionId === extensionId)) {
    if (performance.now() > deadline) throw new Error(`${extensionId} registered no tool`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const FIXTURE_EXTENSION = path.resolve(import.meta.dirname, '../fixtures/extensions/context-echo');

describe('status bar', () => {
  it('shows Connecting… until the host is reached, then Connected with the data dir and settings version', async () => {
    const host = await RealHost.start({ bundledPacksDir: BUNDLED_PACKS });
    await host.arrange('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer' });
    host.setInfo({ state: 'connecting' });
    const { container } = await renderShell(host);
    const status = byTestId(container, 'connection-status');
    expect(status.dataset.state).toBe('connecting');
    expect(status.textContent).toContain('Connecting…');
    expect(container.querySelector('[data-testid="data-dir"]')).toBeNull();
    expect(host.callsTo('host.status')).toHaveLength(0);

    await settle(() => host.setInfo({ state: 'connected' }));
    expect(status.dataset.state).toBe('connected');
    expect(status.textContent).toContain('Connected');
    expect(host.callsTo('host.status')).toHaveLength(1);
    expect(byTestId(container, 'data-dir').textContent).toContain(host.dataDir);
    expect(byTestId(container, 'settings-version').textContent).toBe(`Settings v${host.core.settings.get().version}`);
    expect(byTestId(container, 'host-mode').textContent).toContain('Browser');
    expect(counts(host)).toMatch(/^0 extensions · \d+ tools · 1 member$/);
    expect(container.querySelector('.statusbar')?.textContent).toContain(counts(host));
  });

  it('counts follow the tool and extension events, not the host.status snapshot', async () => {
    const host = await RealHost.start();
    // A real extension (a worker process) with one tool.
    await host.arrange('extensions.install', { folder: FIXTURE_EXTENSION, grant: ['tools'] });
    await workerTool(host, 'context-echo');
    const { container } = await renderShell(host);
    const bar = () => container.querySelector('.statusbar')?.textContent;
    const before = counts(host);
    expect(before).toMatch(/^1 extension · /);
    expect(bar()).toContain(before);
    await settle(async () => {
      registerTool(host, 'extra', { name: 'x', description: 'x', parameters: { type: 'object', properties: {} }, mode: 'read' });
      registerTool(host, 'extra', { name: 'y', description: 'y', parameters: { type: 'object', properties: {} }, mode: 'read' });
      await host.arrange('extensions.remove', { id: 'context-echo' });
    });
    expect(counts(host)).not.toBe(before);
    expect(counts(host)).toMatch(/^0 extensions · /);
    expect(bar()).toContain(counts(host));
    // No new host.status was read: the events did it.
    expect(host.callsTo('host.status')).toHaveLength(1);
  });

  it('shows a lost connection, offers to reconnect, and resyncs when it comes back', async () => {
    const host = await RealHost.start();
    const { container } = await renderShell(host);
    const status = byTestId(container, 'connection-status');
    expect(host.callsTo('host.status')).toHaveLength(1);

    await settle(() => host.setInfo({ state: 'disconnected', attempt: 1, willRetry: true, detail: 'The connection to the host closed.' }));
    expect(status.dataset.state).toBe('disconnected');
    expect(status.textContent).toContain('Disconnected — retrying');
    // While it still retries on its own there is no banner in the way.
    expect(container.querySelector('[data-testid="connection-banner"]')).toBeNull();

    await settle(() => host.setInfo({ state: 'connecting', attempt: 1, willRetry: false }));
    expect(status.textContent).toContain('Reconnecting… (attempt 2)');

    await settle(() => host.setInfo({ state: 'disconnected', attempt: 21, willRetry: false }));
    expect(status.textContent).toContain('Disconnected');
    const banner = byTestId(container, 'connection-banner');
    expect(banner.textContent).toContain('Lost the connection to the host');
    const button = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Reconnect now');
    expect(button).toBeDefined();
    await settle(() => button!.click());
    expect(host.reconnects).toBe(1);

    // While this window was away a tool came (its event never reached the page): the resync brings the count.
    const before = container.querySelector('.statusbar')?.textContent;
    registerTool(host, 'extra', { name: 'while_away', description: 'x', parameters: { type: 'object', properties: {} }, mode: 'read' });
    await settle();
    expect(container.querySelector('.statusbar')?.textContent).toBe(before);
    await settle(() => host.setInfo({ state: 'connected', attempt: 0 }));
    expect(status.textContent).toContain('Connected');
    expect(host.callsTo('host.status')).toHaveLength(2);
    expect(container.querySelector('.statusbar')?.textContent).toContain(counts(host));
    expect(container.querySelector('[data-testid="connection-banner"]')).toBeNull();
  });

  it('says "Not authorized" with what to do when the token is refused', async () => {
    const host = await RealHost.start();
    host.setInfo({ state: 'unauthorized' });
    const { container } = await renderShell(host);
    const status = byTestId(container, 'connection-status');
    expect(status.dataset.state).toBe('unauthorized');
    expect(status.textContent).toContain('Not authorized');
    const banner = byTestId(container, 'connection-banner');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toContain('#token=');
    expect(host.calls).toHaveLength(0);
  });

  it('without a connection no section promises an answer ("Asking the host…") under the banner; connecting, it does', async () => {
    const host = await RealHost.start();
    host.setInfo({ state: 'unauthorized' });
    const { container } = await renderShell(host);
    expect(byTestId(container, 'connection-banner')).toBeTruthy();
    expect(container.textContent).not.toContain('Asking the host');
    await settle(() => host.setInfo({ state: 'connecting', attempt: 1 }));
    expect(container.textContent).toContain('Asking the host');
  });
});
