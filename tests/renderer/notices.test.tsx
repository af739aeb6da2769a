// @vitest-environment real-core
// Host notices appear where the user looks, render host text as text, and are dismissed through the host: the real
// core's notices (a settings file it had to recover, keys it cannot encrypt), in memory.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import type { SecretStore } from '../../electron/core/connections/secret-store';

import { XSS_CORPUS } from '../fixtures/xss-corpus';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

function notices(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('[data-testid="notice"]')];
}

function dismissButton(el: HTMLElement): HTMLButtonElement {
  const button = el.querySelector<HTMLButtonElement>('button');
  if (!button) throw new Error('notice has no button');
  return button;
}

/** A settings file that is not JSON: the core keeps it aside, loads the defaults and says so (SETTINGS_RECOVERED). */
const damagedSettings = (dataDir: string) => fs.writeFileSync(path.join(dataDir, 'settings.json'), '{ not json');

/** A desktop without encryption: every key it is given is refused (the core keeps MCP header values in settings and says so). */
const refusingSecrets = (): SecretStore => ({
  get: () => undefined,
  delete: () => {},
  describe: () => ({ backend: 'safeStorage' }),
  set: () => {
    throw new Error('Encryption is not available on this system.');
  },
});

describe('notices', () => {
  it('shows the notices host.status reports, with a readable title and the code', async () => {
    const host = await RealHost.start({}, { prepare: damagedSettings });
    const { container } = await renderShell(host);
    const [first] = notices(container);
    expect(first).toBeDefined();
    expect(first!.textContent).toContain('Settings file recovered');
    expect(first!.textContent).toContain('SETTINGS_RECOVERED');
    expect(first!.textContent).toContain('It was kept aside as');
    expect(first!.textContent).toContain('settings.json.corrupt-');
    expect(first!.className).toContain('notice--warning');
    // Inside the main region, above the section content.
    expect(container.querySelector('main section[aria-label="Notices"]')?.contains(first!)).toBe(true);
  });

  it('renders a hostile notice message as text, never as markup', async () => {
    // The data folder's name is markup: the core's notice names the file kept aside in it.
    const hostile = XSS_CORPUS[0]!;
    const host = await RealHost.start({}, { prefix: `cw-${hostile}-`, prepare: damagedSettings });
    const { container } = await renderShell(host);
    expect(notices(container)[0]!.textContent).toContain(hostile);
    expect(container.querySelector('[data-testid="data-dir"]')?.textContent).toContain(hostile);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('dismiss calls notices.dismiss with the notice id and removes it', async () => {
    // On the desktop the unencrypted key file gets a notice of its own.
    const host = await RealHost.start({ mode: 'desktop' }, { prepare: damagedSettings });
    const { container } = await renderShell(host);
    expect(notices(container).map((n) => n.dataset.code)).toEqual(['SETTINGS_RECOVERED', 'SECRETS_UNENCRYPTED']);
    const [recovered] = (await host.arrange('host.status', {})).notices;

    await settle(() => dismissButton(notices(container)[0]!).click());
    expect(host.callsTo('notices.dismiss')).toEqual([{ method: 'notices.dismiss', input: { id: recovered!.id } }]);
    expect(notices(container)).toHaveLength(1);
    expect(notices(container)[0]!.dataset.code).toBe('SECRETS_UNENCRYPTED');
    expect((await host.arrange('host.status', {})).notices.map((n) => n.code)).toEqual(['SECRETS_UNENCRYPTED']);
  });

  it('follows notice.added and notice.dismissed events from the host', async () => {
    const host = await RealHost.start({ secrets: refusingSecrets() });
    const { container } = await renderShell(host);
    expect(notices(container)).toHaveLength(0);
    // Another window adds an MCP server with a credential header the secret store refuses: the core says where it went.
    await settle(async () => {
      await host.arrange('mcp.add', { id: 'remote', transport: 'http', url: 'https://mcp.example.org/mcp', headers: { Authorization: 'Bearer t' }, enabled: false });
    });
    expect(notices(container)).toHaveLength(1);
    expect(notices(container)[0]!.dataset.code).toBe('MCP_SECRET_IN_SETTINGS');
    expect(notices(container)[0]!.className).toContain('notice--warning');
    // The same notice twice (event and snapshot racing: here a reconnect's resync) shows once.
    await settle(() => host.setInfo({ state: 'disconnected' }));
    await settle(() => host.setInfo({ state: 'connected' }));
    expect(host.callsTo('host.status')).toHaveLength(2);
    expect(notices(container)).toHaveLength(1);
    // Dismissed in the other window.
    const [notice] = (await host.arrange('host.status', {})).notices;
    await settle(async () => void (await host.arrange('notices.dismiss', { id: notice!.id })));
    expect(notices(container)).toHaveLength(0);
  });

  it('keeps the notice and shows the error when the dismissal cannot reach the host', async () => {
    const host = await RealHost.start({}, { prepare: damagedSettings });
    const { container } = await renderShell(host);
    // The link drops: the transport refuses to send.
    await settle(() => host.setInfo({ state: 'disconnected', willRetry: true }));
    await settle(() => dismissButton(notices(container)[0]!).click());
    const shown = notices(container);
    expect(shown).toHaveLength(2);
    const error = shown.find((n) => n.dataset.code === 'HOST_SHUTDOWN');
    expect(error?.textContent).toContain('Could not dismiss the notice');
    expect(error?.textContent).toContain('Not connected to the host');
    expect(error?.textContent).toContain('try again in a moment');
    expect(shown.some((n) => n.dataset.code === 'SETTINGS_RECOVERED')).toBe(true);
    expect((await host.arrange('host.status', {})).notices).toHaveLength(1);

    // A local error is dismissed locally, without asking the host.
    await settle(() => dismissButton(error!).click());
    expect(notices(container)).toHaveLength(1);
    expect(host.callsTo('notices.dismiss')).toHaveLength(1);
  });
});
