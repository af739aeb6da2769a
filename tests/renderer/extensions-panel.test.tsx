// @vitest-environment real-core
// The Extensions section against the real core (in memory) and real extension workers: status, errors, permissions,
// actions, remove, log viewer, install. Extensions are the test fixtures (tests/fixtures/extensions), a few written by
// the test itself, or the bundled ones where a test is about them; each is installed through the core and runs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, renderShell, settle, spokenText, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { BUNDLED_EXTENSIONS, extensionOf, extensionsSettled, FIXTURE_EXTENSIONS, recordAnswers, removeWrittenExtensions, writeExtension } from './real-tools';
import { FakeClock } from '../helpers/fake-time';

import { XSS, XSS_CORPUS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  removeWrittenExtensions();
  delete window.__pwned;
});

type Permission = 'tools' | 'generation' | 'interceptor';
interface Open {
  /** Start the bundled extensions too (three workers). */
  bundled?: boolean;
  /** Install these (a fixture name, or a folder path) with these grants, in order. */
  install?: Array<{ folder: string; grant?: Permission[] }>;
  /** Fake timers for the core (crash restarts wait for the test). */
  timers?: FakeClock;
}

const fixture = (name: string) => path.join(FIXTURE_EXTENSIONS, name);
/** requests tools and generation; registers five tools. */
const GENERATOR = { folder: fixture('generator'), grant: ['tools'] as Permission[] };

async function openExtensions({ bundled = false, install = [], timers }: Open = {}) {
  const host = await RealHost.start({ bundledExtensionsDir: bundled ? BUNDLED_EXTENSIONS : null, ...(timers ? { timers } : {}) });
  for (const { folder, grant = [] } of install) await host.arrange('extensions.install', { folder, grant });
  await extensionsSettled(host);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Extensions').click());
  return { ...rendered, panel: byTestId(rendered.container, 'panel-extensions') };
}

function card(panel: HTMLElement, id: string): HTMLElement {
  const found = panel.querySelector<HTMLElement>(`[data-testid="extension"][data-id="${id}"]`);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

/** Where the core keeps the copy of user-installed extension `id` (in its data folder). */
const installedFolder = (host: RealHost, id: string) => path.join(host.dataDir, 'extensions', id);

/** Settles the renderer once the core's extensions have stopped starting (a worker starting is not a call to wait on). */
async function settled(host: RealHost) {
  await settle(async () => void (await extensionsSettled(host)));
}

/** Crashes `id` (a worker that throws on load) until the core gives up on it: three crashes within five minutes. */
async function crashUntilFailed(host: RealHost, timers: FakeClock, id: string) {
  for (let i = 0; i < 10; i++) {
    const ext = await extensionOf(host, id);
    if (ext?.status === 'failed') return;
    timers.advance(10_000);
    await extensionsSettled(host);
  }
  throw new Error(`${id} never failed`);
}

/** An extension of the test's own: logs each `say` call's text, echoes frontend messages back, with the given name. */
function echoExtension(manifest: Record<string, unknown> = {}) {
  return writeExtension(
    { id: 'echo', name: 'Echo', ...manifest },
    `/* global spindle */
spindle.registerTool({ name: 'say', display_name: 'Say', description: 'Logs its text.', mode: 'read',
  parameters: { type: 'object', properties: { text: { type: 'string' }, times: { type: 'integer' } }, required: ['text'] } });
spindle.on('TOOL_INVOCATION', async ({ args }) => {
  for (let i = 0; i < (args.times ?? 1); i++) console.log(args.times ? args.text + ' ' + i : args.text);
  return 'said';
});
spindle.onFrontendMessage((payload) => spindle.sendToFrontend({ echo: payload }));
`,
  );
}

describe('extension list', () => {
  it('shows each extension with name, id, version, description, source and a status badge', async () => {
    const timers = new FakeClock();
    const { panel, host } = await openExtensions({ bundled: true, install: [GENERATOR, { folder: fixture('crash-on-load'), grant: ['tools'] }], timers });
    expect(host.callsTo('extensions.list')).toHaveLength(1);
    const core = await host.arrange('extensions.list', {});
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="extension"]')].map((c) => c.dataset.id)).toEqual(core.map((e) => e.id));
    const own = card(panel, 'generator');
    expect(own.querySelector('h2')?.textContent).toBe('Fixture: generator');
    expect(own.textContent).toContain('v0.0.1');
    expect(own.textContent).toContain('generator');
    expect(own.textContent).toContain('Calls spindle.generate.quiet/raw from tools and records every message it receives.');
    expect(own.textContent).toContain('User-installed');
    expect(card(panel, 'knowledge-base').textContent).toContain('Bundled');
    expect(spokenText(byTestId(card(panel, 'knowledge-base'), 'extension-status'))).toBe('Status: Running');
    expect(spokenText(byTestId(card(panel, 'dice-and-stats'), 'extension-status'))).toBe('Status: Running');
    // The worker that throws on load has crashed once (its restart waits on the fake timers).
    expect(byTestId(card(panel, 'crash-on-load'), 'extension-status').dataset.status).toBe('crashed');
    expect(panel.querySelector('.panel-summary')?.textContent).toContain('5 extensions · 4 running · 1 need attention');
  });

  it('puts a failure and its error text where the user looks, with Restart as the way out', async () => {
    const timers = new FakeClock();
    const { panel, host } = await openExtensions({ install: [{ folder: fixture('crash-on-load'), grant: ['tools'] }], timers });
    await settle(() => crashUntilFailed(host, timers, 'crash-on-load'));
    const own = card(panel, 'crash-on-load');
    expect(byTestId(own, 'extension-status').dataset.status).toBe('failed');
    const problem = byTestId(own, 'extension-problem');
    expect(problem.textContent).toContain('Restart to try again');
    expect(problem.textContent).toContain('cannot start: missing configuration');
    expect(byTestId(own, 'extension-last-crash').textContent).toContain('Error: cannot start: missing configuration');
    // The user fixes the extension's code, then restarts it.
    fs.writeFileSync(path.join(installedFolder(host, 'crash-on-load'), 'index.js'), '// fixed: nothing to register\n');
    await settle(() => buttonNamed(own, 'Restart Fixture: crash-on-load').click());
    expect(host.callsTo('extensions.restart').map((c) => c.input)).toEqual([{ id: 'crash-on-load' }]);
    await settled(host);
    expect((await extensionOf(host, 'crash-on-load'))!.status).toBe('running');
    expect(byTestId(card(panel, 'crash-on-load'), 'extension-status').dataset.status).toBe('running');
    expect(card(panel, 'crash-on-load').querySelector('[data-testid="extension-problem"]')).toBeNull();
  });

  it('follows extension.changed and extension.removed events', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    // Another window disables it, installs another and removes the first.
    await settle(async () => void (await host.arrange('extensions.disable', { id: 'generator' })));
    expect(byTestId(card(panel, 'generator'), 'extension-status').dataset.status).toBe('disabled');
    await settle(async () => void (await host.arrange('extensions.install', { folder: fixture('seed-example'), grant: ['tools'] })));
    await settled(host);
    expect(panel.querySelectorAll('[data-testid="extension"]')).toHaveLength(2);
    expect(byTestId(card(panel, 'seed-example'), 'extension-status').dataset.status).toBe('running');
    await settle(async () => void (await host.arrange('extensions.remove', { id: 'generator' })));
    expect([...panel.querySelectorAll<HTMLElement>('[data-testid="extension"]')].map((c) => c.dataset.id)).toEqual(['seed-example']);
    // Only the first list was asked for: the rest came as events.
    expect(host.callsTo('extensions.list')).toHaveLength(1);
  });

  it('shows the empty state and the install form when nothing is installed', async () => {
    const { panel } = await openExtensions();
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No extensions installed');
    expect(byTestId(panel, 'install-form')).toBeTruthy();
  });
});

describe('permissions', () => {
  it('lists requested against granted permissions with a plain-language explanation of each', async () => {
    const { panel } = await openExtensions({ install: [GENERATOR] });
    const perms = [...card(panel, 'generator').querySelectorAll<HTMLElement>('.ext-card__perms > ul > [data-testid="permission"]')];
    expect(perms.map((p) => p.dataset.permission)).toEqual(['tools', 'generation']);
    expect(byTestId(perms[0]!, 'permission-state').textContent).toBe('Granted');
    expect(perms[0]!.textContent).toContain('may register tools that council members and the chat can call');
    expect(byTestId(perms[1]!, 'permission-state').textContent).toBe('Requested, not granted');
    expect(perms[1]!.textContent).toContain('may run its own LLM generations through your connections (uses your API credits)');
  });

  it('grants and revokes one permission at a time through the host', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    await settle(() => buttonNamed(panel, 'Grant generation to Fixture: generator').click());
    expect(host.callsTo('extensions.grant').map((c) => c.input)).toEqual([{ id: 'generator', permission: 'generation' }]);
    expect((await extensionOf(host, 'generator'))!.granted).toEqual(['tools', 'generation']);
    await settled(host);
    expect(byTestId(card(panel, 'generator').querySelectorAll<HTMLElement>('[data-testid="permission"]')[1]!, 'permission-state').textContent).toBe('Granted');
    expect(host.core.registry.list({ extensionId: 'generator' })).toHaveLength(7);
    await settle(() => buttonNamed(panel, 'Revoke tools from Fixture: generator').click());
    expect(host.callsTo('extensions.revoke').map((c) => c.input)).toEqual([{ id: 'generator', permission: 'tools' }]);
    await settled(host);
    expect((await extensionOf(host, 'generator'))!.granted).toEqual(['generation']);
    // Without the tools permission its tools are gone from the core.
    expect(host.core.registry.list({ extensionId: 'generator' })).toEqual([]);
    expect(byTestId(card(panel, 'generator').querySelectorAll<HTMLElement>('[data-testid="permission"]')[0]!, 'permission-state').textContent).toBe(
      'Requested, not granted',
    );
  });
});

describe('other permissions', () => {
  it("offers, folded, what its manifest does not ask for; a grant says so to the host and shows as granted, not requested", async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    const others = byTestId(card(panel, 'generator'), 'other-permissions') as HTMLDetailsElement;
    expect(others.open).toBe(false);
    const offered = () => [...others.querySelectorAll<HTMLElement>('[data-testid="permission"]')].map((p) => p.dataset.permission);
    expect(offered()).toContain('image_gen');
    expect(offered()).not.toContain('tools');
    // What the Workbench does not have is not offered.
    expect(offered()).not.toContain('oauth');
    await settle(() => buttonNamed(others, 'Grant image_gen to Fixture: generator').click());
    expect(host.callsTo('extensions.grant').map((c) => c.input)).toEqual([{ id: 'generator', permission: 'image_gen', unrequested: true }]);
    await settled(host);
    expect((await extensionOf(host, 'generator'))!.granted).toEqual(['tools', 'image_gen']);
    const granted = card(panel, 'generator').querySelector<HTMLElement>('.ext-card__perms > ul > [data-permission="image_gen"]')!;
    expect(byTestId(granted, 'permission-state').textContent).toBe('Granted, not requested');
    expect(offered()).not.toContain('image_gen');
    // Revoked, it goes back among the others.
    await settle(() => buttonNamed(panel, 'Revoke image_gen from Fixture: generator').click());
    await settled(host);
    expect(offered()).toContain('image_gen');
  });
});

describe('actions', () => {
  it('the enabled switch calls extensions.disable and extensions.enable', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    const toggle = byLabel(card(panel, 'generator'), 'Enabled: Fixture: generator');
    expect(toggle.getAttribute('role')).toBe('switch');
    expect(toggle.checked).toBe(true);
    await settle(() => toggle.click());
    expect(host.callsTo('extensions.disable').map((c) => c.input)).toEqual([{ id: 'generator' }]);
    expect(byLabel(card(panel, 'generator'), 'Enabled: Fixture: generator').checked).toBe(false);
    expect(byTestId(card(panel, 'generator'), 'extension-status').dataset.status).toBe('disabled');
    expect(await extensionOf(host, 'generator')).toMatchObject({ enabled: false, status: 'disabled' });
    expect(host.core.registry.list({ extensionId: 'generator' })).toEqual([]);
    await settle(() => byLabel(card(panel, 'generator'), 'Enabled: Fixture: generator').click());
    expect(host.callsTo('extensions.enable').map((c) => c.input)).toEqual([{ id: 'generator' }]);
    await settled(host);
    expect(await extensionOf(host, 'generator')).toMatchObject({ enabled: true, status: 'running' });
    expect(byTestId(card(panel, 'generator'), 'extension-status').dataset.status).toBe('running');
  });

  it('marks the card busy while a call is in flight and sends nothing else meanwhile', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    const own = card(panel, 'generator');
    const slow = host.hold('extensions.restart');
    await settle(() => buttonNamed(own, 'Restart Fixture: generator').click());
    expect(own.getAttribute('aria-busy')).toBe('true');
    expect(buttonNamed(own, 'Restart Fixture: generator').getAttribute('aria-disabled')).toBe('true');
    expect(buttonNamed(own, 'Revoke tools from Fixture: generator').getAttribute('aria-disabled')).toBe('true');
    expect(own.textContent).toContain('Restarting…');
    await settle(() => buttonNamed(own, 'Revoke tools from Fixture: generator').click());
    await settle(() => byLabel(own, 'Enabled: Fixture: generator').click());
    expect(host.callsTo('extensions.revoke')).toHaveLength(0);
    expect(host.callsTo('extensions.disable')).toHaveLength(0);
    await settle(() => slow.release());
    await settled(host);
    expect(own.getAttribute('aria-busy')).toBeNull();
    expect((await extensionOf(host, 'generator'))!.granted).toEqual(['tools']);
  });

  it('shows a refused action inline with code, message and hint', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    // The link is down (RealHost answers as the WebSocket transport does: nothing is sent). The core itself refuses
    // nothing the card offers for a running extension.
    await settle(() => host.setInfo({ state: 'disconnected', willRetry: true }));
    await settle(() => buttonNamed(panel, 'Revoke tools from Fixture: generator').click());
    const error = byTestId(card(panel, 'generator'), 'inline-error');
    expect(error.dataset.code).toBe('HOST_SHUTDOWN');
    expect(error.textContent).toContain('Could not revoke tools');
    expect(error.textContent).toContain('Not connected to the host, so extensions.revoke was not sent.');
    expect(error.textContent).toContain('The workbench reconnects on its own; try again in a moment.');
    expect((await extensionOf(host, 'generator'))!.granted).toEqual(['tools']);
  });

  it('offers Remove only for user-installed extensions, and asks first', async () => {
    const { panel, host } = await openExtensions({ bundled: true, install: [GENERATOR] });
    expect(card(panel, 'knowledge-base').textContent).not.toContain('Remove');
    const installedAt = installedFolder(host, 'generator');
    expect(fs.existsSync(path.join(installedAt, 'spindle.json'))).toBe(true);
    const own = card(panel, 'generator');
    await settle(() => buttonNamed(own, 'Remove Fixture: generator…').click());
    const confirm = byTestId(own, 'confirm-remove');
    expect(confirm.textContent).toContain('cannot be undone');
    expect(document.activeElement).toBe(buttonNamed(confirm, 'Cancel'));
    await settle(() => buttonNamed(confirm, 'Cancel').click());
    expect(own.querySelector('[data-testid="confirm-remove"]')).toBeNull();
    expect(host.callsTo('extensions.remove')).toHaveLength(0);

    await settle(() => buttonNamed(own, 'Remove Fixture: generator…').click());
    await settle(() => buttonNamed(byTestId(own, 'confirm-remove'), 'Remove').click());
    expect(host.callsTo('extensions.remove').map((c) => c.input)).toEqual([{ id: 'generator' }]);
    expect(panel.querySelector('[data-id="generator"]')).toBeNull();
    expect(await extensionOf(host, 'generator')).toBeUndefined();
    expect(fs.existsSync(installedAt)).toBe(false);
  });

  it('"View its tools" opens Tools filtered to that extension', async () => {
    const { panel, container } = await openExtensions({ bundled: true });
    await settle(() => buttonNamed(card(panel, 'dice-and-stats'), 'View its tools').click());
    expect(container.querySelector('main h1')?.textContent).toBe('Tools');
    const rows = [...container.querySelectorAll<HTMLButtonElement>('button.tool-row')].map((b) => b.dataset.qualifiedName);
    expect(rows).toEqual(['dice-and-stats:dice_odds', 'dice-and-stats:roll_dice']);
  });
});

describe('log viewer', () => {
  it('reads extensions.log when opened, appends live extension.log lines, and stops following when closed', async () => {
    const { panel, host, store } = await openExtensions({ install: [{ folder: echoExtension(), grant: ['tools'] }, GENERATOR] });
    const own = card(panel, 'echo');
    const show = buttonNamed(own, 'Show log');
    expect(show.getAttribute('aria-expanded')).toBe('false');
    await settle(() => show.click());
    expect(host.callsTo('extensions.log').map((c) => c.input)).toEqual([{ id: 'echo' }]);
    expect(show.getAttribute('aria-expanded')).toBe('true');
    const log = byTestId(own, 'extension-log');
    expect(document.getElementById(show.getAttribute('aria-controls')!)).toBe(log);
    const text = log.querySelector('pre')!;
    expect(text.getAttribute('role')).toBe('log');
    const before = (await host.arrange('extensions.log', { id: 'echo' })).lines;
    expect(text.textContent).toBe(before.join('\n'));
    expect(text.textContent).toContain('Tool registered: say');

    // Its worker logs a hostile line; the other extension logs too (not shown here).
    await settle(async () => void (await host.arrange('tools.invoke', { qualifiedName: 'echo:say', args: { text: XSS_CORPUS[0]! } })));
    await settle(async () => void (await host.arrange('extensions.restart', { id: 'generator' })));
    await settled(host);
    const after = (await host.arrange('extensions.log', { id: 'echo' })).lines;
    expect(after.some((line) => line.endsWith(XSS_CORPUS[0]!))).toBe(true);
    expect(text.textContent).toBe(after.join('\n'));
    expect(text.textContent).not.toContain('Restarting');
    expect(own.querySelector('img')).toBeNull();
    // Lines of logs nobody opened are not kept.
    expect(Object.keys(store.getState().extensions.logs)).toEqual(['echo']);

    await settle(() => buttonNamed(own, 'Hide log').click());
    expect(own.querySelector('[data-testid="extension-log"]')).toBeNull();
    expect(store.getState().extensions.logs).toEqual({});
  });

  it('keeps only the latest lines', async () => {
    const { panel, host } = await openExtensions({ install: [{ folder: echoExtension(), grant: ['tools'] }] });
    // The card follows the core's log events while the 600 lines arrive: React takes them inside act.
    await settle(async () => {
      await host.arrange('tools.invoke', { qualifiedName: 'echo:say', args: { text: 'line', times: 600 } });
      for (let i = 0; i < 100 && !(await host.arrange('extensions.log', { id: 'echo' })).lines.at(-1)?.endsWith('line 599'); i++) await new Promise((r) => setTimeout(r, 20));
    });
    await settle(() => buttonNamed(card(panel, 'echo'), 'Show log').click());
    await settle(async () => void (await host.arrange('tools.invoke', { qualifiedName: 'echo:say', args: { text: 'line 600' } })));
    const lines = byTestId(panel, 'extension-log').querySelector('pre')!.textContent!.split('\n');
    expect(lines).toHaveLength(500);
    // The latest 500 of the core's log, the live line included (the core adds lines of its own: each call, and a
    // note that a burst was stored without being streamed).
    const core = (await host.arrange('extensions.log', { id: 'echo' })).lines;
    expect(core.length).toBeGreaterThan(600);
    expect(lines).toEqual(core.slice(-500));
    expect(lines.some((line) => line.endsWith('worker info: line 600'))).toBe(true);
    expect(lines.some((line) => line.endsWith('worker info: line 0'))).toBe(false);
    expect(byTestId(panel, 'extension-log').textContent).toContain('(the latest 500)');
  });
});

describe('what an extension registered', () => {
  it('a card lists its macros, pipeline handlers and the events it listens to, not only "0 tools"', async () => {
    const folder = writeExtension(
      { id: 'weather_macros', name: 'Weather Macros', permissions: ['interceptor'] },
      `/* global spindle */
spindle.registerMacro({ name: 'weather', description: 'The weather', handler: () => 'stormy' });
spindle.registerMacro({ name: 'tide', description: 'The tide', handler: '' });
spindle.registerInterceptor(async (messages) => messages, 40);
spindle.on('MESSAGE_SENT', () => {});
spindle.on('CHAT_CHANGED', () => {});
spindle.on('WORLD_INFO_ACTIVATED', () => {});
`,
    );
    const { panel, host } = await openExtensions({ install: [{ folder, grant: ['interceptor'] }] });
    const info = (await extensionOf(host, 'weather_macros'))!;
    expect(info).toMatchObject({ toolCount: 0, events: ['CHAT_CHANGED', 'MESSAGE_SENT', 'WORLD_INFO_ACTIVATED'], registrations: { macros: ['weather', 'tide'] } });
    const own = card(panel, 'weather_macros');
    expect(own.textContent).toContain('0 tools');
    const registered = [...byTestId(own, 'extension-registered').querySelectorAll('li')].map((li) => li.textContent);
    // What it listens to that carries chat text says what it misses without chat_mutation (a panel that never lights up).
    expect(registered).toEqual([
      '2 macros: {{weather}}, {{tide}}',
      `In each turn’s prompt: ${info.registrations!.pipeline.join(', ')}`,
      'Listens to: CHAT_CHANGED, MESSAGE_SENT, WORLD_INFO_ACTIVATED',
      'Without chat_mutation, which reading the chat needs: it hears MESSAGE_SENT without its text; it does not hear WORLD_INFO_ACTIVATED.',
    ]);
    expect(info.registrations!.pipeline.join()).toContain('40');
  });
});

describe('extension commands', () => {
  it('its commands (spindle.commands) are buttons on its card, checked as Lumiverse checks them; running one tells its backend where the person is', async () => {
    const folder = writeExtension(
      { id: 'notes', name: 'Notes' },
      `/* global spindle */
spindle.commands.register([
  { id: 'open', label: 'Notes: Open', description: 'Opens the notebook', keywords: ['notes'], scope: 'global' },
  { id: 'summarize', label: 'Notes: Summarize chat', description: 'Writes a note of this chat', scope: 'chat' },
  { id: 'nameless' },
  { id: 'open', label: 'A second open' },
]);
spindle.commands.onInvoked((commandId, context) => console.log('ran ' + commandId + ' ' + JSON.stringify(context)));
`,
    );
    const { panel, host } = await openExtensions({ install: [{ folder }] });
    const info = (await extensionOf(host, 'notes'))!;
    expect(info.commands).toEqual([
      { id: 'open', label: 'Notes: Open', description: 'Opens the notebook', scope: 'global' },
      { id: 'summarize', label: 'Notes: Summarize chat', description: 'Writes a note of this chat', scope: 'chat' },
    ]);
    const commands = byTestId(card(panel, 'notes'), 'extension-commands');
    const summarize = buttonNamed(commands, 'Notes: Summarize chat');
    expect(summarize.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(summarize.getAttribute('aria-describedby')!)?.textContent).toBe('Writes a note of this chat (Open a chat in the Workbench first.)');
    // Pressed while it waits for a chat: nothing is sent.
    await settle(() => summarize.click());
    expect(host.callsTo('extensions.runCommand')).toHaveLength(0);
    await settle(() => buttonNamed(commands, 'Notes: Open').click());
    expect(host.callsTo('extensions.runCommand').map((c) => c.input)).toEqual([{ id: 'notes', commandId: 'open' }]);
    const ran = async () => ((await host.arrange('extensions.log', { id: 'notes' })).lines as string[]).filter((line) => line.includes('ran '));
    // Its backend logs it from its own process: waited for, not assumed by the next tick.
    await vi.waitFor(async () => expect((await ran()).at(-1)).toContain('ran open {"route":"/"}'), { timeout: 10_000 });
    // Through the host: a chat command needs a chat open; then it hears which.
    expect(await host.invoke('extensions.runCommand', { id: 'notes', commandId: 'summarize' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('open one') } });
    expect(await host.invoke('extensions.runCommand', { id: 'notes', commandId: 'nameless' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const session = await host.arrange('chat.sessions.create', { title: 'Harbour' });
    expect(await host.invoke('extensions.runCommand', { id: 'notes', commandId: 'summarize', chatId: 'no-such-session' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', path: '/chatId' } });
    expect(await host.invoke('extensions.runCommand', { id: 'notes', commandId: 'summarize', chatId: session.id })).toEqual({ ok: true, value: { ran: true } });
    await vi.waitFor(async () => expect((await ran()).at(-1)).toContain(`ran summarize {"route":"/chat/${session.id}","chatId":"${session.id}","characterId":"${session.id}","isGroupChat":false}`), { timeout: 10_000 });
    // Stopped, it has no commands: they go with its worker.
    await host.arrange('extensions.disable', { id: 'notes' });
    await settled(host);
    expect((await extensionOf(host, 'notes'))!.commands).toBeUndefined();
    expect(card(panel, 'notes').querySelector('[data-testid="extension-commands"]')).toBeNull();
  });
});

describe('install from folder', () => {
  it('reads what the folder asks for first, offers only that with what each does, and sends only the checked ones', async () => {
    const { panel, host } = await openExtensions({ install: [GENERATOR] });
    const form = byTestId(panel, 'install-form');
    // Nothing to grant before the folder is known (it used to list all 37 permissions whatever the extension).
    expect(form.querySelectorAll('.install__grants input[type="checkbox"]')).toHaveLength(0);
    expect(byTestId(form, 'install-requested').textContent).toContain('what its spindle.json asks for is listed here');
    const folder = fixture('seed-example');
    await settle(() => typeInto(byLabel(form, 'Or a folder or .zip on the host’s machine'), `  ${folder}  `));
    await settle(() => buttonNamed(form, 'Read what it asks for').click());
    expect(host.callsTo('extensions.inspect').map((c) => c.input)).toEqual([{ folder }]);
    expect(byTestId(form, 'install-requested').textContent).toContain('Fixture: seed-example 0.0.1 asks for these');
    expect([...form.querySelectorAll('.install__grants .perm__name')].map((el) => el.textContent)).toEqual(['tools']);
    expect(form.textContent).toContain('may register tools that council members and the chat can call');
    expect(form.textContent).not.toContain('may run its own LLM generations');
    await settle(() => byLabel(form, /^tools/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').map((c) => c.input)).toEqual([{ folder, grant: ['tools'] }]);
    await settled(host);
    expect(card(panel, 'seed-example')).toBeTruthy();
    expect(await extensionOf(host, 'seed-example')).toMatchObject({ source: 'user', granted: ['tools'], status: 'running' });
    expect(form.textContent, form.textContent!).toContain('Installed Fixture: seed-example 0.0.1.');
    expect(byLabel(form, 'Or a folder or .zip on the host’s machine').value).toBe('');
  });

  it('an extension already installed by the user is updated: the form offers to replace it, and the host replaces it', async () => {
    const folder = fixture('seed-example');
    const { panel, host } = await openExtensions({ install: [{ folder, grant: ['tools'] }] });
    const form = byTestId(panel, 'install-form');
    expect(form.querySelector('[data-testid="install-replace"]')).toBeNull();
    await settle(() => typeInto(byLabel(form, 'Or a folder or .zip on the host’s machine'), folder));
    await settle(() => buttonNamed(form, 'Read what it asks for').click());
    const replace = byLabel(form, /^Replace the installed Fixture: seed-example 0\.0\.1/) as HTMLInputElement;
    expect(replace.checked).toBe(true);
    await settle(() => byLabel(form, /^tools/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').map((c) => c.input)).toEqual([{ folder, grant: ['tools'], replace: true }]);
    await settled(host);
    expect(form.textContent).toContain('Installed Fixture: seed-example 0.0.1.');
    expect(await extensionOf(host, 'seed-example')).toMatchObject({ source: 'user', status: 'running' });

    // Unchecked, it is an install like any other: the host refuses the id it has, saying how to update.
    await settle(() => typeInto(byLabel(form, 'Or a folder or .zip on the host’s machine'), folder));
    await settle(() => buttonNamed(form, 'Read what it asks for').click());
    await settle(() => byLabel(form, /^Replace the installed/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').at(-1)!.input).toEqual({ folder, grant: [] });
    expect(form.textContent).toContain('is already installed');
    expect(form.textContent).toContain('replace');
  });

  it('installs a .zip with everything it asks for and trusted, and says what an extension can and cannot reach', async () => {
    const { panel, host } = await openExtensions();
    const zip = path.join(path.dirname(echoExtension({ permissions: ['tools', 'generation'] })), 'echo.zip');
    // spindle.json at the top of the archive, as a downloaded extension comes.
    const { execFileSync } = await import('node:child_process');
    execFileSync('zip', ['-qr', zip, '.'], { cwd: path.join(path.dirname(zip), 'echo') });
    const form = byTestId(panel, 'install-form');
    expect(byTestId(form, 'install-reach').textContent).toMatch(/cannot:.*API keys.*network/);
    await settle(() => typeInto(byLabel(form, 'Or a folder or .zip on the host’s machine'), zip));
    // Leaving the field reads the .zip's manifest (unpacked in a staging folder, removed again).
    await settle(() => void byLabel(form, 'Or a folder or .zip on the host’s machine').dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect([...form.querySelectorAll('.install__grants .perm__name')].map((el) => el.textContent)).toEqual(['tools', 'generation']);
    await settle(() => byLabel(form, /^Everything it asks for/).click());
    expect((byLabel(form, /^tools/) as HTMLInputElement).disabled).toBe(true);
    await settle(() => byLabel(form, /^Let its tools run without asking/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install').map((c) => c.input)).toEqual([{ folder: zip, grant: 'requested', trust: true }]);
    await settled(host);
    expect(await extensionOf(host, 'echo')).toMatchObject({ granted: ['tools', 'generation'], trusted: true, status: 'running' });
    // The first extension, installed from the empty page: the form stays where it was and says so.
    expect(byTestId(panel, 'install-form')).toBe(form);
    expect(form.textContent).toContain('Installed ');
  });

  it('a .zip chosen in the window is uploaded, read for what it asks, and installed (browser mode has no path to give)', async () => {
    const { panel, host } = await openExtensions();
    const folder = echoExtension({ permissions: ['tools', 'generation'] });
    const { execFileSync } = await import('node:child_process');
    const zip = path.join(path.dirname(folder), 'echo-upload.zip');
    execFileSync('zip', ['-qr', zip, '.'], { cwd: folder });
    const bytes = fs.readFileSync(zip);
    const form = byTestId(panel, 'install-form');
    const input = byLabel(form, 'Extension .zip (choose, or drop it here)');
    Object.defineProperty(input, 'files', { value: [new File([bytes], 'echo-upload.zip', { type: 'application/zip' })], configurable: true });
    await settle(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
    await settle();
    const asked = host.callsTo('extensions.inspectUpload').map((c) => c.input as { upload: { fileName: string; data: string } });
    expect(asked.map((a) => [a.upload.fileName, Buffer.from(a.upload.data, 'base64').equals(bytes)])).toEqual([['echo-upload.zip', true]]);
    expect(byTestId(form, 'install-upload').textContent).toContain('echo-upload.zip');
    expect([...form.querySelectorAll('.install__grants .perm__name')].map((el) => el.textContent)).toEqual(['tools', 'generation']);
    await settle(() => byLabel(form, /^tools/).click());
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.installUpload').map((c) => (c.input as { grant: string[] }).grant)).toEqual([['tools']]);
    await settled(host);
    expect(await extensionOf(host, 'echo')).toMatchObject({ source: 'user', granted: ['tools'] });
    expect(fs.readdirSync(path.join(host.dataDir, 'extensions')).filter((n) => n.startsWith('.install-'))).toEqual([]);
  });

  it('a card shows safe mode, the worker containment, inert members, what it was refused, permissions not available here and a trust switch', async () => {
    // A Lumiverse-style extension: asks for oauth (not here) and touches spindle members the Workbench keeps inert.
    const lumi = writeExtension(
      { id: 'lumi_tools', name: 'Lumi Tools', permissions: ['tools', 'oauth', 'databanks'] },
      `/* global spindle */\ntry { void spindle.theme.apply({}).catch(() => {}); } catch {}\ntry { void spindle.ui.panels; } catch {}\nvoid spindle.generate.quiet({ prompt: 'hi' }).catch(() => {});\n`,
    );
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-renderer-'));
    try {
      const host = await RealHost.start({ dataDir });
      await host.arrange('extensions.install', { folder: lumi, grant: ['tools', 'databanks'] });
      await extensionsSettled(host);
      const { container } = await renderShell(host);
      await settle(() => navButton(container, 'Extensions').click());
      const own = card(byTestId(container, 'panel-extensions'), 'lumi_tools');
      // Its refused request reaches the host a moment after its start (bounded wait for that answer).
      for (let i = 0; i < 200 && !(await extensionOf(host, 'lumi_tools'))!.refused; i++) await settle(() => new Promise((r) => setTimeout(r, 10)));
      const info = (await extensionOf(host, 'lumi_tools'))!;
      expect(byTestId(own, 'extension-containment').textContent).toContain("Node's permission model");
      expect(byTestId(own, 'extension-containment').textContent).toContain(info.containment!);
      expect(info.inertTouched).toEqual(expect.arrayContaining(['theme']));
      expect(byTestId(own, 'extension-inert').textContent).toContain(info.inertTouched!.join(', '));
      // What it was refused for a permission it lacks shows on its card, not only in its log.
      expect(info.refused).toEqual(['generation — spindle.generate.quiet']);
      expect(byTestId(own, 'extension-refused').textContent).toContain('generation — spindle.generate.quiet');
      const oauth = own.querySelector<HTMLElement>('[data-permission="oauth"]')!;
      expect(byTestId(oauth, 'permission-state').textContent).toBe('Requested, not available here');
      const databanks = own.querySelector<HTMLElement>('[data-permission="databanks"]')!;
      expect(byTestId(databanks, 'permission-state').textContent).toBe('Granted (answered empty here)');
      expect(info.trusted).toBe(false);
      await settle(() => byLabel(own, 'Let its tools run without asking').click());
      expect(host.callsTo('extensions.trust').map((c) => c.input)).toEqual([{ id: 'lumi_tools', trusted: true }]);
      expect((byLabel(own, 'Let its tools run without asking') as HTMLInputElement).checked).toBe(true);
      expect((await extensionOf(host, 'lumi_tools'))!.trusted).toBe(true);
      cleanup();
      await host.dispose();

      // The next start finds it failed three starts in a row (the core's own record of worker starts, as three crashed
      // app starts leave it): it starts disabled, in safe mode.
      fs.writeFileSync(path.join(dataDir, 'extension-starts.json'), JSON.stringify({ lumi_tools: { starting: false, failures: 3 } }));
      const again = await RealHost.start({ dataDir });
      const second = await renderShell(again);
      await settle(() => navButton(second.container, 'Extensions').click());
      const held = card(byTestId(second.container, 'panel-extensions'), 'lumi_tools');
      expect(await extensionOf(again, 'lumi_tools')).toMatchObject({ safeMode: true, status: 'disabled', enabled: false });
      expect(byTestId(held, 'extension-safe-mode').textContent).toContain('Safe mode');
    } finally {
      await disposeAllHosts();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('does not call the host without a folder, and shows a refused install inline', async () => {
    const { panel, host } = await openExtensions();
    const answers = recordAnswers(host, 'extensions.install');
    const form = byTestId(panel, 'install-form');
    await settle(() => buttonNamed(form, 'Install').click());
    expect(host.callsTo('extensions.install')).toHaveLength(0);
    expect(document.activeElement).toBe(byLabel(form, 'Or a folder or .zip on the host’s machine'));
    // A folder without a spindle.json.
    const folder = path.dirname(writeExtension({ id: 'x' }, ''));
    await settle(() => typeInto(byLabel(form, 'Or a folder or .zip on the host’s machine'), folder));
    await settle(() => buttonNamed(form, 'Install').click());
    const refused = answers[0]!;
    if (refused.ok) throw new Error('the core installed a folder without spindle.json');
    const error = byTestId(form, 'inline-error');
    expect(error.dataset.code).toBe(refused.error.code);
    expect(error.textContent).toContain(refused.error.message);
    if (refused.error.hint) expect(error.textContent).toContain(refused.error.hint);
    expect(byLabel(form, 'Or a folder or .zip on the host’s machine').value).toBe(folder);
    expect(await host.arrange('extensions.list', {})).toEqual([]);
  });
});

describe('hostile strings', () => {
  it('renders extension-provided names, descriptions and errors as text', async () => {
    const name = XSS_CORPUS[1]!;
    // The core refuses control characters (the corpus's line breaks) in a manifest: the one-line payloads, one text.
    const oneLine = XSS_CORPUS.filter((payload) => !payload.includes('\n')).join(' ');
    const evil = writeExtension({ id: 'evil', name, description: oneLine }, `throw new Error(${JSON.stringify(XSS)});\n`);
    const timers = new FakeClock();
    const { panel, container, host } = await openExtensions({ install: [{ folder: evil, grant: ['tools'] }], timers });
    const own = card(panel, 'evil');
    expect(own.querySelector('h2')?.textContent).toBe(name);
    expect(own.textContent).toContain(XSS_CORPUS[0]);
    expect(byTestId(own, 'extension-problem').textContent).toContain(XSS_CORPUS[0]);
    // Restarting it crashes it again, with the same hostile error.
    await settle(() => buttonNamed(own, `Restart ${name}`).click());
    await settled(host);
    expect(byTestId(card(panel, 'evil'), 'extension-problem').textContent).toContain(XSS_CORPUS[0]);
    expect(container.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });
});

describe('frontend messages console', () => {
  it('shows what the backend sent, refreshes on a change, sends JSON to onFrontendMessage and refuses text that is not JSON', async () => {
    const { panel, host } = await openExtensions({ install: [{ folder: echoExtension(), grant: ['tools'] }] });
    // The backend has sent something hostile already (its answer comes back from its worker: waited for, as below).
    await host.arrange('extensions.sendFrontend', { id: 'echo', payload: { hello: XSS } });
    const core = async () => (await host.arrange('extensions.frontend', { id: 'echo' })).messages;
    await settle(async () => {
      for (let i = 0; i < 100 && (await core()).length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    });
    const own = card(panel, 'echo');
    await settle(() => buttonNamed(own, 'Frontend messages').click());
    const console = byTestId(own, 'frontend-console');
    expect(byTestId(console, 'frontend-messages').textContent).toContain(JSON.stringify({ echo: { hello: XSS } }));
    expect(console.querySelector('img')).toBeNull();

    const draft = byTestId(console, 'frontend-draft') as HTMLTextAreaElement;
    await settle(() => typeInto(draft, '{"ask": 1}'));
    await settle(() => buttonNamed(console, 'Send to Echo').click());
    expect(host.callsTo('extensions.sendFrontend').map((c) => c.input)).toEqual([{ id: 'echo', payload: { ask: 1 } }]);
    expect(console.textContent).toContain('Sent to its onFrontendMessage handlers.');
    // Its handler answers; the list follows once the core says the extension changed.
    await settle(async () => {
      for (let i = 0; i < 100 && (await core()).length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    });
    expect(await core()).toHaveLength(2);
    expect(byTestId(console, 'frontend-messages').querySelectorAll('li')).toHaveLength(2);
    expect(byTestId(console, 'frontend-messages').textContent).toContain(JSON.stringify({ echo: { ask: 1 } }));

    await settle(() => typeInto(draft, '{not json'));
    await settle(() => buttonNamed(console, 'Send to Echo').click());
    expect(host.callsTo('extensions.sendFrontend')).toHaveLength(1);
    expect(console.textContent).toContain('Not JSON');
  });
});
