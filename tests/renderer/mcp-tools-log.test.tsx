// @vitest-environment happy-dom
// One MCP server's tools (registered and skipped, annotations, schemas) and its log (read, then live), hostile strings as text.
import { afterEach, describe, expect, it } from 'vitest';
import { byTestId, buttonNamed, cleanup, FakeHost, navButton, renderShell, settle } from './harness';
import { installMcp, mcpServer, mcpTool, type McpFakes } from './mcp-fakes';
import { MCP_LOG_LINES_CAP } from '../../renderer/src/stores/mcp-slice';

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

async function openCard(init: Partial<McpFakes>) {
  const host = new FakeHost();
  const fakes = installMcp(host, init);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'MCP servers').click());
  const panel = byTestId(rendered.container, 'panel-mcp');
  const card = () => panel.querySelector<HTMLElement>('[data-testid="mcp-server"]')!;
  return { ...rendered, fakes, panel, card };
}

function toolNamed(root: HTMLElement, name: string): HTMLElement {
  const found = [...root.querySelectorAll<HTMLElement>('[data-testid="mcp-tool"]')].find((el) => el.dataset.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const tools = [
  mcpTool({
    name: 'lookup',
    title: 'Look up',
    description: `A read-only lookup ${XSS}`,
    annotations: { readOnlyHint: true, openWorldHint: false, title: 'Lookup (annotation title)' },
    mode: 'read',
    outputSchema: { type: 'object', properties: { answer: { type: 'number' } } },
  }),
  mcpTool({ name: 'admin.tools.list', qualifiedName: 'mcp-files:admin.tools.list', alias: 'mcp-files__h_2f1c', annotations: { readOnlyHint: true, destructiveHint: false } }),
  mcpTool({
    name: 'bad_type',
    qualifiedName: 'mcp-files:bad_type',
    alias: undefined,
    description: 'type objekt',
    inputSchema: { type: 'objekt' },
    registered: false,
    error: { code: 'INVALID_SCHEMA', message: 'inputSchema: type must be "object"', hint: 'Fix the tool definition in the server.' },
  }),
];

describe('server tools', () => {
  it('lists registered and skipped tools with the reason, mode, annotations as chips and schemas as text', async () => {
    const { card, host } = await openCard({ servers: [mcpServer({ trusted: true }, { toolCount: 2, skippedToolCount: 1 })], tools: { files: tools } });
    await settle(() => buttonNamed(card(), 'Show tools').click());
    expect(host.callsTo('mcp.tools').map((c) => c.input)).toEqual([{ id: 'files' }]);
    const view = byTestId(card(), 'mcp-tools');
    expect(view.textContent).toContain('2 registered · 1 skipped');

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
    expect(schema).toBe(JSON.stringify(tools[0]!.inputSchema, null, 2));
    expect(byTestId(lookup, 'mcp-output-schema').textContent).toContain('"answer"');
    // The description is the server's text, shown as text.
    expect(lookup.querySelector('.mcp-tool__description')?.textContent).toBe(`A read-only lookup ${XSS}`);

    const skipped = toolNamed(view, 'bad_type');
    expect(skipped.dataset.registered).toBe('false');
    expect(byTestId(skipped, 'mcp-tool-state').textContent).toBe('Skipped');
    const reason = byTestId(skipped, 'mcp-tool-skip-reason');
    expect(reason.dataset.code).toBe('INVALID_SCHEMA');
    expect(reason.textContent).toContain('type must be "object"');
    expect(reason.textContent).toContain('Fix the tool definition in the server.');
    expect(skipped.textContent).not.toContain('mcp-files:bad_type');

    expect(view.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();
  });

  it('explains that an untrusted server’s read-only hint does not make a read tool', async () => {
    const untrusted = [mcpTool({ name: 'peek', annotations: { readOnlyHint: true }, mode: 'write' })];
    const { card } = await openCard({ servers: [mcpServer()], tools: { files: untrusted } });
    await settle(() => buttonNamed(card(), 'Show tools').click());
    const peek = toolNamed(byTestId(card(), 'mcp-tools'), 'peek');
    expect(byTestId(peek, 'mcp-tool-mode').textContent).toBe('Write');
    expect(peek.textContent).toContain('the server is not trusted');
    expect(peek.querySelector('.mcp-chip--yes')?.textContent).toContain('read-only');
  });

  it('reads the tools again when the server’s counts change, and opens them in Tools filtered to the server', async () => {
    const { card, host, fakes, container, store } = await openCard({ servers: [mcpServer({}, { toolCount: 1 })], tools: { files: [tools[0]!] } });
    await settle(() => buttonNamed(card(), 'Show tools').click());
    expect(host.callsTo('mcp.tools')).toHaveLength(1);
    fakes.tools.files = tools;
    await settle(() => host.emit({ type: 'mcp.changed', server: mcpServer({}, { toolCount: 2, skippedToolCount: 1 }) }));
    expect(host.callsTo('mcp.tools')).toHaveLength(2);
    expect(byTestId(card(), 'mcp-tools').querySelectorAll('[data-testid="mcp-tool"]')).toHaveLength(3);

    await settle(() => buttonNamed(card(), 'Open in Tools').click());
    expect(container.querySelector('main h1')?.textContent).toBe('Tools');
    expect(store.getState().toolFilters).toMatchObject({ source: 'mcp', search: 'mcp-files:' });
  });
});

describe('server log', () => {
  it('reads the log, follows live mcp.log lines for this server only, and keeps hostile lines as text', async () => {
    const { card, host } = await openCard({ servers: [mcpServer(), mcpServer({ id: 'other', name: 'Other' })], logs: { files: ['[stderr] starting', '[host] connected'] } });
    await settle(() => buttonNamed(card(), 'Show log').click());
    expect(host.callsTo('mcp.log').map((c) => c.input)).toEqual([{ id: 'files' }]);
    const log = byTestId(card(), 'mcp-log-text');
    expect(log.tagName).toBe('PRE');
    expect(log.textContent).toBe('[stderr] starting\n[host] connected');

    await settle(() => host.emit({ type: 'mcp.log', id: 'files', line: `[stderr] ${XSS}` }));
    await settle(() => host.emit({ type: 'mcp.log', id: 'other', line: 'not mine' }));
    expect(log.textContent).toBe(`[stderr] starting\n[host] connected\n[stderr] ${XSS}`);
    expect(byTestId(card(), 'mcp-log').textContent).toContain('3 lines');
    expect(log.querySelector('img')).toBeNull();
    expect(window.__pwned).toBeUndefined();

    // Closing stops following; lines arriving meanwhile are the host's to keep.
    await settle(() => buttonNamed(card(), 'Hide log').click());
    await settle(() => host.emit({ type: 'mcp.log', id: 'files', line: 'while closed' }));
    await settle(() => buttonNamed(card(), 'Show log').click());
    expect(host.callsTo('mcp.log')).toHaveLength(2);
  });

  it('keeps only the latest lines', async () => {
    const { card, host } = await openCard({ servers: [mcpServer()], logs: { files: Array.from({ length: MCP_LOG_LINES_CAP }, (_, i) => `line ${i}`) } });
    await settle(() => buttonNamed(card(), 'Show log').click());
    await settle(() => host.emit({ type: 'mcp.log', id: 'files', line: 'newest' }));
    const text = byTestId(card(), 'mcp-log-text').textContent ?? '';
    const lines = text.split('\n');
    expect(lines).toHaveLength(MCP_LOG_LINES_CAP);
    expect(lines[0]).toBe('line 1');
    expect(lines.at(-1)).toBe('newest');
    expect(byTestId(card(), 'mcp-log').textContent).toContain(`(the latest ${MCP_LOG_LINES_CAP})`);
  });
});
