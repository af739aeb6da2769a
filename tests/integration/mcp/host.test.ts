// MCP through the host contract and the CLI: settings persistence, events, tools.invoke, start without blocking.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import { runCli } from '../../../electron/headless/cli/run-cli';
import type { HostEvent } from '../../../shared/contract/events';
import { KEPT_SECRET } from '../../../shared/secret-mask';
import { SECRETS_FILE_NAME } from '../../../electron/core/connections/secret-store';
import { STORED_SECRET } from '../../../electron/core/mcp/secret-config-store';
import { startHttpFixture } from '../../fixtures/mcp/http-server';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { refusingSecretStore, stdioInput, STDIO_FIXTURE, waitFor } from '../../unit/mcp/harness';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.dispose()));
  cleanupTempDirs();
});

async function host(dataDir = tempDir()): Promise<Host> {
  const made = await createHost({
    checkOutputs: true,
    dataDir,
    mode: 'cli',
    settingsBackend: confBackend,
    log: silentLogger,
    bundledExtensionsDir: null,
    bundledPacksDir: null,
    mcp: { initializeTimeoutMs: 5000, crash: { baseDelayMs: 100 } },
    // MCP tools without a trusted readOnlyHint are write tools: approve them as `--approve` would.
    approvalPolicy: patternApprovalPolicy(['mcp-fx:*']),
  });
  hosts.push(made);
  return made;
}

describe('MCP secrets at the host boundary', () => {
  it('header values and secret-looking env values never leave the host; the mask sent back keeps them; a mask with nothing stored is refused', async () => {
    const server = await startHttpFixture();
    try {
      const h = await host();
      const events: HostEvent[] = [];
      h.onEvent((e) => events.push(e));
      const outputs: unknown[] = [];
      const call = async (method: string, input: unknown) => {
        const result = await h.api.call(method as never, input as never, { origin: 'ws' });
        outputs.push(result);
        return result;
      };
      await call('mcp.add', { id: 'web', transport: 'http', url: server.url, headers: { Authorization: 'Bearer s3cret-header' }, enabled: true });
      await call('mcp.add', { ...stdioInput('fx'), env: { API_TOKEN: 's3cret-env', LOG_LEVEL: 'debug' } });
      const listed = (await call('mcp.list', {})) as { ok: true; value: Array<{ config: { headers?: Record<string, string>; env?: Record<string, string> } }> };
      expect(listed.value.find((s) => s.config.headers)?.config.headers).toEqual({ Authorization: KEPT_SECRET });
      expect(listed.value.find((s) => s.config.env)?.config.env).toEqual({ API_TOKEN: KEPT_SECRET, LOG_LEVEL: 'debug' });
      await call('settings.get', {});
      await waitFor(() => server.seenHeaders.authorization, 'the server to see the header');
      expect(server.seenHeaders.authorization).toBe('Bearer s3cret-header');

      // Renaming the server keeps the stored header when the form sends the mask back.
      delete server.seenHeaders.authorization;
      const updated = await call('mcp.update', { id: 'web', patch: { name: 'Web tools', headers: { Authorization: KEPT_SECRET } } });
      expect(updated).toMatchObject({ ok: true, value: { config: { name: 'Web tools', headers: { Authorization: KEPT_SECRET } } } });
      await waitFor(() => server.seenHeaders.authorization, 'the server to see the header again');
      expect(server.seenHeaders.authorization).toBe('Bearer s3cret-header');

      expect(await call('mcp.update', { id: 'web', patch: { headers: { Authorization: KEPT_SECRET, 'X-New': KEPT_SECRET } } })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT', path: '/patch/headers/X-New' },
      });
      expect(await call('mcp.add', { id: 'other', transport: 'http', url: server.url, headers: { Authorization: KEPT_SECRET } })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT', path: '/headers/Authorization' },
      });
      expect(await call('settings.update', { patch: { mcpServers: [] } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/patch/mcpServers' } });

      const seen = JSON.stringify({ outputs, events });
      expect(seen).not.toContain('s3cret');
      expect(seen).toContain('settings.changed');
    } finally {
      await server.close();
    }
  });
});

describe('MCP credentials in the secret store', () => {
  const ctx = { origin: 'cli' } as const;
  const read = (dataDir: string, name: string) => fs.readFileSync(path.join(dataDir, name), 'utf8');

  it('keeps header values and secret env values out of settings.json, restores them after a restart, and deletes them with their server', async () => {
    const server = await startHttpFixture();
    try {
      const dataDir = tempDir();
      const first = await host(dataDir);
      await first.api.call('mcp.add', { id: 'web', transport: 'http', url: server.url, headers: { Authorization: 'Bearer s3cret-header' }, enabled: false }, ctx);
      await first.api.call('mcp.add', { ...stdioInput('fx'), env: { API_TOKEN: 's3cret-env', LOG_LEVEL: 'debug' }, enabled: false }, ctx);
      const settings = read(dataDir, 'settings.json');
      expect(settings).not.toContain('s3cret');
      expect(settings).toContain(STORED_SECRET);
      expect(settings).toContain('"LOG_LEVEL": "debug"');
      expect(read(dataDir, SECRETS_FILE_NAME)).toContain('s3cret-header');
      await first.dispose();

      const again = await host(dataDir);
      expect(await again.api.call('mcp.connect', { id: 'web' }, ctx)).toMatchObject({ ok: true, value: { status: 'connected' } });
      expect(server.seenHeaders.authorization).toBe('Bearer s3cret-header');

      expect(await again.api.call('mcp.update', { id: 'web', patch: { headers: null } }, ctx)).toMatchObject({ ok: true });
      expect(read(dataDir, SECRETS_FILE_NAME)).not.toContain('s3cret-header');
      expect(await again.api.call('mcp.remove', { id: 'fx' }, ctx)).toMatchObject({ ok: true, value: { removed: true } });
      expect(read(dataDir, SECRETS_FILE_NAME)).not.toContain('s3cret-env');
    } finally {
      await server.close();
    }
  });

  it('tells the person, with a notice, when a header value stays in settings.json because the secret store refuses it', async () => {
    const refusing = refusingSecretStore();
    const h = await createHost({ dataDir: tempDir(), mode: 'cli', settingsBackend: confBackend, log: silentLogger, bundledExtensionsDir: null, bundledPacksDir: null, secrets: refusing, checkOutputs: true });
    hosts.push(h);
    const events: HostEvent[] = [];
    h.onEvent((e) => events.push(e));
    expect(await h.api.call('mcp.add', { id: 'web', transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer s3cret' }, enabled: false }, ctx)).toMatchObject({ ok: true });
    const notices = events.flatMap((e) => (e.type === 'notice.added' ? [e.notice] : []));
    expect(notices).toEqual([expect.objectContaining({ level: 'warning', code: 'MCP_SECRET_IN_SETTINGS' })]);
    expect(notices[0]!.message).toContain('Authorization');
    expect(notices[0]!.message).not.toContain('s3cret');
  });

  it('moves a header value an earlier version wrote in settings.json into the secret store at start', async () => {
    const server = await startHttpFixture();
    try {
      const dataDir = tempDir();
      await (await host(dataDir)).dispose();
      const file = path.join(dataDir, 'settings.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      doc.mcpServers = [{ id: 'web', name: 'web', transport: 'http', url: server.url, headers: { Authorization: 'Bearer old-s3cret' }, trusted: false, enabled: false }];
      fs.writeFileSync(file, JSON.stringify(doc, null, 2));

      const h = await host(dataDir);
      expect(read(dataDir, 'settings.json')).not.toContain('old-s3cret');
      expect(read(dataDir, SECRETS_FILE_NAME)).toContain('old-s3cret');
      expect(await h.api.call('mcp.connect', { id: 'web' }, ctx)).toMatchObject({ ok: true, value: { status: 'connected' } });
      expect(server.seenHeaders.authorization).toBe('Bearer old-s3cret');
    } finally {
      await server.close();
    }
  });
});

describe('MCP through the host', () => {
  it('mcp.add persists the config, connects, emits mcp.changed, and tools.invoke reaches the server', async () => {
    const dataDir = tempDir();
    const h = await host(dataDir);
    const events: HostEvent[] = [];
    h.onEvent((event) => events.push(event));
    const added = await h.api.call('mcp.add', stdioInput('fx') as never, { origin: 'test' });
    expect(added).toMatchObject({ ok: true, value: { config: { id: 'fx', enabled: true, trusted: false }, sourceId: 'mcp-fx' } });
    const connected = await h.api.call('mcp.connect', { id: 'fx' }, { origin: 'test' });
    expect(connected).toMatchObject({ ok: true, value: { status: 'connected' } });
    expect(h.settings.get().mcpServers).toEqual([expect.objectContaining({ id: 'fx', command: process.execPath })]);
    expect(events.some((e) => e.type === 'mcp.changed' && e.server.status === 'connected')).toBe(true);
    await waitFor(() => events.some((e) => e.type === 'tools.changed' && e.tools.some((t) => t.qualifiedName === 'mcp-fx:echo')), 'tools.changed');

    const outcome = await h.api.call('tools.invoke', { qualifiedName: 'mcp-fx:echo', args: { text: 'via host' } }, { origin: 'test' });
    expect(outcome).toMatchObject({ ok: true, value: { ok: true, content: 'via host' } });
    const tools = await h.api.call('mcp.tools', { id: 'fx' }, { origin: 'test' });
    expect(tools.ok && (tools.value as Array<{ name: string }>).some((t) => t.name === 'lookup')).toBe(true);
    const log = await h.api.call('mcp.log', { id: 'fx' }, { origin: 'test' });
    expect(log.ok && (log.value as { lines: string[] }).lines.some((l) => l.includes('connected to fixture-basic'))).toBe(true);

    expect(await h.api.call('mcp.add', { id: 'Bad Id', transport: 'stdio', command: 'x' } as never, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/id' } });
    expect(await h.api.call('mcp.add', { id: 'nocmd', transport: 'stdio' } as never, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/command' } });
    expect(await h.api.call('mcp.connect', { id: 'missing' }, { origin: 'test' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('starts enabled servers at host start without waiting for a server that never answers', async () => {
    const dataDir = tempDir();
    const first = await host(dataDir);
    await first.api.call('mcp.add', stdioInput('mute', 'silent', { enabled: false }) as never, { origin: 'test' });
    await first.api.call('mcp.update', { id: 'mute', patch: { enabled: true } }, { origin: 'test' });
    await first.api.call('mcp.add', stdioInput('fx') as never, { origin: 'test' });
    await first.dispose();

    // Both still connecting once the host is up: it did not wait for either to answer initialize.
    const second = await host(dataDir);
    const statuses = (await second.api.call('mcp.list', {}, { origin: 'test' })) as { ok: true; value: Array<{ config: { id: string }; status: string }> };
    expect(statuses.value.map((s) => [s.config.id, s.status])).toEqual([
      ['mute', 'connecting'],
      ['fx', 'connecting'],
    ]);
    await waitFor(() => second.registry.get('mcp-fx:echo'), 'fx tools after host start');
    expect(second.mcp.get('mute').status).toBe('connecting');
  });

  it('the CLI adds, lists, shows tools, imports and removes', async () => {
    const dataDir = tempDir();
    const run = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const added = await run(['mcp', 'add', 'fx', '--command', process.execPath, '--arg', STDIO_FIXTURE, '--arg', '; echo $(id)', '--env', 'MY_KEY=a=b', '--trusted']);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('fx — fx [connected] (trusted)');
    const listed = await run(['mcp', 'list', '--json']);
    // The value of a secret-looking variable goes to the secret store as given and is shown masked.
    expect(JSON.parse(listed.out)[0].config).toMatchObject({ args: [STDIO_FIXTURE, '; echo $(id)'], env: { MY_KEY: KEPT_SECRET }, trusted: true });
    expect(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).toContain(`"MY_KEY": "${STORED_SECRET}"`);
    expect(fs.readFileSync(path.join(dataDir, SECRETS_FILE_NAME), 'utf8')).toContain('a=b');
    const tools = await run(['mcp', 'tools', 'fx']);
    expect(tools.out).toContain('mcp-fx:lookup  (alias mcp-fx__lookup, read)');
    expect(tools.out).toMatch(/mcp-fx:admin\.tools\.list {2}\(alias mcp-fx__admin_tools_list-[0-9a-f]{12}, read\)/);
    const file = path.join(dataDir, 'claude_desktop_config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { web: { url: 'http://127.0.0.1:1/mcp' }, bad: { command: '' } } }));
    const imported = await run(['mcp', 'import', file]);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('Added 1 server.');
    expect(imported.out).toContain('Skipped: /mcpServers/bad/command');
    expect((await run(['mcp', 'add', 'x', '--url', 'ftp://h/'])).code).toBe(1);
    expect((await run(['mcp', 'remove', 'fx'])).out).toBe('Removed.');
    expect(JSON.parse((await run(['mcp', 'list', '--json'])).out).map((s: { config: { id: string } }) => s.config.id)).toEqual(['web']);
    // Every CLI run builds a whole host; eight of them need more than the default budget on a loaded machine.
  }, 90_000);
});
