// @vitest-environment happy-dom
// The status bar mirrors the connection state and what host.status reports.
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, cleanup, extension, FakeHost, renderShell, settle, tool } from './harness';

afterEach(cleanup);

describe('status bar', () => {
  it('shows Connecting… until the host is reached, then Connected with the data dir and settings version', async () => {
    const host = new FakeHost('connecting');
    host.extensions = [extension(), extension({ id: 'dice-and-stats', name: 'Dice and Stats' })];
    host.tools = ['a', 'b', 'c', 'd', 'e'].map((name) => tool({ name }));
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
    expect(byTestId(container, 'data-dir').textContent).toContain('/home/ada/.config/council-workbench');
    expect(byTestId(container, 'settings-version').textContent).toBe('Settings v1');
    expect(byTestId(container, 'host-mode').textContent).toContain('Browser');
    expect(container.querySelector('.statusbar')?.textContent).toContain('2 extensions · 5 tools · 0 members');
  });

  it('counts follow the tool and extension events, not the host.status snapshot', async () => {
    const host = new FakeHost('connected');
    host.tools = [tool()];
    host.extensions = [extension()];
    const { container } = await renderShell(host);
    const bar = () => container.querySelector('.statusbar')?.textContent;
    expect(bar()).toContain('1 extension · 1 tool · 0 members');
    await settle(() => host.emit({ type: 'tools.changed', tools: [tool({ name: 'x' }), tool({ name: 'y' })] }));
    await settle(() => host.emit({ type: 'extension.removed', id: 'knowledge-base' }));
    expect(bar()).toContain('0 extensions · 2 tools · 0 members');
  });

  it('shows a lost connection, offers to reconnect, and resyncs when it comes back', async () => {
    const host = new FakeHost('connected');
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

    host.dataDir = '/srv/elsewhere';
    await settle(() => host.setInfo({ state: 'connected', attempt: 0 }));
    expect(status.textContent).toContain('Connected');
    expect(host.callsTo('host.status')).toHaveLength(2);
    expect(byTestId(container, 'data-dir').textContent).toContain('/srv/elsewhere');
    expect(container.querySelector('[data-testid="connection-banner"]')).toBeNull();
  });

  it('says "Not authorized" with what to do when the token is refused', async () => {
    const host = new FakeHost('unauthorized');
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
    const host = new FakeHost('unauthorized');
    const { container } = await renderShell(host);
    expect(byTestId(container, 'connection-banner')).toBeTruthy();
    expect(container.textContent).not.toContain('Asking the host');
    await settle(() => host.setInfo({ state: 'connecting', attempt: 1 }));
    expect(container.textContent).toContain('Asking the host');
  });
});
