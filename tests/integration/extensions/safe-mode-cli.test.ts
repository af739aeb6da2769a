// The CLI tells a person that an extension was started disabled by safe mode, on stderr, whatever the command.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { SAFE_MODE_FILE } from '../../../electron/core/extensions/workers/safe-mode';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { fixture } from './harness';

afterEach(cleanupTempDirs);

async function cli(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data-dir', dataDir], { out: (t) => out.push(t), err: (t) => err.push(t) }, { bundledExtensionsDir: null });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('an extension whose start failed three times in a row is listed disabled, with a notice on stderr and in status', async () => {
  const dataDir = tempDir();
  expect((await cli(dataDir, ['extensions', 'install', fixture('seed-example'), '--grant', 'tools'])).code).toBe(0);
  fs.writeFileSync(path.join(dataDir, SAFE_MODE_FILE), JSON.stringify({ 'seed-example': { starting: true, failures: 2 } }));
  const listed = await cli(dataDir, ['extensions', 'list', '--json']);
  expect(listed.code).toBe(0);
  expect(listed.err).toMatch(/Notice \(warning\): Extension "seed-example" failed to start 3 times in a row, so it was started disabled \(safe mode\)/);
  expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ id: 'seed-example', status: 'disabled', enabled: false, safeMode: true })]);
  // It stays disabled (no notice now: nothing new happened); enabling it starts it and clears the count.
  const again = await cli(dataDir, ['extensions', 'enable', 'seed-example', '--json']);
  expect(again.err).not.toMatch(/safe mode/);
  expect(JSON.parse(again.out)).toMatchObject({ id: 'seed-example', enabled: true });
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, SAFE_MODE_FILE), 'utf8'))).toEqual({});
}, 60_000);
