// Issue 18, item 5: no settings change is lost — 50 concurrent council adds through the contract, and 20 CLI
// processes adding members at once beside a running host on the same data folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import type { CouncilView } from '../../../shared/types/council';
import { builtCli } from '../../helpers/built-cli';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
let host: Host | undefined;
/** The CLI as `npm run cli` runs it, built once before these tests. */
let CLI = '';
beforeAll(() => {
  CLI = builtCli();
}, 120_000);

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

const addMember = (h: Host, role: string) => h.api.call('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', role }, { origin: 'test' });
const saveConnection = (h: Host, name: string) =>
  h.api.call('connections.save', { profile: { name, provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } }, { origin: 'test' });
const storedConnections = (dataDir: string) => (JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { connections: Array<{ name: string }> }).connections.map((c) => c.name);
const storedMcp = (dataDir: string) =>
  (JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { mcpServers: Array<{ id: string; name: string }> }).mcpServers.map((c) => [c.id, c.name]);
const storedRoles = (dataDir: string) => (JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { council: { members: Array<{ role: string }> } }).council.members.map((m) => m.role);

function cli(dataDir: string, ...args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve({ code, err }));
  });
}

describe('settings changes are never lost', () => {
  it('S3: 50 concurrent council adds through the contract keep all 50', async () => {
    const dataDir = tempDir();
    host = await testHost(dataDir);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => addMember(host!, `r${i}`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const view = (await host.api.call('council.get', {}, { origin: 'test' })) as { ok: true; value: CouncilView };
    expect(view.value.members).toHaveLength(50);
    expect(new Set(storedRoles(dataDir)).size).toBe(50);
  });

  it('S3, S5: 20 CLI processes adding members at once, beside a running host that adds its own, keep all of them', async () => {
    const dataDir = tempDir();
    host = await testHost(dataDir);
    const runs = Array.from({ length: 20 }, (_, i) => cli(dataDir, 'council', 'add-member', '--pack', 'story-council', '--item', 'plot-enforcer', '--role', `cli-${i}`));
    const own = addMember(host, 'host');
    const done = await Promise.all(runs);
    expect(done.filter((r) => r.code !== 0).map((r) => r.err)).toEqual([]);
    expect((await own).ok).toBe(true);
    // The host's next change is made on the document as stored, CLI members included.
    expect((await addMember(host, 'host-after')).ok).toBe(true);
    const roles = storedRoles(dataDir);
    expect(roles).toHaveLength(22);
    expect(roles).toEqual(expect.arrayContaining(['host', 'host-after', ...Array.from({ length: 20 }, (_, i) => `cli-${i}`)]));
  }, 180_000);

  it('S3: a connection a CLI process adds while the host runs survives the host\'s next connection save', async () => {
    const dataDir = tempDir();
    host = await testHost(dataDir);
    expect((await saveConnection(host, 'host-first')).ok).toBe(true);
    const run = await cli(dataDir, 'connections', 'add', '--type', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--name', 'from-cli');
    expect(run).toMatchObject({ code: 0 });
    // The host's list is from before the CLI's change; its save is applied to the list as stored.
    expect((await saveConnection(host, 'host-after')).ok).toBe(true);
    expect(storedConnections(dataDir)).toEqual(['host-first', 'from-cli', 'host-after']);
    const listed = (await host.api.call('connections.list', {}, { origin: 'test' })) as { ok: true; value: Array<{ name: string }> };
    expect(listed.value.map((c) => c.name)).toEqual(['host-first', 'from-cli', 'host-after']);
  }, 60_000);

  it("S3: an MCP server a CLI process adds while the host runs survives the host's next MCP changes (add, update, remove)", async () => {
    const dataDir = tempDir();
    host = await testHost(dataDir);
    const server = (id: string) => ({ id, name: id, transport: 'http', url: 'http://127.0.0.1:9/mcp', enabled: false, trusted: false });
    expect((await host.api.call('mcp.add', server('host-first'), { origin: 'test' })).ok).toBe(true);
    const run = await cli(dataDir, 'mcp', 'add', 'from-cli', '--url', 'http://127.0.0.1:9/mcp');
    expect(run).toMatchObject({ code: 0 });
    // The host's own list is from before the CLI's change; each of its changes applies to the list as stored.
    expect((await host.api.call('mcp.add', server('host-after'), { origin: 'test' })).ok).toBe(true);
    expect((await host.api.call('mcp.update', { id: 'host-first', patch: { name: 'renamed' } }, { origin: 'test' })).ok).toBe(true);
    expect((await host.api.call('mcp.remove', { id: 'host-after' }, { origin: 'test' })).ok).toBe(true);
    expect(storedMcp(dataDir)).toEqual([
      ['host-first', 'renamed'],
      ['from-cli', 'from-cli'],
    ]);
  }, 60_000);
});
