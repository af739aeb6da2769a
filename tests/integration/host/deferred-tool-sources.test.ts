// A door (the desktop window, browser mode) opens the host with deferToolSources and starts the extensions' workers
// once its window or page is served: until then none is launched; then they all show as starting at once and
// come up; a second call starts nothing more, and a data-only host never starts them.
import fs from 'node:fs';
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

/** This process's extension workers: its child processes under Node's permission model. */
function workers(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => {
      if (!/^\d+$/.test(name)) return false;
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--allow-fs-read');
      } catch {
        return false;
      }
    })
    .map(Number);
}

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

  it('an extension disabled before its turn is not started, and is shown disabled', async () => {
    host = await createNodeHost({ dataDir: await installed(), mode: 'browser', log: silentLogger, bundledExtensionsDir: null, deferToolSources: true });
    host.startToolSources();
    expect((await host.api.call('extensions.disable', { id: 'seed-example' }, { origin: 'test' })).ok).toBe(true);
    for (let i = 0; i < 5; i++) await turn();
    await host.extensions.whenSettled();
    expect(seed(host)).toMatchObject({ enabled: false, status: 'disabled', pid: null });
    expect(workers()).toEqual([]);
  }, 30_000);

  it('an extension removed before its turn starts nothing and reports no failure', async () => {
    host = await createNodeHost({ dataDir: await installed(), mode: 'browser', log: silentLogger, bundledExtensionsDir: null, deferToolSources: true });
    const failed: string[] = [];
    host.extensions.onEvent((event) => {
      if (event.type === 'extension.status' && event.status === 'failed') failed.push(event.id);
    });
    host.startToolSources();
    expect((await host.api.call('extensions.remove', { id: 'seed-example' }, { origin: 'test' })).ok).toBe(true);
    for (let i = 0; i < 5; i++) await turn();
    expect(host.extensions.list().some((e) => e.id === 'seed-example')).toBe(false);
    expect(workers()).toEqual([]);
    // Before: its queued start read the deleted folder and reported the removed extension as failed.
    expect(failed).toEqual([]);
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
