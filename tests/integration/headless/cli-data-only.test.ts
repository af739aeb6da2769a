// Commands that only read or write the data folder start no extension worker and connect no MCP server: the
// extension's log on disk (every start writes to it) stays as it was, and status says its tool count is the
// built-in tools. A command that uses tools still starts them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const FIXTURE = path.resolve('tests/fixtures/extensions/seed-example');

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: () => {} }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n') };
}

function logText(dataDir: string): string {
  const dir = path.join(dataDir, 'logs', 'extensions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('') : '';
}

describe('data-only commands', () => {
  it('status, packs, sessions, backup export, connections, sidecar and extensions log start no worker; tools list does', async () => {
    const dataDir = tempDir();
    expect((await cli(dataDir, ['extensions', 'install', FIXTURE, '--grant', 'tools', '--trust'])).code).toBe(0);
    const before = logText(dataDir);
    expect(before.length).toBeGreaterThan(0);

    const status = JSON.parse((await cli(dataDir, ['status', '--json'])).out) as { counts: { extensions: number; tools: number }; toolSourcesStarted?: boolean };
    expect(status.counts.extensions).toBe(1);
    expect(status.toolSourcesStarted).toBe(false);
    expect((await cli(dataDir, ['status'])).out).toContain("Built-in tools:   ");
    for (const args of [['packs', 'list'], ['sessions', 'list'], ['sessions', 'search', 'x'], ['backup', 'export'], ['connections', 'list'], ['sidecar', 'show'], ['extensions', 'log', 'seed-example']]) {
      expect((await cli(dataDir, args)).code, args.join(' ')).toBe(0);
    }
    expect(logText(dataDir)).toBe(before);

    const tools = await cli(dataDir, ['tools', 'list', '--json']);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.out)).toEqual(expect.arrayContaining([expect.objectContaining({ qualifiedName: expect.stringMatching(/^seed-example:/) })]));
    expect(logText(dataDir).length).toBeGreaterThan(before.length);
  }, 60_000);
});
