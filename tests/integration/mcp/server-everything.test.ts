// A real MCP server published on npm (@modelcontextprotocol/server-everything) over stdio, through the host.
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { confBackend } from '../../../electron/core/settings/conf-backend';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import type { ToolInfo } from '../../../shared/types/tools';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../unit/mcp/harness';

const require = createRequire(import.meta.url);
const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

describe('@modelcontextprotocol/server-everything', () => {
  it('connects over stdio, registers its tools and answers echo and get-sum through tools.invoke', async () => {
    host = await createHost({
      checkOutputs: true,
      dataDir: tempDir(),
      mode: 'cli',
      settingsBackend: confBackend,
      log: silentLogger,
      bundledExtensionsDir: null,
      bundledPacksDir: null,
      approvalPolicy: patternApprovalPolicy(['mcp-everything:*']),
    });
    const added = await host.api.call(
      'mcp.add',
      { id: 'everything', name: 'Everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } as never,
      { origin: 'test' },
    );
    expect(added.ok).toBe(true);
    expect(await host.api.call('mcp.connect', { id: 'everything' }, { origin: 'test' })).toMatchObject({ ok: true, value: { status: 'connected' } });
    await waitFor(() => host!.registry.list({ source: 'mcp' }).length > 3, 'server-everything tools');

    const names = host.registry.list({ source: 'mcp' }).map((t: ToolInfo) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo']));
    const echo = await host.api.call('tools.invoke', { qualifiedName: 'mcp-everything:echo', args: { message: 'hello council' } }, { origin: 'test' });
    expect(echo).toMatchObject({ ok: true, value: { ok: true, content: expect.stringContaining('hello council') } });

    const sumName = names.find((n) => /sum|add/i.test(n));
    expect(sumName).toBeDefined();
    const sum = await host.api.call('tools.invoke', { qualifiedName: `mcp-everything:${sumName}`, args: { a: 2, b: 40 } }, { origin: 'test' });
    expect(sum).toMatchObject({ ok: true, value: { ok: true, content: expect.stringContaining('42') } });

    const wrong = await host.api.call('tools.invoke', { qualifiedName: 'mcp-everything:echo', args: { message: 5 } }, { origin: 'test' });
    expect(wrong).toMatchObject({ ok: true, value: { ok: false, error: { code: 'INVALID_ARGUMENTS' } } });
  });
});
