// Containment round two: the install-time build of a zero-permission extension's TypeScript cannot
// inline anything from outside its folder (keys, settings, /proc), and runs with no key in its environment.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import { buildExtensionEntry, buildRunnerBeside } from '../../../electron/core/extensions/install/extension-build';
import { ExtensionManager } from '../../../electron/core/extensions/extension-manager';
import { NodeLauncher } from '../../../electron/core/extensions/workers/launcher';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeSink, FAST, fixture, MemoryState, RUNTIME } from './harness';

const managers: ExtensionManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  delete process.env.CANARY_API_KEY;
  cleanupTempDirs();
});

const CANARY = 'sk-canary-build-4711';

/** A data folder holding keys and settings, as a real one does, and a manager on it. */
async function setup() {
  const dataDir = tempDir();
  fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ openai: CANARY }));
  fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ canary: CANARY }));
  // A package above the extensions folder, where Node's resolution would look for a bare name.
  fs.mkdirSync(path.join(dataDir, 'node_modules', 'canary-pkg'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'node_modules', 'canary-pkg', 'package.json'), JSON.stringify({ name: 'canary-pkg', main: 'index.js' }));
  fs.writeFileSync(path.join(dataDir, 'node_modules', 'canary-pkg', 'index.js'), `export default ${JSON.stringify(CANARY)};`);
  const manager = new ExtensionManager({ dataDir, bundledDir: null, launcher: new NodeLauncher(), workerEntry: RUNTIME, sink: new FakeSink(), state: new MemoryState(), worker: FAST });
  managers.push(manager);
  await manager.init();
  return { dataDir, manager };
}

/** The source-only fixture with a backend (src/backend.ts, or src/backend.js) that starts with `source`; no permissions asked. */
function extensionWith(source: string, entry: 'ts' | 'js' = 'ts'): string {
  const folder = path.join(tempDir(), 'lumiverse_tsonly');
  fs.cpSync(fixture('lumiverse_tsonly'), folder, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'spindle.json'), 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(path.join(folder, 'spindle.json'), JSON.stringify({ ...manifest, permissions: [] }));
  const declared = entry === 'ts' ? 'declare const spindle: { log: { info(t: string): void } };\n' : '';
  if (entry === 'js') fs.rmSync(path.join(folder, 'src', 'backend.ts'));
  fs.writeFileSync(path.join(folder, 'src', `backend.${entry}`), `${source}\n${declared}spindle.log.info(String(stolen));\n`);
  return folder;
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

/** Every file under `dir` whose text holds the canary, but the two the test wrote on purpose. */
function filesHoldingCanary(dir: string): string[] {
  const holding: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (/secrets\.json$|settings\.json$|canary-pkg|plan\.md$/.test(file)) continue;
    if (fs.readFileSync(file, 'latin1').includes(CANARY)) holding.push(file);
  }
  return holding;
}

describe('the install-time build is contained', () => {
  it.each([
    ['an absolute path into /proc', "import stolen from '/proc/self/environ' with { type: 'text' };", '/proc/self/environ'],
    ['the settings, by climbing out of the folder', "import stolen from '../../../settings.json' with { type: 'text' };", '../../../settings.json'],
    ['the key store as JSON', "import stolen from '../../../secrets.json';", '../../../secrets.json'],
    ['a file: URL', `import stolen from 'file:///proc/self/environ' with { type: 'text' };`, 'file:///proc/self/environ'],
    ['a bare package that lives above the folder', "import stolen from 'canary-pkg';", 'canary-pkg'],
    ['a device under /dev (one that never ends)', "import stolen from '/dev/zero' with { type: 'text' };", '/dev/zero'],
    // esbuild expands a glob without asking the plugin to resolve; every file it matched is refused when loaded.
    ['a glob that reaches outside', 'const name = String(Date.now());\nconst stolen = await import(`../../../${name}.json`);', "outside the extension's folder"],
  ])('B1: %s: BUILD_FAILED naming the import; nothing installed, nothing inlined anywhere', { timeout: 60_000 }, async (_what, source, named) => {
    process.env.CANARY_API_KEY = CANARY;
    const { dataDir, manager } = await setup();
    const error = await refusal(manager.installFromFolder(extensionWith(source), { grant: [] }));
    expect(error).toMatchObject({ code: 'BUILD_FAILED', path: '/src/backend.ts' });
    expect(`${error.message}\n${error.hint ?? ''}`).toContain(named);
    expect(`${error.message}\n${error.hint ?? ''}`).not.toContain(CANARY);
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
    expect(filesHoldingCanary(dataDir)).toEqual([]);
  });

  it('B1: a JavaScript entry (src/backend.js) is built under the same rules', { timeout: 60_000 }, async () => {
    const { dataDir, manager } = await setup();
    const error = await refusal(manager.installFromFolder(extensionWith("import stolen from '../../../secrets.json';", 'js'), { grant: [] }));
    expect(error).toMatchObject({ code: 'BUILD_FAILED', path: '/src/backend.js' });
    expect(error.message).toContain('../../../secrets.json');
    expect(fs.readdirSync(path.join(dataDir, 'extensions'))).toEqual([]);
    expect(filesHoldingCanary(dataDir)).toEqual([]);
  });

  it.each([
    ['the key store, by climbing out', '{ "extends": "../../secrets.json" }', '../../secrets.json'],
    ['/proc', '{ "extends": "/proc/self/environ" }', '/proc/self/environ'],
    ['a note that is not JSON (esbuild quoted what it could not parse)', '{ "extends": "../../notes/plan.md" }', '../../notes/plan.md'],
    ['a package above the folder', '{ "extends": "canary-pkg/package.json" }', 'canary-pkg/package.json'],
    ['a file of its own that extends the key store in turn', '{ "extends": "./base.json" }', '../../secrets.json'],
    ['a key given twice (JSON keeps the last, esbuild read the first: /dev/zero ran it out of memory)', '{ "extends": "/dev/zero", "extends": "../../notes/plan.md" }', '../../notes/plan.md'],
    ['a byte-order mark before it', '\uFEFF{ "extends": "../../notes/plan.md" }', '../../notes/plan.md'],
    ['a folder of its own whose package.json points outside', '{ "extends": "pkg" }', 'pkg'],
  ])('B1: a tsconfig.json that extends %s: the build goes on without it, says so, and reads nothing of it', { timeout: 60_000 }, async (_what, tsconfig, named) => {
    process.env.CANARY_API_KEY = CANARY;
    const { dataDir, manager } = await setup();
    fs.mkdirSync(path.join(dataDir, 'notes'));
    fs.writeFileSync(path.join(dataDir, 'notes', 'plan.md'), `${CANARY} is the key\n`);
    const folder = extensionWith("const stolen = 'nothing';");
    // A byte-order mark, where there is one, comes first, as editors write it.
    const bom = tsconfig.startsWith('\uFEFF') ? '\uFEFF' : '';
    fs.writeFileSync(path.join(folder, 'tsconfig.json'), `${bom}// the author's settings\n${tsconfig.slice(bom.length)}\n`);
    fs.writeFileSync(path.join(folder, 'base.json'), JSON.stringify({ extends: '../../secrets.json' }));
    fs.mkdirSync(path.join(folder, 'node_modules', 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'node_modules', 'pkg', 'package.json'), JSON.stringify({ name: 'pkg', tsconfig: '../../../../secrets.json' }));
    const progress: string[] = [];
    const installed = await manager.installFromFolder(folder, { grant: [] }, (line) => progress.push(line));
    expect(installed.id).toBe('lumiverse_tsonly');
    expect(progress.some((line) => line.includes(`extends "${named}", which is not a file inside the extension's folder; built without it.`))).toBe(true);
    expect(JSON.stringify(progress)).not.toContain(CANARY);
    expect(filesHoldingCanary(dataDir)).toEqual([]);
  });

  it('a tsconfig.json that extends a file of its own and a package it ships builds as before, its paths mapping imports', { timeout: 60_000 }, async () => {
    const { manager } = await setup();
    const folder = extensionWith("import { shout } from '@own/shout';\nconst stolen = shout('mapped by paths');");
    fs.mkdirSync(path.join(folder, 'node_modules', '@tsconfig', 'strictest'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'node_modules', '@tsconfig', 'strictest', 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }));
    // The base sits in a folder of its own: its baseUrl is read from there, as TypeScript reads it.
    fs.mkdirSync(path.join(folder, 'config'));
    fs.writeFileSync(path.join(folder, 'config', 'base.json'), JSON.stringify({ extends: '@tsconfig/strictest/tsconfig.json', compilerOptions: { baseUrl: '..', paths: { '@own/*': ['src/*'] } } }));
    fs.writeFileSync(path.join(folder, 'tsconfig.json'), '\uFEFF{ "extends": "./config/base.json", /* its own */ "compilerOptions": { "target": "es2022", }, }');
    const progress: string[] = [];
    const installed = await manager.installFromFolder(folder, { grant: [] }, (line) => progress.push(line));
    expect(installed.id).toBe('lumiverse_tsonly');
    expect(progress.filter((line) => line.includes('tsconfig'))).toEqual([]);
    const built = fs.readFileSync(path.join(installed.path!, 'dist', 'backend.js'), 'utf8');
    expect(built).toContain('toUpperCase');
  });

  it('B1: a symlink inside the folder that points outside is refused, whatever esbuild makes of it', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ openai: CANARY }));
    const folder = extensionWith("import stolen from './link.json';");
    fs.writeFileSync(path.join(folder, 'package.json'), '{}');
    fs.symlinkSync(path.join(dataDir, 'secrets.json'), path.join(folder, 'src', 'link.json'));
    const error = await refusal(buildExtensionEntry(folder, path.join(folder, 'src', 'backend.ts'), path.join(folder, 'dist', 'backend.js'), () => undefined, buildRunnerBeside(RUNTIME, path.join(dataDir, 'runtime'))));
    expect(error).toMatchObject({ code: 'BUILD_FAILED', message: expect.stringContaining('./link.json') });
    expect(fs.existsSync(path.join(folder, 'dist'))).toBe(false);
  });

  it('B2: runs in a process whose environment holds no key variable', { timeout: 30_000 }, async () => {
    process.env.CANARY_API_KEY = CANARY;
    process.env.OPENAI_API_KEY = CANARY;
    const dir = tempDir();
    // A runner that answers with the environment it was given, in place of the real one.
    const runner = path.join(dir, 'env-runner.mjs');
    fs.writeFileSync(runner, "process.stdout.write(JSON.stringify({ ok: false, errors: [{ text: JSON.stringify(process.env) }], notes: [], contained: true }));\n");
    try {
      const error = await refusal(buildExtensionEntry(dir, path.join(dir, 'x.ts'), path.join(dir, 'x.js'), () => undefined, { entry: runner, runtimeDir: path.join(dir, 'runtime') }));
      const env = JSON.parse(error.message.slice(error.message.indexOf('{'))) as Record<string, string>;
      expect(Object.keys(env).sort()).toEqual(['NODE_ENV']);
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('builds a well-behaved extension as before, under the permission model', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const folder = path.join(tempDir(), 'lumiverse_tsonly');
    fs.cpSync(fixture('lumiverse_tsonly'), folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'package.json'), '{}');
    const progress: string[] = [];
    await buildExtensionEntry(folder, path.join(folder, 'src', 'backend.ts'), path.join(folder, 'dist', 'backend.js'), (line) => progress.push(line), buildRunnerBeside(RUNTIME, path.join(dataDir, 'runtime')));
    expect(progress).toEqual(['Building src/backend.ts → dist/backend.js…', 'Built dist/backend.js.']);
    expect(fs.readFileSync(path.join(folder, 'dist', 'backend.js'), 'utf8')).toContain('toUpperCase');
  });
});
