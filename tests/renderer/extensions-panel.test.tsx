// @vitest-environment happy-dom
// The Extensions section against a fake host: status, errors, permissions, actions, remove, log viewer, install.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtensionInfo } from '../../shared/events';
import { byLabel, byTestId, buttonNamed, cleanup, extension, FakeHost, navButton, renderShell, settle, spokenText, tool, typeInto } from './harness';

import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(() => {
  cleanup();
  delete window.__pwned;
});

const kb = extension();
const dice = extension({ id: 'dice-and-stats', name: 'Dice and Stats', toolCount: 2, status: 'starting' });
const mine = extension({
  id: 'my-ext',
  name: 'My Extension',
  version: '0.2.0',
  description: 'Mine.',
  source: 'user',
  status: 'failed',
  requested: ['tools', 'generation'],
  granted: ['tools'],
  toolCount: 0,
  error: 'Worker exited with code 1 three times in 5 minutes.',
});

async function openExtensions(list: ExtensionInfo[], setup: (host: FakeHost) => void = () => undefined) {
  const host = new FakeHost();
  host.extensions = structuredClone(list);
  setup(host);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Extensions').click());
  return { ...rendered, panel: byTestId(rendered.container, 'panel-extensions') };
}

function card(panel: HTMLElement, id: string): HTMLElement {
  const found = panel.querySelector<HTMLElement>(`[data-testid="extension"][data-id="${id}"]`);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

describe('extension list', () => {
  it('shows each extension with name, id, version, description, source and a status badge', async () => {
    const { panel, host } = await openExtensions([kb, dice, mine]);
    expect(host.callsTo('extensions.list')).toHaveLength(1);
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="extension"]')].map((c) => c.dataset.id)).toEqual(['knowledge-base', 'dice-and-stats', 'my-ext']);
    const own = card(panel, 'my-ext');
    expect(own.querySelector('h2')?.textContent).toBe('My Extension');
    expect(own.textContent).toContain('v0.2.0');
    expect(own.textContent).toContain('my-ext');
    expect(own.textContent).toContain('Mine.');
    expect(own.textContent).toContain('User-installed');
    expect(card(panel, 'knowledge-base').textContent).toContain('Bundled');
    expect(spokenText(byTestId(card(panel, 'knowledge-base'), 'extension-status'))).toBe('Status: Running');
    expect(spokenText(byTestId(card(panel, 'dice-and-stats'), 'extension-status'))).toBe('Status: Starting');
    expect(panel.querySelector('.panel-summary')?.textContent).toContain('3 extensions · 1 running · 1 need attention');
  });

  it('puts a failure and its error text where the user looks, with Restart as the way out', async () => {
    const { panel, host } = await openExtensions([mine]);
    const own = card(panel, 'my-ext');
    expect(byTestId(own, 'extension-status').dataset.status).toBe('failed');
    const problem = byTestId(own, 'extension-problem');
    expect(problem.textContent).toContain('Restart to try again');
    expect(problem.textContent).toContain('Worker exited with code 1 three times in 5 minutes.');
    await settle(() => buttonNamed(own, 'Restart My Extension').click());
    expect(host.callsTo('extensions.restart').map((c) => c.input)).toEqual([{ id: 'my-ext' }]);
    expect(byTestId(card(panel, 'my-ext'), 'extension-status').dataset.status).toBe('running');
    expect(card(panel, 'my-ext').querySelector('[data-testid="extension-problem"]')).toBeNull();
  });

  it('follows extension.changed and extension.removed events', async () => {
    const { panel, host } = await openExtensions([kb]);
    await settle(() => host.emit({ type: 'extension.changed', extension: { ...kb, status: 'crashed', error: 'exit 3' } }));
    expect(byTestId(card(panel, 'knowledge-base'), 'extension-status').dataset.status).toBe('crashed');
    expect(byTestId(card(panel, 'knowledge-base'), 'extension-problem').textContent).toContain('exit 3');
    await settle(() => host.emit({ type: 'extension.changed', extension: dice }));
    expect(panel.querySelectorAll('[data-testid="extension"]')).toHaveLength(2);
    await settle(() => host.emit({ type: 'extension.removed', id: 'knowledge-base' }));
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="extension"]')].map((c) => c.dataset.id)).toEqual(['dice-and-stats']);
  });

  it('shows the empty state and the install form when nothing is installed', async () => {
    const { panel } = await openExtensions([]);
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No extensions installed');
    expect(byTestId(panel, 'install-form')).toBeTruthy();
  });
});

describe('permissions', () => {
  it('lists requested against granted permissions with a plain-language explanation of each', async () => {
    const { panel } = await openExtensions([mine]);
    const perms = [...card(panel, 'my-ext').querySelectorAll<HTMLElement>('[data-testid="permission"]')];
    expect(perms.map((p) => p.dataset.permission)).toEqual(['tools', 'generation']);
    expect(byTestId(perms[0]!, 'permission-state').textContent).toBe('Granted');
    expect(perms[0]!.textContent).toContain('may register tools that council members and the chat can call');
    expect(byTestId(perms[1]!, 'permission-state').textContent).toBe('Requested, not granted');
    expect(perms[1]!.textContent).toContain('may run its own LLM generations through your connections (uses your API credits)');
  });

  it('grants and revokes one permission at a time through the host', async () => {
    const { panel, host } = await openExtensions([mine]);
    await settle(() => buttonNamed(panel, 'Grant generation to My Extension').click());
    expect(host.callsTo('extensions.grant').map((c) => c.input)).toEqual([{ id: 'my-ext', permission: 'generation' }]);
    expect(byTestId(card(panel, 'my-ext').querySelectorAll<HTMLElement>('[data-testid="permission"]')[1]!, 'permission-state').textContent).toBe('Granted');
    await settle(() => buttonNamed(panel, 'Revoke tools from My Extension').click());
    expect(host.callsTo('extensions.revoke').map((c) => c.input)).toEqual([{ id: 'my-ext', permission: 'tools' }]);
    expect(byTestId(card(panel, 'my-ext').querySelectorAll<HTMLElement>('[data-testid="permission"]')[0]!, 'permission-state').textContent).toBe(
      'Requested, not granted',
    );
  });
});

describe('actions', () => {
  it('the enabled switch calls extensions.disable and extensions.enable', async () => {
    const { panel, host } = await openExtensions([kb]);
    const toggle = byLabel(card(panel, 'knowledge-base'), 'Enabled: Knowledge Base');
    expect(toggle.getAttribute('role')).toBe('switch');
    expect(toggle.checked).toBe(true);
    await settle(() => toggle.click());
    expect(host.callsTo('extensions.disable').map((c) => c.input)).toEqual([{ id: 'knowledge-base' }]);
    expect(byLabel(card(panel, 'knowledge-base'), 'Enabled: Knowledge Base').checked).toBe(false);
    expect(byTestId(card(panel, 'knowledge-base'), 'extension-status').dataset.status).toBe('disabled');
    await settle(() => byLabel(card(panel, 'knowledge-base'), 'Enabled: Knowledge Base').click());
    expect(host.callsTo('extensions.enable').map((c) => c.input)).toEqual([{ id: 'knowledge-base' }]);
  });

  it('marks the card busy while a call is in flight and sends nothing else meanwhile', async () => {
    let answer!: () => void;
    const { panel, host } = await openExtensions([kb], (h) => {
      h.handlers['extensions.restart'] = () => new Promise((resolve) => (answer = () => resolve({ ok: true, value: { ...kb, status: 'running' } })));
    });
    const own = card(panel, 'knowledge-base');
    await settle(() => buttonNamed(own, 'Restart Knowledge Base').click());
    expect(own.getAttribute('aria-busy')).toBe('true');
    expect(buttonNamed(own, 'Restart Knowledge Base').getAttribute('aria-disabled')).toBe('true');
    expect(buttonNamed(own, 'Revoke tools from Knowledge Base').getAttribute('aria-disabled')).toBe('true');
    expect(own.textContent).toContain('Restarting…');
    await settle(() => buttonNamed(own, 'Revoke tools from Knowledge Base').click());
    await settle(() => byLabel(own, 'Enabled: Knowledge Base').click());
    expect(host.callsTo('extensions.revoke')).toHaveLength(0);
    expect(host.callsTo('extensions.disable')).toHaveLength(0);
    await settle(() => answer());
    expect(own.getAttribute('aria-busy')).toBeNull();
  });

  it('shows a refused action inline with code, message and hint', async () => {
    const { panel } = await openExtensions([kb], (h) => {
      h.handlers['extensions.grant'] = () => ({ ok: false, error: { code: 'INVALID_INPUT', message: 'Does not request it.', hint: 'Check spindle.json.' } });
      h.handlers['extensions.revoke'] = () => ({ ok: false, error: { code: 'PERMISSION_DENIED', message: 'Not now.', hint: 'Try again later.' } });
    });
    await settle(() => buttonNamed(panel, 'Revoke tools from Knowledge Base').click());
    const error = byTestId(card(panel, 'knowledge-base'), 'inline-error');
    expect(error.dataset.code).toBe('PERMISSION_DENIED');
    expect(error.textContent).toContain('Could not revoke tools');
    expect(error.textContent).toContain('Not now.');
    expect(error.textContent).toContain('Try again later.');
  });

  it('offers Remove only for user-installed extensions, and asks first', async () => {
    const { panel, host } = await openExtensions([kb, mine]);
    expect(card(panel, 'knowledge-base').textContent).not.toContain('Remove');
    const own = card(panel, 'my-ext');
    await settle(() => buttonNamed(own, 'Remove My Extension…').click());
    const confirm = byTestId(own, 'confirm-remove');
    expect(confirm.textContent).toContain('cannot be undone');
    expect(document.activeElement).toBe(buttonNamed(confirm, 'Cancel'));
    await settle(() => buttonNamed(confirm, 'Cancel').click());
    expect(own.querySelector('[data-testid="confirm-remove"]')).toBeNull();
    expect(host.callsTo('extensions.remove')).toHaveLength(0);

    await settle(() => buttonNamed(own, 'Remove My Extension…').click());
    await settle(() => buttonNamed(byTestId(own, 'confirm-remove'), 'Remove').click());
    expect(host.callsTo('extensions.remove').map((c) => c.input)).toEqual([{ id: 'my-ext' }]);
    expect(panel.querySelector('[data-id="my-ext"]')).toBeNull();
  });

  it('"View its tools" opens Tools filtered to that extension', async () => {
    const { panel, container } = await openExtensions([kb, dice], (h) => {
      h.tools = [tool(), tool({ name: 'roll_dice', displayName: 'Roll Dice', extensionId: 'dice-and-stats' })];
    });
    await settle(() => buttonNamed(card(panel, 'dice-and-stats'), 'View its tools').click());
    expect(container.querySelector('main h1')?.textContent).toBe('Tools');
    const rows = [...container.querySelectorAll<HTMLButtonElement>('button.tool-row')].map((b) => b.dataset.qualifiedName);
    expect(rows).toEqual(['dice-and-stats:roll_dice']);
  });
});

describe('log viewer', () => {
  it('reads extensions.log when opened, appends live extension.log lines, and stops following when closed', async () => {
    const { panel, host, store } = await openExtensions([kb, dice], (h) => {
      h.logs = { 'knowledge-base': ['12:00:00 info Knowledge base loaded: 31 sections.'] };
    });
    const own = card(panel, 'knowledge-base');
    const show = buttonNamed(own, 'Show log');
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await settle(() => show.click());
    expect(host.callsTo('extensions.log').map((c) => c.input)).toEqual([{ id: 'knowledge-base' }]);
    expect(show.getAttribute('aria-expanded')).toBe('true');
    const log = byTestId(own, 'extension-log');
    expect(document.getElementById(show.getAttribute('aria-controls')!)).toBe(log);
    const text = log.querySelector('pre')!;
    expect(text.getAttribute('role')).toBe('log');
    expect(text.textContent).toBe('12:00:00 info Knowledge base loaded: 31 sections.');

    await settle(() => host.emit({ type: 'extension.log', id: 'knowledge-base', line: `12:00:01 warn ${XSS}` }));
    await settle(() => host.emit({ type: 'extension.log', id: 'dice-and-stats', line: 'not shown here' }));
    expect(text.textContent).toBe(`12:00:00 info Knowledge base loaded: 31 sections.\n12:00:01 warn ${XSS}`);
    expect(own.querySelector('img')).toBeNull();
    // Lines of logs nobody opened are not kept.
    expect(Object.keys(store.getState().extensions.logs)).toEqual(['knowledge-base']);

    await settle(() => buttonNamed(own, 'Hide log').click());
    expect(own.querySelector('[data-testid="extension-log"]')).toBeNull();
    expect(store.getState().extensions.logs).toEqual({});
  });

  it('keeps only the latest lines', async () => {
    const { panel, host } = await openExtensions([kb], (h) => {
      h.logs = { 'knowledge-base': Array.from({ length: 600 }, (_, i) => `line ${i}`) };
    });
    await settle(() => buttonNamed(card(panel, 'knowledge-base'), 'Show log').click());
    await settle(() => host.emit({ type: 'extension.log', id: 'knowledge-base', line: 'line 600' }));
    const lines = byTestId(panel, 'extension-log').querySelector('pre')!.textContent!.split('\n');
    expect(lines).toHaveLength(500);
    expect(lines[0]).toBe('line 101');
    expect(lines.at(-1)).toBe('line 600');
    expect(byTestId(panel, 'extension-log').textContent).toContain('(the latest 500)');
  });
});

describe('install from folder', () => {
  it('sends the typed folder and only the checked permissions, explaining each', async () => {
    const { panel, host } = await openExtensions([kb]);
    const form = byTestId(panel, 'install-form');
    expect(form.textContent).toContain('may register tools that council members and the chat can call');
    expect(form.textContent).toContain('may run its own LLM generations through your connections (uses your API credits)');
    await settle(() => typeInto(byLabel(form, 'Extension folder or .zip'), '  /home/ada/ext/weather  '));
    await settle(() => byLabel(form, /^tools/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').map((c) => c.input)).toEqual([{ folder: '/home/ada/ext/weather', grant: ['tools'] }]);
    expect(card(panel, 'weather')).toBeTruthy();
    expect(form.textContent).toContain('Installed weather');
    expect(byLabel(form, 'Extension folder or .zip').value).toBe('');
  });

  it('installs a .zip with everything it asks for and trusted, and says what an extension can and cannot reach', async () => {
    const { panel, host } = await openExtensions([kb]);
    const form = byTestId(panel, 'install-form');
    expect(byTestId(form, 'install-reach').textContent).toMatch(/cannot:.*API keys.*network/);
    await settle(() => typeInto(byLabel(form, 'Extension folder or .zip'), '/home/ada/Downloads/weather-main.zip'));
    await settle(() => byLabel(form, /^Everything it asks for/).click());
    expect((byLabel(form, /^tools/) as HTMLInputElement).disabled).toBe(true);
    await settle(() => byLabel(form, /^Let its tools run without asking/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').map((c) => c.input)).toEqual([{ folder: '/home/ada/Downloads/weather-main.zip', grant: 'requested', trust: true }]);
  });

  it('a card shows safe mode, the last crash, the worker containment, inert members and a trust switch', async () => {
    const lumi = extension({
      id: 'lumi_tools',
      name: 'Lumi Tools',
      requested: ['tools', 'oauth'],
      granted: ['tools'],
      safeMode: true,
      lastCrash: 'TypeError: spindle.toast is not a function',
      containment: "Node's permission model",
      inertTouched: ['toast', 'ui'],
      trusted: false,
    });
    const { panel, host } = await openExtensions([lumi], (h) => {
      h.handlers['extensions.trust'] = (input) => ({ ok: true, value: { ...lumi, trusted: (input as { trusted: boolean }).trusted } });
    });
    const own = card(panel, 'lumi_tools');
    expect(byTestId(own, 'extension-safe-mode').textContent).toContain('Safe mode');
    expect(byTestId(own, 'extension-last-crash').textContent).toContain('TypeError: spindle.toast is not a function');
    expect(byTestId(own, 'extension-containment').textContent).toContain("Node's permission model");
    expect(byTestId(own, 'extension-inert').textContent).toContain('toast, ui');
    const oauth = own.querySelector<HTMLElement>('[data-permission="oauth"]')!;
    expect(byTestId(oauth, 'permission-state').textContent).toBe('Requested, not available here');
    await settle(() => byLabel(own, 'Let its tools run without asking').click());
    expect(host.callsTo('extensions.trust').map((c) => c.input)).toEqual([{ id: 'lumi_tools', trusted: true }]);
    expect((byLabel(own, 'Let its tools run without asking') as HTMLInputElement).checked).toBe(true);
  });

  it('does not call the host without a folder, and shows a refused install inline', async () => {
    const { panel, host } = await openExtensions([kb], (h) => {
      h.handlers['extensions.install'] = () => ({
        ok: false,
        error: { code: 'INVALID_MANIFEST', message: 'No spindle.json in /tmp/x.', hint: 'An extension folder needs a spindle.json.' },
      });
    });
    const form = byTestId(panel, 'install-form');
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install')).toHaveLength(0);
    expect(document.activeElement).toBe(byLabel(form, 'Extension folder or .zip'));
    await settle(() => typeInto(byLabel(form, 'Extension folder or .zip'), '/tmp/x'));
    await settle(() => buttonNamed(form, 'Install').click());
    const error = byTestId(form, 'inline-error');
    expect(error.dataset.code).toBe('INVALID_MANIFEST');
    expect(error.textContent).toContain('No spindle.json in /tmp/x.');
    expect(error.textContent).toContain('An extension folder needs a spindle.json.');
    expect(byLabel(form, 'Extension folder or .zip').value).toBe('/tmp/x');
  });
});

describe('hostile strings', () => {
  it('renders extension-provided names, descriptions, errors and versions as text', async () => {
    const evil = extension({ id: 'evil', name: XSS, description: XSS, version: XSS, status: 'failed', error: XSS, source: 'user' });
    const { panel, container } = await openExtensions([evil], (h) => {
      h.handlers['extensions.restart'] = () => ({ ok: false, error: { code: 'INTERNAL', message: XSS, hint: XSS } });
    });
    const own = card(panel, 'evil');
    await settle(() => buttonNamed(own, `Restart ${XSS.replace(/\s+/g, ' ')}`).click());
    expect(own.querySelector('h2')?.textContent).toBe(XSS);
    expect(byTestId(own, 'extension-problem').textContent).toContain(XSS);
    expect(byTestId(own, 'inline-error').textContent).toContain(XSS);
    expect(container.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });
});

describe('frontend messages console', () => {
  it('shows what the backend sent, refreshes on a change, sends JSON to onFrontendMessage and refuses text that is not JSON', async () => {
    let sent: Array<{ at: number; payload: unknown }> = [{ at: 0, payload: { hello: XSS } }];
    const { panel, host } = await openExtensions([kb], (h) => {
      h.handlers['extensions.frontend'] = () => ({ ok: true, value: { messages: sent } });
      h.handlers['extensions.sendFrontend'] = () => ({ ok: true, value: { delivered: true } });
    });
    const own = card(panel, 'knowledge-base');
    await settle(() => buttonNamed(own, 'Frontend messages').click());
    const console = byTestId(own, 'frontend-console');
    expect(byTestId(console, 'frontend-messages').textContent).toContain(JSON.stringify({ hello: XSS }));
    expect(console.querySelector('img')).toBeNull();

    sent = [...sent, { at: 1, payload: 'second' }];
    await settle(() => host.emit({ type: 'extension.changed', extension: kb }));
    expect(byTestId(console, 'frontend-messages').querySelectorAll('li')).toHaveLength(2);

    const draft = byTestId(console, 'frontend-draft') as HTMLTextAreaElement;
    await settle(() => typeInto(draft, '{"ask": 1}'));
    await settle(() => buttonNamed(console, 'Send to Knowledge Base').click());
    expect(host.callsTo('extensions.sendFrontend').map((c) => c.input)).toEqual([{ id: 'knowledge-base', payload: { ask: 1 } }]);
    expect(console.textContent).toContain('Sent to its onFrontendMessage handlers.');

    await settle(() => typeInto(draft, '{not json'));
    await settle(() => buttonNamed(console, 'Send to Knowledge Base').click());
    expect(host.callsTo('extensions.sendFrontend')).toHaveLength(1);
    expect(console.textContent).toContain('Not JSON');
  });
});
