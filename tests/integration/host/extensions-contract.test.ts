// Issue 3 through the contract: install without a grant, grant, revoke, disable, enable, remove; tools follow.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import type { ExtensionInfo } from '../../../shared/contract/events';
import type { CouncilRun } from '../../../shared/types/council';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { testHost } from '../../helpers/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const SEED_EXAMPLE = path.resolve('tests/fixtures/extensions/seed-example');
let host: Host | undefined;

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

async function call<T>(method: string, input: unknown): Promise<T> {
  const result = await host!.api.call(method, input, { origin: 'test' });
  if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const toolsOf = async (id: string) => (await call<ToolInfo[]>('tools.list', { extensionId: id })).map((t) => t.name);

describe('extensions through the contract', () => {
  it('installs without granting, and tools appear only after the grant', async () => {
    host = await testHost();
    const installed = await call<ExtensionInfo>('extensions.install', { folder: SEED_EXAMPLE });
    expect(installed).toMatchObject({ id: 'seed-example', source: 'user', requested: ['tools'], granted: [] });
    await host.extensions.whenSettled();
    expect(await toolsOf('seed-example')).toEqual([]);
    const log = await call<{ lines: string[] }>('extensions.log', { id: 'seed-example' });
    expect(log.lines.join('\n')).toMatch(/not granted/);

    await call('extensions.grant', { id: 'seed-example', permission: 'tools' });
    await host.extensions.whenSettled();
    expect(await toolsOf('seed-example')).toEqual(['search_knowledge_base']);

    // The seed tool declares no mode, so it counts as a write tool and asks for approval (denied in a
    // CLI-mode host): this test is about grants, so let writes through without asking.
    await call('settings.update', { patch: { safety: { approveAllWrites: false } } });
    const outcome = await call<ToolOutcome>('tools.invoke', { qualifiedName: 'seed-example:search_knowledge_base', args: { query: 'x' } });
    expect(outcome.ok).toBe(true);

    await call('extensions.revoke', { id: 'seed-example', permission: 'tools' });
    expect(await toolsOf('seed-example')).toEqual([]);
    const after = await call<ToolOutcome>('tools.invoke', { qualifiedName: 'seed-example:search_knowledge_base', args: { query: 'x' } });
    expect(after).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
  });

  it('disable unregisters, enable brings the tools back, remove forgets the extension', async () => {
    host = await testHost();
    await call('extensions.install', { folder: SEED_EXAMPLE, grant: ['tools'] });
    await host.extensions.whenSettled();
    expect(await toolsOf('seed-example')).toHaveLength(1);
    expect(await call<ExtensionInfo>('extensions.disable', { id: 'seed-example' })).toMatchObject({ status: 'disabled', enabled: false });
    expect(await toolsOf('seed-example')).toEqual([]);
    await call('extensions.enable', { id: 'seed-example' });
    await host.extensions.whenSettled();
    expect(await toolsOf('seed-example')).toHaveLength(1);
    expect(await call('extensions.remove', { id: 'seed-example' })).toEqual({ removed: true });
    expect((await call<ExtensionInfo[]>('extensions.list', {})).map((e) => e.id)).not.toContain('seed-example');
    expect(host.settings.get().extensions['seed-example']).toBeUndefined();
  });

  it('persists grants in settings across a restart of the host', async () => {
    const dir = tempDir();
    host = await testHost(dir);
    await call('extensions.install', { folder: SEED_EXAMPLE, grant: ['tools'] });
    // One the person granted though its manifest does not ask for it stays granted too.
    await call('extensions.grant', { id: 'seed-example', permission: 'images', unrequested: true });
    await host.dispose();
    host = await testHost(dir);
    await host.extensions.whenSettled();
    expect(await toolsOf('seed-example')).toEqual(['search_knowledge_base']);
    expect(host.extensions.get('seed-example')).toMatchObject({ requested: ['tools'], granted: ['tools', 'images'] });
    // A grant kept from when a manifest asked for it is not kept once it no longer does (a settings file saying so).
    await call('settings.update', { patch: { extensions: { 'seed-example': { enabled: true, granted: ['tools', 'images', 'chats'], unrequested: ['images'] } } } });
    await host.dispose();
    host = await testHost(dir);
    await host.extensions.whenSettled();
    expect(host.extensions.get('seed-example')).toMatchObject({ granted: ['tools', 'images'] });
  });

  it('rejects a bad install folder and an unknown tool spec with codes', async () => {
    host = await testHost();
    const bad = await host.api.call('extensions.install', { folder: tempDir() }, { origin: 'test' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_MANIFEST' } });
    const spec = await host.api.call('tools.exportSpec', { qualifiedName: 'nope:nothing', format: 'openai' }, { origin: 'test' });
    expect(spec).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL', path: '/qualifiedName' } });
  });
});

describe('extensions and tools on the CLI', () => {
  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('install without --grant says the permission stays ungranted', async () => {
    const dir = tempDir();
    const result = await cli(['extensions', 'install', SEED_EXAMPLE, '--data-dir', dir]);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/Not granted: tools/);
    const granted = await cli(['extensions', 'grant', 'seed-example', 'tools', '--data-dir', dir, '--json']);
    expect(JSON.parse(granted.out)).toMatchObject({ granted: ['tools'] });
  });

  it('tools invoke prints the result, or the structured error with a non-zero exit', async () => {
    const dir = tempDir();
    await cli(['extensions', 'install', SEED_EXAMPLE, '--grant', 'tools', '--data-dir', dir]);
    // No mode declared = a write tool: it needs --approve on the command line.
    const ok = await cli(['tools', 'invoke', 'seed-example:search_knowledge_base', '--args', '{"query":"lighthouse"}', '--data-dir', dir, '--approve', 'seed-example:*']);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/lighthouse keeper/);
    const bad = await cli(['tools', 'invoke', 'seed-example:search_knowledge_base', '--args', '{"query":7}', '--data-dir', dir, '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
    const notJson = await cli(['tools', 'invoke', 'seed-example:search_knowledge_base', '--args', '{query', '--data-dir', dir, '--json']);
    expect(JSON.parse(notJson.out)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS_JSON' } });
  });
});

describe('extensions.inspect', () => {
  it('reads what a folder asks for without installing it', async () => {
    host = await testHost();
    expect(await call('extensions.inspect', { folder: SEED_EXAMPLE })).toMatchObject({ id: 'seed-example', requested: ['tools'] });
    expect((await call<ExtensionInfo[]>('extensions.list', {})).map((e) => e.id)).not.toContain('seed-example');
    const missing = await host.api.call('extensions.inspect', { folder: path.join(tempDir(), 'none') }, { origin: 'test' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'INVALID_MANIFEST' } });
  });
});

describe('an uploaded .zip (browser mode cannot name a path on the host)', () => {
  /** The seed example zipped as a download comes: its folder at the top of the archive. */
  function seedZip(): string {
    const dir = tempDir();
    execFileSync('zip', ['-qr', path.join(dir, 'seed.zip'), 'seed-example'], { cwd: path.dirname(SEED_EXAMPLE) });
    return fs.readFileSync(path.join(dir, 'seed.zip')).toString('base64');
  }
  let dataDir = '';
  const staged = () => fs.readdirSync(path.join(dataDir, 'extensions')).filter((name) => name.startsWith('.install-'));

  it('is read, then installed with what was granted; nothing is left staged', async () => {
    host = await testHost((dataDir = tempDir()));
    const upload = { fileName: 'seed-example-main.zip', data: seedZip() };
    expect(await call('extensions.inspectUpload', { upload })).toMatchObject({ id: 'seed-example', requested: ['tools'] });
    expect(staged()).toEqual([]);
    expect(await call('extensions.installUpload', { upload, grant: ['tools'] })).toMatchObject({ id: 'seed-example', granted: ['tools'] });
    expect(staged()).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'extensions', 'seed-example', 'spindle.json'))).toBe(true);
  });

  it('refuses a file that is not a .zip, data that is not base64, and a .zip that is not an extension, each naming the field', async () => {
    host = await testHost((dataDir = tempDir()));
    const refused = (method: string, input: unknown) => host!.api.call(method as never, input as never, { origin: 'test' });
    expect(await refused('extensions.installUpload', { upload: { fileName: 'seed.tar.gz', data: seedZip() } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/upload/fileName' } });
    expect(await refused('extensions.inspectUpload', { upload: { fileName: 'seed.zip', data: 'not base64!' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/upload/data' } });
    expect(await refused('extensions.installUpload', { upload: { fileName: 'seed.zip', data: Buffer.from('PK but not really').toString('base64') } })).toMatchObject({ ok: false });
    expect(await refused('extensions.installUpload', { upload: { fileName: 'seed.zip' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/upload/data' } });
    expect(staged()).toEqual([]);
    expect(await call<ExtensionInfo[]>('extensions.list', {})).toEqual([]);
  });
});

describe('a trusted Lumiverse extension in the council', () => {
  it('its tool (no mode declared, required arguments, no sidecar) runs unplanned and asks nothing once trusted; untrusted it asks', async () => {
    host = await testHost();
    await call('extensions.install', { folder: path.resolve('tests/fixtures/extensions/lumiverse_tsonly'), grant: ['tools'] });
    await host.extensions.whenSettled();
    await call('council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', tools: ['lumiverse_tsonly:greet'] });
    await call('council.update', { patch: { councilMode: true } });
    const chat = { chatId: 'c1', messages: [{ role: 'user', content: 'Hello there.' }] };

    const asked = await call<CouncilRun>('council.run', { chat });
    expect(asked.results[0]).toMatchObject({ errorCode: 'APPROVAL_DENIED' });

    await call('extensions.trust', { id: 'lumiverse_tsonly', trusted: true });
    const run = await call<CouncilRun>('council.run', { chat });
    expect(run.results[0]).toMatchObject({ status: 'ok', unplanned: expect.stringContaining('no sidecar'), content: expect.stringContaining('Hello from the seed file.') });
    expect(run.results[0]!.approval).toBeUndefined();
  });
});
