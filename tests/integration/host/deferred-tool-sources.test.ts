// A door (the desktop window, browser mode) opens the host with deferToolSources and starts the extensions' workers
// once its window or page is served: until then none is launched; then they all show as starting at once and
// come up; a second call starts nothing more, and a data-only host never starts them.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host';
import { silentLogger } from '../../../electron/core/ports';
import { runCli } from '../../../electron/headless/cli/run-cli';
import { createNodeHost } from '../../../electron/headless/node-host';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

const FIXTURE = path.resolve('tests/fixtures/extensions/seed-example');
let host: Host | undefined;

afterEach(async () => {
  await host?.dispose();
  host = undefined;
  cleanupTempDirs();
});

async function installed(): Promise<string> {
  const dataDir = tempDir();
  const code = await runCli(['extensions', 'install', FIXTURE, '--grant', 'tools', '--trust', '--data-dir', dataDir], { out: () => {}, err: () => {} }, { bundledExtensionsDir: null, useRunningApp: false });
  expect(code).toBe(0);
  return dataDir;
}

const seed = (h: Host) => h.extensions.list().find((e) => e.id === 'seed-example')!;
const seedTools = (h: Host) => h.registry.list().filter((t) => t.qualifiedName.startsWith('seed-example:'));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('tool sources started by the door', () => {
  it('launches no worker until asked; then shows it starting at once, brings it up, and a second call adds none', async () => {
    const dataDir = await installed();
    host = await createNodeHost({ dataDir, mode: 'browser', log: silentLogger, bundledExtensionsDir: null, deferToolSources: true });
    await turn();
    expect(seed(host)).toMatchObject({ enabled: true, status: 'stopped', pid: null });
    expect(seedTools(host)).toEqual([]);

    host.startToolSources();
    // Shown as starting before any process is launched (they are launched one per turn of the event loop).
    expect(seed(host).status).toBe('starting');
    await host.extensions.whenSettled();
    expect(seed(host).status).toBe('running');
    const pid = seed(host).pid;
    expect(pid).toEqual(expect.any(Number));
    expect(seedTools(host).length).toBeGreaterThan(0);

    host.startToolSources();
    await turn();
    expect(seed(host).pid).toBe(pid);
  }, 30_000);

  it('a data-only host never starts them', async () => {
    const dataDir = await installed();
    host = await createNodeHost({ dataDir, mode: 'cli', log: silentLogger, bundledExtensionsDir: null, startToolSources: false });
    host.startToolSources();
    await turn();
    await turn();
    expect(seed(host)).toMatchObject({ status: 'stopped', pid: null });
    expect(seedTools(host)).toEqual([]);
  });
});
