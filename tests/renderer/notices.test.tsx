// @vitest-environment happy-dom
// Host notices appear where the user looks, render host text as text, and are dismissed through the host.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, FakeHost, notice, renderShell, settle } from './harness';

afterEach(cleanup);

import { XSS } from '../fixtures/xss-corpus';

function notices(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('[data-testid="notice"]')];
}

function dismissButton(el: HTMLElement): HTMLButtonElement {
  const button = el.querySelector<HTMLButtonElement>('button');
  if (!button) throw new Error('notice has no button');
  return button;
}

describe('notices', () => {
  it('shows the notices host.status reports, with a readable title and the code', async () => {
    const host = new FakeHost();
    host.notices = [notice()];
    const { container } = await renderShell(host);
    const [first] = notices(container);
    expect(first).toBeDefined();
    expect(first!.textContent).toContain('Settings file recovered');
    expect(first!.textContent).toContain('SETTINGS_RECOVERED');
    expect(first!.textContent).toContain('It was kept aside as settings.json.corrupt-1');
    expect(first!.className).toContain('notice--warning');
    // Inside the main region, above the section content.
    expect(container.querySelector('main section[aria-label="Notices"]')?.contains(first!)).toBe(true);
  });

  it('renders a hostile notice message as text, never as markup', async () => {
    const host = new FakeHost();
    host.notices = [notice({ message: `Your settings file was kept aside as /tmp/${XSS}/settings.json` })];
    host.dataDir = `/tmp/${XSS}`;
    const { container } = await renderShell(host);
    expect(notices(container)[0]!.textContent).toContain(XSS);
    expect(container.querySelector('[data-testid="data-dir"]')?.textContent).toContain(XSS);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  });

  it('dismiss calls notices.dismiss with the notice id and removes it', async () => {
    const host = new FakeHost();
    host.notices = [notice({ id: 'n7' }), notice({ id: 'n8', level: 'info', code: 'EXTENSION_UPDATED', message: 'Updated.' })];
    const { container } = await renderShell(host);
    expect(notices(container)).toHaveLength(2);

    await settle(() => dismissButton(notices(container)[0]!).click());
    expect(host.callsTo('notices.dismiss')).toEqual([{ method: 'notices.dismiss', input: { id: 'n7' } }]);
    expect(notices(container)).toHaveLength(1);
    expect(notices(container)[0]!.textContent).toContain('Extension updated');
  });

  it('follows notice.added and notice.dismissed events from the host', async () => {
    const host = new FakeHost();
    const { container } = await renderShell(host);
    expect(notices(container)).toHaveLength(0);
    await settle(() => host.emit({ type: 'notice.added', notice: notice({ id: 'n2', level: 'error', code: 'WORKER_CRASHED', message: 'boom' }) }));
    expect(notices(container)).toHaveLength(1);
    expect(notices(container)[0]!.className).toContain('notice--error');
    // The same notice twice (event and snapshot racing) shows once.
    await settle(() => host.emit({ type: 'notice.added', notice: notice({ id: 'n2', level: 'error', code: 'WORKER_CRASHED', message: 'boom' }) }));
    expect(notices(container)).toHaveLength(1);
    await settle(() => host.emit({ type: 'notice.dismissed', id: 'n2' }));
    expect(notices(container)).toHaveLength(0);
  });

  it('keeps the notice and shows the error when the host refuses the dismissal', async () => {
    const host = new FakeHost();
    host.notices = [notice({ id: 'n3' })];
    host.handlers['notices.dismiss'] = () => ({
      ok: false,
      error: { code: 'HOST_SHUTDOWN', message: 'Not connected to the host, so notices.dismiss was not sent.', hint: 'Try again.' },
    });
    const { container } = await renderShell(host);
    await settle(() => dismissButton(notices(container)[0]!).click());
    const shown = notices(container);
    expect(shown).toHaveLength(2);
    const error = shown.find((n) => n.dataset.code === 'HOST_SHUTDOWN');
    expect(error?.textContent).toContain('Could not dismiss the notice');
    expect(error?.textContent).toContain('Not connected to the host');
    expect(error?.textContent).toContain('Try again.');
    expect(shown.some((n) => n.dataset.code === 'SETTINGS_RECOVERED')).toBe(true);

    // A local error is dismissed locally, without asking the host.
    await settle(() => dismissButton(error!).click());
    expect(notices(container)).toHaveLength(1);
    expect(host.callsTo('notices.dismiss')).toHaveLength(1);
  });
});
