// A real stdio MCP server through McpManager and the real ToolRegistry: tools, invocation, refresh, errors, cancellation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHarness, stdioInput, waitFor, type Harness } from '../../unit/mcp/harness';
import { FakeClock } from '../../helpers/fake-time';

let h: Harness;
beforeEach(() => {
  h = makeHarness();
});
afterEach(async () => {
  await h.dispose();
});

const invoke = (name: string, args: Record<string, unknown> = {}, timeoutMs = 5000) => h.registry.invoke(name, args, { timeoutMs });

describe('stdio MCP server as a tool source', () => {
  it('registers its tools qualified mcp-<id>:<tool> with source mcp and invokes them end to end', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    const info = await h.manager.connect('fx');
    expect(info.status).toBe('connected');
    expect(info.server).toMatchObject({ name: 'fixture-basic', version: '1.2.3' });
    const echo = h.registry.get('mcp-fx:echo');
    expect(echo).toMatchObject({ source: 'mcp', name: 'echo', displayName: 'Echo', description: 'Echo text back', status: 'available', alias: 'mcp-fx__echo' });
    expect(info.toolCount).toBe(h.registry.list({ sourceId: 'mcp-fx' }).length);
    expect(info.toolCount).toBeGreaterThan(10);

    const outcome = await invoke('mcp-fx:echo', { text: 'hello there' });
    expect(outcome).toMatchObject({ ok: true, content: 'hello there' });
    // The registry validated the arguments against the server's inputSchema before the call.
    expect(await invoke('mcp-fx:echo', { text: 5 })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    // Host-supplied fields (__deadlineMs, context) never reach the server.
    const seen = await h.registry.invoke('mcp-fx:whoami', { q: 'x' }, { timeoutMs: 5000, context: 'chat so far' });
    expect(seen).toMatchObject({ ok: true });
    expect(JSON.parse((seen as { content: string }).content)).toEqual({ q: 'x' });
  });

  it('keeps title, schemas and annotations in mcp.tools and maps a 2020-12 $schema to draft-07', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    const tools = h.manager.tools('fx');
    const lookup = tools.find((tool) => tool.name === 'lookup');
    expect(lookup).toMatchObject({
      registered: true,
      title: 'Look up',
      annotations: { readOnlyHint: true, openWorldHint: false, title: 'Lookup (annotation title)' },
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema' },
    });
    expect(tools.find((tool) => tool.name === 'structured')?.outputSchema).toEqual({ type: 'object', properties: { answer: { type: 'number' } } });
    // The local $defs reference still validates after the dialect mapping.
    expect(await invoke('mcp-fx:lookup', { q: 3 })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(await invoke('mcp-fx:lookup', { q: 'x' })).toMatchObject({ ok: true, content: 'called lookup' });
  });

  it('R16: readOnlyHint makes a tool mode read only when the server is trusted', async () => {
    await h.manager.add(stdioInput('plain', 'basic', { enabled: false }));
    await h.manager.add(stdioInput('trusty', 'basic', { enabled: false, trusted: true }));
    await Promise.all([h.manager.connect('plain'), h.manager.connect('trusty')]);
    expect(h.registry.get('mcp-plain:lookup')?.mode).toBe('write');
    expect(h.registry.get('mcp-trusty:lookup')?.mode).toBe('read');
    // No hint stays write even when trusted.
    expect(h.registry.get('mcp-trusty:echo')?.mode).toBe('write');
    // Trust changes after the fact: update restarts and re-registers with the new mode.
    await h.manager.update('plain', { trusted: true });
    await waitFor(() => h.registry.get('mcp-plain:lookup')?.mode === 'read', 'mode read after trusting');
  });

  it('gives dotted and long MCP names stable provider-safe aliases', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    const dotted = h.registry.get('mcp-fx:admin.tools.list');
    const longName = `long_${'x'.repeat(95)}`;
    const long = h.registry.get(`mcp-fx:${longName}`);
    for (const tool of [dotted, long]) {
      expect(tool?.alias).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool?.alias).toMatch(/-[0-9a-f]{12}$/);
    }
    expect(await invoke(dotted!.alias)).toMatchObject({ ok: true, content: 'called admin.tools.list' });
    expect(await invoke(long!.alias)).toMatchObject({ ok: true, content: `called ${longName}` });
    // Stable: the same alias after a restart.
    const before = dotted!.alias;
    await h.manager.restart('fx');
    expect(h.registry.get('mcp-fx:admin.tools.list')?.alias).toBe(before);
  });

  it('isError results become MCP_TOOL_ERROR with the text', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    expect(await invoke('mcp-fx:fail')).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR', message: 'it broke: the widget is missing' } });
  });

  it('flattens content blocks to text and appends structuredContent when there is no text', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    const mixed = await invoke('mcp-fx:mixed');
    expect(mixed).toMatchObject({ ok: true });
    expect((mixed as { content: string }).content.split('\n')).toEqual([
      'hello',
      '[image: image/png]',
      '[audio: audio/wav]',
      '[resource: file:///tmp/report.txt (report)]',
      '[resource: memo://one text/plain]',
      'embedded text',
      '[resource: memo://blob application/octet-stream]',
    ]);
    expect(await invoke('mcp-fx:structured')).toMatchObject({ ok: true, content: '{"answer":42}' });
  });

  it('on a deadline answers TOOL_TIMEOUT and the server receives notifications/cancelled', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    // The tool would answer after a minute, past the test's own timeout: only the 300 ms deadline can end this call.
    const outcome = await invoke('mcp-fx:slow', { ms: 60_000 }, 300);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    const line = await waitFor(() => h.manager.logLines('fx').find((l) => l.includes('cancelled request')), 'the server to log the cancellation');
    expect(line).toMatch(/stderr .*cancelled request \d+: .*timed out/i);
    // The session survives a cancelled call.
    expect(await invoke('mcp-fx:echo', { text: 'still here' })).toMatchObject({ ok: true, content: 'still here' });
  });

  it('a caller abort cancels the request on the server too', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    const controller = new AbortController();
    const pending = h.registry.invoke('mcp-fx:slow', { ms: 20_000 }, { timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await waitFor(() => h.manager.logLines('fx').some((l) => l.includes('cancelled request')), 'the server to log the cancellation');
  });

  it('notifications/tools/list_changed refreshes the registry once per burst', async () => {
    // The refresh waits on fake time (the server is a real process), so "nothing more comes" is a count of timers, not a sleep.
    const clock = new FakeClock();
    await h.dispose();
    h = makeHarness({ clock, timers: clock });
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    expect(h.registry.get('mcp-fx:added_later')).toBeUndefined();
    // A connected server keeps timers of its own (the dropped-log counter).
    const idleTimers = clock.pendingTimers;
    const changedBefore = h.events.filter((e) => e.type === 'mcp.changed').length;
    expect(await invoke('mcp-fx:set_tools', { name: 'added_later' })).toMatchObject({ ok: true });
    // The five notifications came before the answer on the same pipe: together they set one refresh timer.
    expect(clock.pendingTimers).toBe(idleTimers + 1);
    expect(h.registry.get('mcp-fx:added_later')).toBeUndefined();
    clock.advance(50);
    await waitFor(() => h.registry.get('mcp-fx:added_later'), 'the new tool to register');
    expect(await invoke('mcp-fx:added_later')).toMatchObject({ ok: true, content: 'called added_later' });
    // One refresh → one mcp.changed, and no timer left that could start another.
    expect(h.events.filter((e) => e.type === 'mcp.changed').length - changedBefore).toBe(1);
    expect(clock.pendingTimers).toBe(idleTimers);
    expect(h.manager.get('fx').toolCount).toBe(h.registry.list({ sourceId: 'mcp-fx' }).length);
  });

  it('skips tools with invalid schemas or remote $ref, logs why, and registers the valid ones', async () => {
    await h.manager.add(stdioInput('bad', 'bad-schemas', { enabled: false }));
    const info = await h.manager.connect('bad');
    expect(info.status).toBe('connected');
    expect(h.registry.list({ sourceId: 'mcp-bad' }).map((tool) => tool.name)).toEqual(['good_one', 'good_two']);
    expect(info.toolCount).toBe(2);
    expect(info.skippedToolCount).toBe(6);
    const views = Object.fromEntries(h.manager.tools('bad').map((tool) => [tool.name, tool]));
    expect(views.bad_type?.error).toMatchObject({ code: 'INVALID_SCHEMA' });
    expect(views.remote_ref?.error).toMatchObject({ code: 'INVALID_SCHEMA', path: '/inputSchema/properties/a/$ref' });
    expect(views.file_ref?.error?.message).toMatch(/never fetched/);
    expect(views.null_schema?.error).toMatchObject({ code: 'INVALID_SCHEMA' });
    expect(views.prefix_items?.error?.message).toMatch(/prefixItems/);
    expect(views['bad name with spaces']?.error).toMatchObject({ code: 'INVALID_TOOL_NAME' });
    const log = h.manager.logLines('bad').join('\n');
    for (const name of ['bad_type', 'remote_ref', 'file_ref', 'null_schema', 'prefix_items']) expect(log).toContain(`tool "${name}" skipped`);
    expect(await invoke('mcp-bad:good_two')).toMatchObject({ ok: true, content: 'called good_two' });
  });

  it('disconnect unregisters the tools; remove forgets the config', async () => {
    await h.manager.add(stdioInput('fx', 'basic', { enabled: false }));
    await h.manager.connect('fx');
    expect(h.registry.list({ sourceId: 'mcp-fx' }).length).toBeGreaterThan(0);
    const pid = h.manager.get('fx').pid!;
    expect(pid).toBeGreaterThan(0);
    const info = await h.manager.disconnect('fx');
    expect(info.status).toBe('stopped');
    expect(h.registry.list({ sourceId: 'mcp-fx' })).toEqual([]);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await h.manager.remove('fx')).toBe(true);
    expect(h.configs).toEqual([]);
    expect(h.events.at(-1)).toEqual({ type: 'mcp.removed', id: 'fx' });
  });
});
