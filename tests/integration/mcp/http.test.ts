// A real Streamable HTTP MCP server on 127.0.0.1 through McpManager and the registry (the restart policy on fake time: tests/unit/mcp/restart-policy.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpFixture, type FixtureHttpServer } from '../../fixtures/mcp/http-server';
import { makeHarness, waitFor, type Harness } from '../../unit/mcp/harness';

let h: Harness;
let server: FixtureHttpServer;
beforeEach(async () => {
  h = makeHarness();
  server = await startHttpFixture();
});
afterEach(async () => {
  await h.dispose();
  await server.close();
});

describe('Streamable HTTP MCP server as a tool source', () => {
  it('registers its tools qualified mcp-<id>:<tool>, sends the configured headers, and invokes end to end', async () => {
    await h.manager.add({ id: 'web', transport: 'http', url: server.url, headers: { 'X-Api-Key': 'key-123456' }, enabled: false });
    const info = await h.manager.connect('web');
    expect(info.status).toBe('connected');
    expect(info.server).toMatchObject({ name: 'fixture-http', version: '2.0.0' });
    expect(h.registry.list({ sourceId: 'mcp-web' }).map((t) => t.qualifiedName)).toEqual(['mcp-web:echo', 'mcp-web:peek', 'mcp-web:slow']);
    expect(h.registry.get('mcp-web:echo')).toMatchObject({ source: 'mcp', displayName: 'Echo over HTTP', mode: 'write' });
    expect(h.registry.get('mcp-web:peek')?.mode).toBe('write');
    expect(server.seenHeaders['x-api-key']).toBe('key-123456');
    expect(await h.registry.invoke('mcp-web:echo', { text: 'hi' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'http:hi' });
  });

  it('on a deadline answers TOOL_TIMEOUT and the server receives notifications/cancelled', async () => {
    await h.manager.add({ id: 'web', transport: 'http', url: server.url, enabled: false, trusted: true });
    await h.manager.connect('web');
    expect(h.registry.get('mcp-web:peek')?.mode).toBe('read');
    const outcome = await h.registry.invoke('mcp-web:slow', { ms: 20_000 }, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TOOL_TIMEOUT' } });
    const seen = await waitFor(() => server.cancelled[0], 'the server to see notifications/cancelled');
    expect(seen).toMatch(/timed out/i);
  });

  it('a server that goes away is a crash: calls fail WORKER_CRASHED, its tools turn unavailable, and it reconnects when the server is back', async () => {
    await h.manager.add({ id: 'web', transport: 'http', url: server.url, enabled: false });
    await h.manager.connect('web');
    expect(await h.registry.invoke('mcp-web:echo', { text: 'a' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'http:a' });
    const port = Number(new URL(server.url).port);
    await server.close();
    // Two calls find it gone at once: both say so, and it is counted as one crash.
    const [lost, alsoLost] = await Promise.all([
      h.registry.invoke('mcp-web:echo', { text: 'b' }, { timeoutMs: 5000 }),
      h.registry.invoke('mcp-web:peek', {}, { timeoutMs: 5000 }),
    ]);
    expect(lost).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect(alsoLost).toMatchObject({ ok: false, error: { code: 'WORKER_CRASHED' } });
    expect(h.manager.get('web')?.recentCrashes).toBe(1);
    expect([lost, alsoLost].map((o) => (o.ok ? '' : o.error.message)).join('\n')).toContain('MCP server "web" cannot be reached');
    expect(h.manager.get('web')?.status).not.toBe('connected');
    expect(h.registry.get('mcp-web:echo')?.status).toBe('unavailable');
    // The same address answers again: the backoff restart connects a new session on its own.
    server = await startHttpFixture(port);
    await waitFor(() => h.manager.get('web')?.status === 'connected' || undefined, 'the server to reconnect');
    expect(await h.registry.invoke('mcp-web:echo', { text: 'c' }, { timeoutMs: 5000 })).toMatchObject({ ok: true, content: 'http:c' });
  });

  it('a server that is not listening fails to connect with a clear error', async () => {
    await server.close();
    await h.manager.add({ id: 'gone', transport: 'http', url: server.url, enabled: false });
    const info = await h.manager.connect('gone');
    expect(info.status).toBe('crashed');
    expect(info.lastError).toMatchObject({ code: 'MCP_CONNECT_FAILED' });
    expect(info.lastError?.message).toContain('MCP server "gone" failed to start');
    server = await startHttpFixture();
  });
});
