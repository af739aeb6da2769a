// @vitest-environment real-core
// One MCP server's tools (registered and skipped, annotations, schemas) and its log (read, then live), hostile strings as
// text, against the real core (in memory) and real MCP servers (the stdio fixture).
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, buttonNamed, cleanup, navButton, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { fixtureServer, serverState, status } from './real-mcp';
import { MCP_LOG_LINES_CAP } from '../../renderer/src/stores/mcp/mcp-slice';
import { FakeClock } from '../helpers/fake-time';
import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  delete window.__pwned;
});

/** The core with these fixture servers connected, the MCP section open; card(id) finds a server's card. */
async function openCards(...servers: Array<ReturnType<typeof fixtureServer>>) {
  return openCardsOn(await RealHost.start(), ...servers);
}

async function openCardsOn(host: RealHost, ...servers: Array<ReturnType<typeof fixtureServer>>) {
  // Tool calls made to arrange a test (tools.invoke by hand) run without asking.
  await host.arrange('settings.update', { patch: { safety: { approveAllWrites: false } } });
  for (const server of servers) await host.arrange('mcp.add', server);
  for (const server of servers) await serverState(host, server.id, status('connected'));
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'MCP servers').click());
  const panel = byTestId(rendered.container, 'panel-mcp');
  const card = (id = 'files') => panel.querySelector<HTMLElement>(`[data-testid="mcp-server"][data-id="${id}"]`)!;
  return { ...rendered, panel, card };
}

/** Checks `check` on each turn of the event loop (the server's output arriving), up to 5 s. */
async function eventuallyTrue(check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('the condition never came true');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function toolNamed(root: HTMLElement, name: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>('[data-testid="mcp-tool"]')].find((el) => el.dataset.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe('server tools', () => {
  it('lists registered and skipped tools with the reason, mode, annotations as chips and schemas as text', async () => {
    const { card, host } = await openCards(fixtureServer('files', 'basic', { trusted: true }), fixtureServer('bad', 'bad-schemas'));
    await settle(() => buttonNamed(card(), 'Show tools').click());
    expect(host.callsTo('mcp.tools').map((c) => c.input)).toEqual([{ id: 'files' }]);
    const view = byTestId(card(), 'mcp-tools');
    expect(view.textContent).toContain('14 registered');
    const served = await host.arrange('mcp.tools', { id: 'files' });

    const lookup = toolNamed(view, 'lookup');
    expect(lookup.dataset.registered).toBe('true');
    expect(lookup.textContent).toContain('Look up');
    expect(lookup.textContent).toContain('mcp-files:lookup');
    expect(byTestId(lookup, 'mcp-tool-mode').textContent).toBe('Read');
    expect(lookup.textContent).toContain('you trust the server');
    const chips = [...lookup.querySelectorAll('[data-testid="mcp-annotation"]')].map((c) => c.getAttribute('title'));
    expect(chips).toEqual(['readOnlyHint: true', 'openWorldHint: false', 'annotations.title']);
    expect(lookup.textContent).toContain('title: Lookup (annotation title)');
    const schema = byTestId(lookup, 'mcp-input-schema').textContent ?? '';
    expect(schema).toBe(JSON.stringify(served.find((t) => t.name === 'lookup')!.inputSchema, null, 2));
    expect(byTestId(toolNamed(view, 'structured'), 'mcp-output-schema').textContent).toContain('"answer"');
    // The description is the server's text (a link and a command to run), shown as text.
    const url = toolNamed(view, 'url');
    expect(url.querySelector('.mcp-tool__description')?.textContent).toBe('Open https://evil.example/login?next=$(touch /tmp/cw-mcp-marker-description) to continue');
    expect(url.querySelector('a')).toBeNull();

    await settle(() => buttonNamed(card('bad'), 'Show tools').click());
    const badView = byTestId(card('bad'), 'mcp-tools');
    expect(badView.textContent).toContain('2 registered · 6 skipped');
    const skipped = toolNamed(badView, 'bad_type');
    expect(skipped.dataset.registered).toBe('false');
    expect(byTestId(skipped, 'mcp-tool-state').textContent).toBe('Skipped');
    const reason = byTestId(skipped, 'mcp-tool-skip-reason');
    expect(reason.dataset.code).toBe('INVALID_SCHEMA');
    expect(reason.textContent).toContain('/inputSchema/type must be equal to one of the allowed values');
    expect(skipped.textContent).not.toContain('mcp-bad:bad_type');

    expect(view.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });

  it('explains that an untrusted server’s read-only hint does not make a read tool', async () => {
    const { card } = await openCards(fixtureServer('files'));
    await settle(() => buttonNamed(card(), 'Show tools').click());
    const peek = toolNamed(byTestId(card(), 'mcp-tools'), 'admin.tools.list');
    expect(byTestId(peek, 'mcp-tool-mode').textContent).toBe('Write');
    expect(peek.textContent).toContain('the server is not trusted');
    expect(peek.querySelector('.mcp-chip--yes')?.textContent).toContain('read-only');
  });

  it('reads the tools again when the server’s counts change, and opens them in Tools filtered to the server', async () => {
    const { card, host, container, store } = await openCards(fixtureServer('files'));
    await settle(() => buttonNamed(card(), 'Show tools').click());
    expect(host.callsTo('mcp.tools')).toHaveLength(1);
    expect(byTestId(card(), 'mcp-tools').querySelectorAll('[data-testid="mcp-tool"]')).toHaveLength(14);
    // The server adds a tool and says its list changed (set_tools, called by someone else): the core lists again.
    await settle(async () => {
      await host.core.api.call('tools.invoke', { qualifiedName: 'mcp-files:set_tools', args: { name: 'added_later' } }, { origin: 'ws' });
      await serverState(host, 'files', (s) => s.toolCount === 15);
    });
    expect(host.callsTo('mcp.tools')).toHaveLength(2);
    expect(byTestId(card(), 'mcp-tools').querySelectorAll('[data-testid="mcp-tool"]')).toHaveLength(15);
    toolNamed(byTestId(card(), 'mcp-tools'), 'added_later');

    await settle(() => buttonNamed(card(), 'Open in Tools').click());
    expect(container.querySelector('main h1')?.textContent).toBe('Tools');
    expect(store.getState().toolFilters).toMatchObject({ source: 'mcp', search: 'mcp-files:' });
  });
});

describe('server log', () => {
  it('reads the log, follows live mcp.log lines for this server only, and keeps hostile lines as text', async () => {
    // The server's arguments are hostile: the host's "starting" line quotes them.
    const { card, host } = await openCards(fixtureServer('files', 'basic', { args: [XSS] }), fixtureServer('other'));
    const coreLog = async (id = 'files') => (await host.arrange('mcp.log', { id })).lines;
    await settle(() => buttonNamed(card(), 'Show log').click());
    expect(host.callsTo('mcp.log').map((c) => c.input)).toEqual([{ id: 'files' }]);
    const log = byTestId(card(), 'mcp-log-text');
    expect(log.tagName).toBe('PRE');
    const before = await coreLog();
    expect(before).toHaveLength(2);
    expect(log.textContent).toBe(before.join('\n'));

    // Both servers restart (from another window): only this server's new lines appear, as they come.
    await settle(async () => {
      await host.core.api.call('mcp.restart', { id: 'files' }, { origin: 'ws' });
      await host.core.api.call('mcp.restart', { id: 'other' }, { origin: 'ws' });
    });
    const after = await coreLog();
    expect(after.length).toBeGreaterThan(before.length);
    expect(log.textContent).toBe(after.join('\n'));
    expect(log.textContent).toContain(JSON.stringify(XSS));
    for (const line of await coreLog('other')) expect(log.textContent).not.toContain(line);
    expect(byTestId(card(), 'mcp-log').textContent).toContain(`${after.length} lines`);
    expect(log.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();

    // Closing stops following; lines arriving meanwhile are the host's to keep.
    await settle(() => buttonNamed(card(), 'Hide log').click());
    await settle(async () => void (await host.core.api.call('mcp.restart', { id: 'files' }, { origin: 'ws' })));
    await settle(() => buttonNamed(card(), 'Show log').click());
    expect(host.callsTo('mcp.log')).toHaveLength(2);
    expect(byTestId(card(), 'mcp-log-text').textContent).toBe((await coreLog()).join('\n'));
  });

  it('keeps only the latest lines', async () => {
    // The core's clock is the test's: log lines are streamed at most 100 a second, and the test says when a second passed.
    const clock = new FakeClock();
    const { card, host } = await openCardsOn(await RealHost.start({ clock }), fixtureServer('files'));
    // The server writes as many stderr lines as the page keeps; with the host's own two, the log is longer than that.
    await host.arrange('tools.invoke', { qualifiedName: 'mcp-files:stderr_flood', args: { count: MCP_LOG_LINES_CAP } });
    const flooded = async () => (await host.arrange('mcp.log', { id: 'files' })).lines;
    await eventuallyTrue(async () => (await flooded()).some((line) => line.includes(`stderr flood ${MCP_LOG_LINES_CAP - 1}`)));
    await settle(() => buttonNamed(card(), 'Show log').click());
    // A second later, live lines after that (the server restarts).
    clock.advance(1000);
    await settle(async () => void (await host.core.api.call('mcp.restart', { id: 'files' }, { origin: 'ws' })));
    const all = await flooded();
    const text = byTestId(card(), 'mcp-log-text').textContent ?? '';
    const lines = text.split('\n');
    expect(lines).toHaveLength(MCP_LOG_LINES_CAP);
    expect(lines).toEqual(all.slice(-MCP_LOG_LINES_CAP));
    expect(lines.at(-1)).toContain('connected to fixture-basic');
    expect(text).toContain('log lines were stored without being streamed (more than 100 per second).');
    expect(byTestId(card(), 'mcp-log').textContent).toContain(`(the latest ${MCP_LOG_LINES_CAP})`);
  });
});
