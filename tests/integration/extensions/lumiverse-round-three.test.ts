// Lumiverse extensions, round three: what published extensions promise beyond running — a frontend-only
// extension (a manifest with entry_frontend and no backend) installs and runs as Lumiverse runs it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';
import { frameLabel } from '../../../shared/frames/frame-origin';

let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

/** A frontend-only extension as its author publishes it: a manifest and a built dist/frontend.js, nothing else. */
function frontendOnly(identifier = 'bio_tracker', extra: Record<string, unknown> = {}): string {
  const dir = path.join(tempDir('cw-frontend-only-'), identifier);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier, name: 'Bio Tracker', version: '1.2.0', author: 'An Author', permissions: ['ui_panels'], ...extra }));
  fs.writeFileSync(path.join(dir, 'dist', 'frontend.js'), "export function setup(ctx) { ctx.ui.mountDrawerTab?.({ title: 'Bio' }); }\n");
  return dir;
}

describe('a frontend-only extension', () => {
  it('installs and runs with no worker; its frames load as any running frontend; a restart reloads them; disable and enable', async () => {
    rig = await chatRig();
    const { host } = rig;
    const progress: string[] = [];
    await host.extensions.installFromFolder(frontendOnly(), { grant: 'requested' }, (line) => progress.push(line));
    const info = await waitFor(() => {
      const current = host.extensions.get('bio_tracker');
      return current.status === 'running' && current;
    }, 'bio_tracker to run');
    expect(info).toMatchObject({ pid: null, toolCount: 0, frontend: { entry: 'dist/frontend.js' } });
    expect(host.extensions.frames.frontendFolder(frameLabel('bio_tracker'))).toBe(fs.realpathSync(info.path));
    expect(host.extensions.getLog('bio_tracker').map((l) => l.text)).toContain('Started: it has a frontend and no backend.');

    // A restart stops it and starts it again, so a window loads its frames afresh (a fixed frontend.js with them).
    const statuses = () => rig!.events.flatMap((e) => (e.type === 'extension.changed' && e.extension.id === 'bio_tracker' ? [e.extension.status] : []));
    const before = statuses().length;
    expect((await host.extensions.restart('bio_tracker')).status).toBe('running');
    expect(statuses().slice(before)).toEqual(expect.arrayContaining(['stopped', 'running']));
    expect(statuses().slice(before).indexOf('stopped')).toBeLessThan(statuses().slice(before).lastIndexOf('running'));
    await host.extensions.disable('bio_tracker');
    expect(host.extensions.get('bio_tracker').status).toBe('disabled');
    expect((await host.extensions.enable('bio_tracker')).status).toBe('running');
  }, 60_000);

  it('a backend its manifest names but does not ship (none to build either): the frontend runs alone, and the install says so', async () => {
    rig = await chatRig();
    const { host } = rig;
    const progress: string[] = [];
    // As Symmetrical Multi-Message publishes it: entry_backend names dist/backend.js, which its repository lacks.
    const dir = frontendOnly('multi_message', { entry_backend: 'dist/backend.js' });
    fs.writeFileSync(path.join(dir, 'backend.ts'), 'export {};\n');
    await host.extensions.installFromFolder(dir, { grant: 'requested' }, (line) => progress.push(line));
    const info = await waitFor(() => {
      const current = host.extensions.get('multi_message');
      return current.status === 'running' && current;
    }, 'multi_message to run');
    expect(info).toMatchObject({ pid: null, frontend: { entry: 'dist/frontend.js' } });
    expect(progress).toContain('Its backend dist/backend.js is not in the extension, and there is no src/backend.ts to build it from: its frontend runs alone, as in Lumiverse.');
  }, 60_000);
});
