// The extensions commands: install a Lumiverse extension from a folder or a .zip, see what it asked for and
// what it got, read its last crash and follow its log; zips that try to escape or explode are refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { entriesOf, writeZip } from '../../helpers/zip';
import { fixture } from './harness';

afterEach(cleanupTempDirs);

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('extensions install', () => {
  it('installs a Lumiverse extension from a folder with --grant requested, saying what was requested, granted and not available', async () => {
    const dataDir = tempDir();
    const installed = await cli(dataDir, ['extensions', 'install', fixture('lumiverse_tsonly'), '--grant', 'requested']);
    expect(installed.code, installed.err).toBe(0);
    expect(installed.err).toContain('Building src/backend.ts → dist/backend.js…');
    expect(installed.err).toContain('Requested: tools, oauth.');
    expect(installed.err).toContain('Granted: tools, oauth.');
    expect(installed.err).toContain('Requested, not available here: oauth.');
    expect(installed.out).toContain('lumiverse_tsonly 0.2.0 — TypeScript Only [running]');
    expect(installed.out).toContain('requested, not available here: oauth');
    // The summary waits for its start: the tools it registered are counted.
    expect(installed.out).toContain('tools: 2');
  }, 60_000);

  it('install says which permissions are answered empty here and warns of a newer Lumiverse, on install and in list', async () => {
    const dataDir = tempDir();
    const installed = await cli(dataDir, ['extensions', 'install', fixture('lumiverse_bunbundle'), '--grant', 'requested']);
    expect(installed.code, installed.err).toBe(0);
    expect(installed.err).toContain('Requested, answered empty here (the Workbench has no such data): databanks.');
    expect(installed.err).toMatch(/warning: It asks for Lumiverse 9\.0\.0 or newer/);
    const list = await cli(dataDir, ['extensions', 'list']);
    expect(list.out).toContain('answered empty here: databanks');
    expect(list.out).toMatch(/warning: It asks for Lumiverse 9\.0\.0 or newer/);
  }, 60_000);

  it('installing an id already there is refused with how to update; --replace updates it and keeps what it stored', async () => {
    const dataDir = tempDir();
    expect((await cli(dataDir, ['extensions', 'install', fixture('seed-example'), '--grant', 'tools'])).code).toBe(0);
    const stored = path.join(dataDir, 'extension-data', 'seed-example', 'storage', 'kept.txt');
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.writeFileSync(stored, 'mine');
    const again = await cli(dataDir, ['extensions', 'install', fixture('seed-example'), '--grant', 'tools', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.out)).toMatchObject({ error: { code: 'CONFLICT', hint: expect.stringContaining('--replace') } });
    const replaced = await cli(dataDir, ['extensions', 'install', fixture('seed-example'), '--grant', 'tools', '--replace', '--json']);
    expect(replaced.code, replaced.out).toBe(0);
    expect(JSON.parse(replaced.out)).toMatchObject({ id: 'seed-example', source: 'user', granted: ['tools'] });
    expect(fs.readFileSync(stored, 'utf8')).toBe('mine');
  }, 60_000);

  it('installs from a .zip wrapped in one folder, as GitHub downloads are', async () => {
    const dataDir = tempDir();
    const zip = path.join(tempDir(), 'lumiverse_tsonly-main.zip');
    writeZip(zip, entriesOf(fixture('lumiverse_tsonly'), 'lumiverse_tsonly-main/'));
    const installed = await cli(dataDir, ['extensions', 'install', zip, '--grant', 'tools', '--json']);
    expect(installed.code, installed.out).toBe(0);
    expect(JSON.parse(installed.out)).toMatchObject({ id: 'lumiverse_tsonly', granted: ['tools'] });
    // The unpacked copy is gone; only the installed extension remains.
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual(['lumiverse_tsonly']);
  }, 60_000);

  it.each([
    ['a path with ..', [{ name: '../evil.js', data: 'x' }], 'INVALID_INPUT', /unsafe path.*\.\.\/evil\.js/],
    ['an absolute path', [{ name: '/tmp/evil.js', data: 'x' }], 'INVALID_INPUT', /unsafe path.*\/tmp\/evil\.js/],
    ['a symlink', [{ name: 'spindle.json', data: '{}' }, { name: 'link', data: '/etc/passwd', symlink: true }], 'INVALID_INPUT', /symbolic link/],
    ['a decompression bomb', [{ name: 'spindle.json', data: '{}' }, { name: 'bomb.bin', data: Buffer.alloc(64 * 1024 * 1024) }], 'INPUT_TOO_LARGE', /decompression bomb/],
    ['no manifest', [{ name: 'readme.txt', data: 'hello' }], 'INVALID_INPUT', /no spindle.json/],
  ])('refuses a zip with %s, and leaves nothing behind', async (_label, entries, code, message) => {
    const dataDir = tempDir();
    const zip = path.join(tempDir(), 'bad.zip');
    writeZip(zip, entries);
    const result = await cli(dataDir, ['extensions', 'install', zip, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toMatchObject({ error: { code, message: expect.stringMatching(message) } });
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
    expect(fs.existsSync(path.join(path.dirname(dataDir), 'evil.js'))).toBe(false);
  }, 60_000);

  it('refuses a permission name no one knows, naming the known ones', async () => {
    const result = await cli(tempDir(), ['extensions', 'install', fixture('seed-example'), '--grant', 'teleport', '--json']);
    expect(JSON.parse(result.out)).toMatchObject({ error: { code: 'INVALID_INPUT', message: expect.stringContaining('expected one of: generation, interceptor, tools') } });
  });
});

describe('extensions list and log', () => {
  it('list shows the first line of the error a crashing extension died of; log prints its lines', async () => {
    const dataDir = tempDir();
    expect((await cli(dataDir, ['extensions', 'install', fixture('crash-on-load'), '--grant', 'tools'])).code).toBe(0);
    const listed = await cli(dataDir, ['extensions', 'list']);
    expect(listed.out).toMatch(/last crash: \w*Error: /);
    const log = await cli(dataDir, ['extensions', 'log', 'crash-on-load']);
    expect(log.code).toBe(0);
    expect(log.out).toMatch(/host error: Crashed: \w*Error: /);
  }, 60_000);

  it('log shows what earlier runs wrote too (the install run, a chat run), from the log kept on disk', async () => {
    const dataDir = tempDir();
    expect((await cli(dataDir, ['extensions', 'install', fixture('lumiverse_tsonly'), '--grant', 'tools'])).code).toBe(0);
    await cli(dataDir, ['tools', 'invoke', 'lumiverse_tsonly:greet', '--args', '{"name":"ada"}', '--approve', 'lumiverse_tsonly:*']);
    const log = await cli(dataDir, ['extensions', 'log', 'lumiverse_tsonly']);
    // Lines of three earlier runs: the install, its start there, and the run that called the tool.
    expect(log.out).toContain('host info: Installed TypeScript Only 0.2.0; granted: tools.');
    expect(log.out.match(/host info: Started \(pid \d+\)/g)?.length).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(path.join(dataDir, 'logs', 'extensions', 'lumiverse_tsonly.log'))).toBe(true);
  }, 60_000);
});

describe('trusting an extension', () => {
  const invoke = (dataDir: string, tool: string) => cli(dataDir, ['tools', 'invoke', tool, '--args', tool.endsWith('greet') ? '{"name":"ada"}' : '{}', '--json']);

  it('its undeclared tools ask until it is trusted, then run; a tool that declares mode "write" still asks; untrust asks again', async () => {
    const dataDir = tempDir();
    const installed = await cli(dataDir, ['extensions', 'install', fixture('lumiverse_tsonly'), '--grant', 'tools']);
    expect(installed.err).toContain('Its tools ask before they run; trust it with: extensions trust lumiverse_tsonly');
    expect(JSON.parse((await invoke(dataDir, 'lumiverse_tsonly:greet')).out)).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });

    const trusted = await cli(dataDir, ['extensions', 'trust', 'lumiverse_tsonly']);
    expect(trusted.out).toContain('(trusted: they run without asking)');
    const greeted = await invoke(dataDir, 'lumiverse_tsonly:greet');
    expect(greeted.code, greeted.out).toBe(0);
    expect(JSON.parse(greeted.out)).toMatchObject({ ok: true, content: expect.stringContaining('ADA: Hello from the seed file.') });
    expect(JSON.parse((await invoke(dataDir, 'lumiverse_tsonly:forget')).out)).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });

    await cli(dataDir, ['extensions', 'untrust', 'lumiverse_tsonly']);
    expect(JSON.parse((await invoke(dataDir, 'lumiverse_tsonly:greet')).out)).toMatchObject({ error: { code: 'APPROVAL_DENIED' } });
  }, 60_000);

  it('install --trust trusts it at once, and the choice is kept in settings', async () => {
    const dataDir = tempDir();
    const installed = await cli(dataDir, ['extensions', 'install', fixture('lumiverse_tsonly'), '--grant', 'tools', '--trust']);
    expect(installed.err).toContain('Trusted: its tools run without asking');
    expect((await invoke(dataDir, 'lumiverse_tsonly:greet')).code).toBe(0);
    expect(JSON.parse((await cli(dataDir, ['extensions', 'list', '--json'])).out)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'lumiverse_tsonly', trusted: true })]));
  }, 60_000);
});

describe('extension ids that are Object.prototype names', () => {
  it.each(['constructor', '__proto__', 'toString'])('S2: an installed extension "%s" with no settings entry starts like any other', async (id) => {
    const dataDir = tempDir();
    const folder = path.join(dataDir, 'extensions', id);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ id, name: `Named ${id}`, version: '1.0.0', description: 'x', main: 'index.js', permissions: ['tools'] }));
    fs.writeFileSync(path.join(folder, 'index.js'), "spindle.registerTool({ name: 't', description: 'd', parameters: { type: 'object', properties: {} } });\n");
    const listed = await cli(dataDir, ['extensions', 'list', '--json']);
    expect(listed.code, listed.out + listed.err).toBe(0);
    const mine = (JSON.parse(listed.out) as Array<{ id: string; granted: string[] }>).find((e) => e.id === id);
    // __proto__ and toString are not valid ids (lower case, no leading _); the others are listed, with nothing granted (no saved entry).
    if (id !== 'constructor') expect(mine).toBeUndefined();
    else expect(mine).toMatchObject({ id, granted: [] });
  }, 60_000);
});
