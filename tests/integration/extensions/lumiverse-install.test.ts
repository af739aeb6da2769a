// Installing extensions as Lumiverse authors publish them: a Lumiverse manifest, only src/backend.ts (built at
// install), an empty package.json, storage seed files, unknown and unavailable permissions; and the refusals.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import { INSTALL_LIMITS } from '../../../electron/core/extensions/install/extension-install';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeSink, FAST, fixture, MemoryState, request, RUNTIME, waitFor } from './harness';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  cleanupTempDirs();
});

async function setup() {
  const dataDir = tempDir();
  const sink = new FakeSink();
  const manager = new ExtensionManager({ dataDir, bundledDir: null, launcher: new NodeLauncher(), workerEntry: RUNTIME, sink, state: new MemoryState(), worker: FAST });
  managers.push(manager);
  await manager.init();
  return { dataDir, sink, manager };
}

/** A copy of a fixture folder, to change before installing. */
function copyOf(name: string): string {
  const to = path.join(tempDir(), name);
  fs.cpSync(fixture(name), to, { recursive: true });
  return to;
}

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (err) {
    if (err instanceof HostFailure) return err.error;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('a Lumiverse extension that ships only its TypeScript source', () => {
  it('installs: the empty package.json is repaired, src/backend.ts is built to dist/backend.js, storage is seeded; it runs', async () => {
    const { dataDir, sink, manager } = await setup();
    const progress: string[] = [];
    const info = await manager.installFromFolder(fixture('lumiverse_tsonly'), { grant: 'requested' }, (line) => progress.push(line));
    expect(info).toMatchObject({ id: 'lumiverse_tsonly', granted: ['tools', 'oauth'] });
    expect(progress).toEqual([
      'Copying TypeScript Only 0.2.0…',
      'package.json was empty; the installed copy has {} instead (Node cannot load an extension beside it).',
      'Building src/backend.ts → dist/backend.js…',
      'Built dist/backend.js.',
      'Seeded storage with seed/greeting.txt.',
    ]);
    const installed = path.join(dataDir, 'extensions', 'lumiverse_tsonly');
    expect(fs.existsSync(path.join(installed, 'dist', 'backend.js'))).toBe(true);
    // The published folder itself is untouched.
    expect(fs.existsSync(path.join(fixture('lumiverse_tsonly'), 'dist'))).toBe(false);
    expect(fs.readFileSync(path.join(fixture('lumiverse_tsonly'), 'package.json'), 'utf8')).toBe('');
    await waitFor(() => sink.names('lumiverse_tsonly').length === 2, 'the tools to register');
    const answer = await sink.executor('lumiverse_tsonly', 'greet').execute(request('greet', { name: 'mara' }));
    expect(answer).toEqual({ ok: true, value: 'MARA: Hello from the seed file. (user local, oauth granted)' });
    expect(manager.getLogLines('lumiverse_tsonly').join('\n')).toContain('Built dist/backend.js.');
  });

  it('a build that fails names the file and the line, and installs nothing', async () => {
    const { dataDir, manager } = await setup();
    const folder = copyOf('lumiverse_tsonly');
    fs.writeFileSync(path.join(folder, 'src', 'backend.ts'), "import { missing } from './nowhere';\nconst x: number = ;\n");
    const error = await refusal(manager.installFromFolder(folder, { grant: ['tools'] }));
    expect(error).toMatchObject({ code: 'BUILD_FAILED', path: '/src/backend.ts', message: expect.stringMatching(/src\/backend\.ts:2:\d+: /) });
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
    expect(manager.list()).toEqual([]);
  });

  it('a broken package.json (not JSON) does not stop it either', async () => {
    const { sink, manager } = await setup();
    const folder = copyOf('lumiverse_tsonly');
    fs.writeFileSync(path.join(folder, 'package.json'), '{ "name": broken');
    await manager.installFromFolder(folder, { grant: ['tools'] });
    await waitFor(() => sink.names('lumiverse_tsonly').length === 2, 'the tools to register');
  });

  it('entry_backend outside the folder is refused before anything is copied', async () => {
    const { dataDir, manager } = await setup();
    const folder = copyOf('lumiverse_tsonly');
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'spindle.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ ...manifest, entry_backend: '../../elsewhere.js' }));
    expect(await refusal(manager.installFromFolder(folder))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/entry_backend' });
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
  });

  it('a required seed file that is missing refuses the install', async () => {
    const { manager } = await setup();
    const folder = copyOf('lumiverse_tsonly');
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'spindle.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ ...manifest, storage_seed_files: [{ from: 'seed/nope.txt', required: true }] }));
    expect(await refusal(manager.installFromFolder(folder))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/storage_seed_files/0/from' });
  });

  it.each([
    ['a destination that climbs out of storage', (_dataDir: string) => ({ from: 'seed/greeting.txt', to: '../escaped.txt' }), '/storage_seed_files/0/to'],
    ['an absolute destination', (dataDir: string) => ({ from: 'seed/greeting.txt', to: path.join(dataDir, 'escaped.txt') }), '/storage_seed_files/0/to'],
    ['a source outside the extension folder', (dataDir: string) => ({ from: path.join(dataDir, 'settings.json'), to: 'escaped.txt' }), '/storage_seed_files/0/from'],
  ])('a seed with %s is refused with its field, and nothing is written', async (_what, seed, field) => {
    const { dataDir, manager } = await setup();
    fs.writeFileSync(path.join(dataDir, 'settings.json'), '{}');
    const folder = copyOf('lumiverse_tsonly');
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'spindle.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ ...manifest, storage_seed_files: [seed(dataDir)] }));
    expect(await refusal(manager.installFromFolder(folder))).toMatchObject({ code: 'INVALID_MANIFEST', path: field });
    const written = fs.readdirSync(dataDir, { recursive: true }).map(String).filter((name) => name.includes('escaped'));
    expect(written).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
  });

  it('a tsconfig.json that is not JSON is ignored with a line, as Bun ignores it, and the extension builds', async () => {
    const { manager } = await setup();
    const folder = copyOf('lumiverse_tsonly');
    fs.writeFileSync(path.join(folder, 'tsconfig.json'), '{ "compilerOptions": { "strict": tru');
    const progress: string[] = [];
    const installed = await manager.installFromFolder(folder, {}, (line) => progress.push(line));
    expect(installed.id).toBe('lumiverse_tsonly');
    expect(progress.some((line) => /^tsconfig\.json could not be read \(.+\); built without it, as Bun does\.$/.test(line))).toBe(true);
  });
});

describe('install limits', () => {
  it('counts folders too: 5,010 empty folders are refused, and nothing is left behind', async () => {
    const { dataDir, manager } = await setup();
    const folder = copyOf('seed-example');
    for (let i = 0; i < INSTALL_LIMITS.maxEntries + 10; i++) fs.mkdirSync(path.join(folder, 'empty', `d${i}`), { recursive: true });
    expect(await refusal(manager.installFromFolder(folder))).toMatchObject({ code: 'INPUT_TOO_LARGE', message: expect.stringContaining('files and folders') });
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
  }, 60_000);
});
