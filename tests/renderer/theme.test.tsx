// @vitest-environment real-core
// The theme switch writes settings.ui.theme through the real core (in memory), and the page follows the core's settings.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveTheme } from '../../renderer/src/stores/app/theme';
import { cleanup, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

function radio(container: HTMLElement, value: string): HTMLInputElement {
  const input = container.querySelector<HTMLInputElement>(`input[type="radio"][name="theme"][value="${value}"]`);
  if (!input) throw new Error(`no ${value} radio`);
  return input;
}

describe('theme', () => {
  it('starts from the host setting and follows settings.changed events', async () => {
    const host = await RealHost.start();
    await host.arrange('settings.update', { patch: { ui: { theme: 'light' } } });
    const { container } = await renderShell(host);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(radio(container, 'light').checked).toBe(true);

    // Another window changes it.
    await settle(async () => void (await host.arrange('settings.update', { patch: { ui: { theme: 'dark' } } })));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(radio(container, 'dark').checked).toBe(true);
  });

  it('asks the host to store the choice', async () => {
    const host = await RealHost.start();
    const { container } = await renderShell(host);
    expect(document.documentElement.dataset.theme).toBe('system');
    await settle(() => radio(container, 'dark').click());
    expect(host.callsTo('settings.update')).toEqual([{ method: 'settings.update', input: { patch: { ui: { theme: 'dark' } } } }]);
    expect(host.core.settings.get().ui.theme).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('is disabled until settings are known, and shows an error when the host refuses', async () => {
    const host = await RealHost.start();
    host.setInfo({ state: 'connecting' });
    const { container } = await renderShell(host);
    expect(container.querySelector('fieldset.theme-switch')?.hasAttribute('disabled')).toBe(true);

    host.breakSettingsWrites();
    await settle(() => host.setInfo({ state: 'connected' }));
    expect(container.querySelector('fieldset.theme-switch')?.hasAttribute('disabled')).toBe(false);
    await settle(() => radio(container, 'light').click());
    expect(document.documentElement.dataset.theme).toBe('system');
    expect(radio(container, 'system').checked).toBe(true);
    const error = container.querySelector('[data-testid="notice"][data-code="SETTINGS_WRITE_FAILED"]');
    expect(error?.textContent).toContain('Could not change the theme');
    expect(error?.textContent).toContain('Could not save settings: EISDIR');
    expect(error?.textContent).toContain('Check that the data folder is writable');
  });

  it('resolves "system" from the OS preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});
