// spindle.json checks: every refusal is INVALID_MANIFEST with the offending field's path.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostFailure } from '../../../shared/errors';
import { readManifest } from '../../../electron/core/extensions/install/manifest';
import { scanExtensions } from '../../../electron/core/extensions/install/extension-scan';
import { BUNDLED, FIXTURES, tempDir } from '../../integration/extensions/harness';

const valid = { id: 'lore-box', name: 'Lore Box', version: '1.2.0', description: 'Lore.', main: 'index.js', permissions: ['tools'] };

function folderWith(manifest: unknown, files: Record<string, string> = { 'index.js': '' }): string {
  const dir = tempDir('manifest');
  if (manifest !== undefined) {
    fs.writeFileSync(path.join(dir, 'spindle.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  }
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

function refusal(folder: string) {
  try {
    readManifest(folder);
  } catch (err) {
    if (err instanceof HostFailure) return err.error;
    throw err;
  }
  throw new Error('expected INVALID_MANIFEST');
}

describe('readManifest', () => {
  it('reads a valid manifest and resolves main inside the folder', () => {
    const dir = folderWith({ ...valid, main: 'lib/main.mjs', permissions: ['tools', 'generation', 'tools'] }, { 'lib/main.mjs': '' });
    const loaded = readManifest(dir);
    expect(loaded.manifest).toEqual({ ...valid, main: 'lib/main.mjs', permissions: ['tools', 'generation'], format: 'workbench' });
    expect(loaded.mainPath).toBe(path.join(fs.realpathSync(dir), 'lib', 'main.mjs'));
  });

  it('accepts every bundled extension and fixture', () => {
    for (const root of [BUNDLED, FIXTURES]) {
      for (const name of fs.readdirSync(root)) {
        // Fixtures shipped as TypeScript source are built by the test that uses them.
        if (fs.existsSync(path.join(root, name, 'src', 'backend.ts'))) continue;
        expect(readManifest(path.join(root, name)).manifest.id).toBe(name);
      }
    }
  });

  it('refuses a folder without spindle.json, invalid JSON and a non-object', () => {
    expect(refusal(folderWith(undefined))).toMatchObject({ code: 'INVALID_MANIFEST', path: '', message: expect.stringContaining('No spindle.json') });
    expect(refusal(folderWith('{"id": "x",'))).toMatchObject({ code: 'INVALID_MANIFEST', path: '', message: expect.stringContaining('not valid JSON') });
    expect(refusal(folderWith('[1, 2]'))).toMatchObject({ code: 'INVALID_MANIFEST', path: '' });
    expect(refusal(path.join(tempDir('manifest'), 'missing'))).toMatchObject({ code: 'INVALID_MANIFEST', path: '' });
  });

  it.each([
    ['id', { id: 'Lore-Box' }],
    ['id', { id: 'x' }],
    ['id', { id: '-lore' }],
    ['id', { id: 'Lore-Box' }],
    ['id', { id: 'a'.repeat(65) }],
    ['name', { name: '' }],
    ['name', { name: 42 }],
    ['name', { name: 'Bad\u202eName' }],
    ['version', { version: '' }],
    ['version', { version: '   ' }],
    ['version', { version: 'v'.repeat(81) }],
    ['description', { description: undefined }],
    ['permissions', { permissions: 'tools' }],
  ])('refuses an invalid %s', (field, patch) => {
    expect(refusal(folderWith({ ...valid, ...patch }))).toMatchObject({ code: 'INVALID_MANIFEST', path: `/${field}` });
  });

  it('refuses an unknown permission with its index and the known list', () => {
    expect(refusal(folderWith({ ...valid, permissions: ['tools', 'network'] }))).toEqual({
      code: 'INVALID_MANIFEST',
      message: 'Unknown permission "network".',
      path: '/permissions/1',
      hint: expect.stringContaining('Known permissions: generation, interceptor, tools, cors_proxy'),
    });
  });

  it.each([
    ['a missing file', 'nope.js', {}],
    ['a path escaping the folder', '../outside.js', {}],
    ['a nested escape', 'lib/../../outside.js', {}],
    ['an absolute path', '/etc/passwd.js', {}],
    ['a Windows absolute path', 'C:\\ext\\index.js', {}],
    ['a folder', 'lib', { 'lib/x.js': '' }],
    ['a text file', 'index.txt', { 'index.txt': '' }],
    ['a TypeScript file that does not exist', 'index.ts', {}],
    ['an empty string', '', {}],
  ])('refuses main as %s', (_label, main, files) => {
    expect(refusal(folderWith({ ...valid, main }, { 'index.js': '', ...files }))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/main' });
  });

  it('refuses a main that is a symlink leading out of the folder', () => {
    const outside = tempDir('outside');
    fs.writeFileSync(path.join(outside, 'evil.js'), '');
    const dir = folderWith(valid, {});
    fs.symlinkSync(path.join(outside, 'evil.js'), path.join(dir, 'index.js'));
    expect(refusal(dir)).toMatchObject({ code: 'INVALID_MANIFEST', path: '/main', message: expect.stringContaining('resolves outside') });
  });
});

describe('Lumiverse manifests, as published', () => {
  const lumiverse = {
    identifier: 'lumia_scribe',
    name: 'Lumia Scribe',
    version: '0.4.1',
    author: 'A. Author',
    github: 'https://github.com/example/lumia_scribe',
    permissions: ['tools', 'interceptor', 'cors_proxy', 'oauth', 'ui_panels'],
    entry_frontend: 'dist/frontend.js',
    minimum_lumiverse_version: '1.0.0',
    storage_seed_files: [{ from: 'seed/notes.md', to: 'notes.md' }],
    requested_capabilities: ['dynamic_import'],
    interceptorTimeoutMs: 999_999,
    some_future_key: { ignored: true },
  };

  it('reads identifier, author and the rest; entry_backend defaults to dist/backend.js; unknown keys are ignored', () => {
    const loaded = readManifest(folderWith(lumiverse, { 'dist/backend.js': '' }));
    expect(loaded.manifest).toEqual({
      id: 'lumia_scribe',
      name: 'Lumia Scribe',
      version: '0.4.1',
      description: '',
      main: 'dist/backend.js',
      permissions: ['tools', 'interceptor', 'cors_proxy', 'oauth', 'ui_panels'],
      format: 'lumiverse',
      author: 'A. Author',
      github: 'https://github.com/example/lumia_scribe',
      entryFrontend: 'dist/frontend.js',
      minimumLumiverseVersion: '1.0.0',
      requestedCapabilities: ['dynamic_import'],
      storageSeedFiles: [{ from: 'seed/notes.md', to: 'notes.md' }],
      interceptorTimeoutMs: 300_000,
    });
    expect(loaded.buildSource).toBeNull();
  });

  it('a frontend with no backend (none named, or a named one missing) is a frontend-only extension, as Lumiverse runs it; with neither, it is refused', () => {
    const { entry_frontend: _default, ...noFrontendField } = lumiverse;
    const alone = readManifest(folderWith(noFrontendField, { 'dist/frontend.js': 'export function setup() {}' }));
    expect(alone.manifest.main).toBe('');
    expect(alone.mainPath).toBe('');
    expect(alone.frontend?.path).toMatch(/dist[\\/]frontend\.js$/);
    expect(refusal(folderWith(noFrontendField, {}))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/entry_backend', message: expect.stringContaining('nor a frontend to run alone') });
    expect(alone.missingBackend).toBeUndefined();
    // Named but not shipped, and nothing to build it from (Symmetrical Multi-Message): Lumiverse runs the frontend alone.
    const named = readManifest(folderWith({ ...lumiverse, entry_backend: 'dist/server.js' }, { 'dist/frontend.js': '', 'backend.ts': 'export {};' }));
    expect(named).toMatchObject({ mainPath: '', missingBackend: 'dist/server.js', manifest: { main: '' } });
    expect(refusal(folderWith({ ...lumiverse, entry_backend: 'dist/server.js', entry_frontend: 'dist/ui.js' }, { 'dist/frontend.js': '' }))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/entry_backend' });
  });

  it('finds spindlefile and spindlefile.json too', () => {
    for (const name of ['spindlefile', 'spindlefile.json']) {
      const dir = folderWith(undefined, { 'dist/backend.js': '', [name]: JSON.stringify(lumiverse) });
      expect(readManifest(dir).file).toBe(path.join(fs.realpathSync(dir), name));
    }
  });

  it('a missing entry is fine when src/backend.ts can build it, and refused when nothing can', () => {
    const buildable = readManifest(folderWith(lumiverse, { 'src/backend.ts': 'export {};' }));
    expect(buildable.buildSource).toMatch(/src\/backend\.ts$/);
    expect(refusal(folderWith(lumiverse, {}))).toMatchObject({ path: '/entry_backend', message: expect.stringContaining('no src/backend.ts') });
  });

  it('accepts any non-empty version, as Lumiverse does (four parts, words, dates)', () => {
    for (const version of ['6.7.6.7', 'beta', '2024-05-01', ' 1.0 ']) {
      expect(readManifest(folderWith({ ...lumiverse, version }, { 'dist/backend.js': '' })).manifest.version).toBe(version.trim());
    }
  });

  it('a TypeScript entry_backend (Lumiverse runs it with Bun) is built beside it at install, and runs as that bundle once built', () => {
    const dir = folderWith({ ...lumiverse, entry_backend: 'src/backend.ts' }, { 'src/backend.ts': 'export {};' });
    const before = readManifest(dir);
    expect(before.buildSource).toBe(path.join(fs.realpathSync(dir), 'src', 'backend.ts'));
    expect(before.manifest.main).toBe('src/backend.workbench.mjs');
    fs.writeFileSync(path.join(dir, 'src', 'backend.workbench.mjs'), '');
    const after = readManifest(dir);
    expect(after.buildSource).toBeNull();
    expect(after.mainPath).toBe(path.join(fs.realpathSync(dir), 'src', 'backend.workbench.mjs'));
  });

  it('a manifest that is not JSON is INVALID_MANIFEST with the line and column', () => {
    const dir = folderWith(undefined, { 'dist/backend.js': '', 'spindle.json': '{\n  "identifier": "a_b",\n  "name" "x"\n}' });
    expect(refusal(dir)).toMatchObject({ code: 'INVALID_MANIFEST', path: '', message: expect.stringMatching(/spindle\.json is not valid JSON: .*\(line 3, column \d+\)/) });
  });

  it('refuses an entry_backend outside the folder', () => {
    expect(refusal(folderWith({ ...lumiverse, entry_backend: '../elsewhere/backend.js' }, {}))).toMatchObject({ path: '/entry_backend', message: expect.stringContaining('outside') });
  });

  it('an unknown permission name is ignored (as Lumiverse does) and reported, never refused', () => {
    const loaded = readManifest(folderWith({ ...lumiverse, permissions: ['tools', 'teleport'] }, { 'dist/backend.js': '' }));
    expect(loaded.manifest.permissions).toEqual(['tools']);
    expect(loaded.unknownPermissions).toEqual(['teleport']);
  });

  it.each([
    ['an identifier with a dash', { identifier: 'lumia-scribe' }, '/identifier'],
    ['an identifier starting with a digit', { identifier: '1scribe' }, '/identifier'],
    ['no author', { author: undefined }, '/author'],
  ])('refuses %s', (_label, patch, field) => {
    expect(refusal(folderWith({ ...lumiverse, ...patch }, { 'dist/backend.js': '' }))).toMatchObject({ code: 'INVALID_MANIFEST', path: field });
  });

  it('refuses a key written twice, naming it, at any depth', () => {
    const twice = '{"identifier":"a_b","name":"x","version":"1.0.0","author":"y","permissions":["tools"],"permissions":["tools","generation"]}';
    expect(refusal(folderWith(twice, { 'dist/backend.js': '' }))).toMatchObject({ code: 'INVALID_MANIFEST', path: '/permissions', message: expect.stringContaining('"permissions" appears twice') });
    const nested = '{"identifier":"a_b","name":"x","version":"1.0.0","author":"y","permissions":[],"storage_seed_files":[{"from":"a","from":"b"}]}';
    expect(refusal(folderWith(nested, { 'dist/backend.js': '' }))).toMatchObject({ path: '/storage_seed_files/0/from' });
    // The same key in two different objects is fine; so is a string that looks like a key.
    const fine = '{"identifier":"a_b","name":"x","version":"1.0.0","author":"y","permissions":[],"description":"\\"name\\": twice","storage_seed_files":[{"from":"a"},{"from":"b"}]}';
    expect(readManifest(folderWith(fine, { 'dist/backend.js': '' })).manifest.storageSeedFiles).toHaveLength(2);
  });
});

describe('scanning a folder of extensions', () => {
  it('reads them in name order, capitals or not, skipping hidden folders and files', () => {
    const dir = tempDir('scan');
    for (const name of ['Zeta', 'alpha', 'beta', '.staging']) {
      fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, name, 'spindle.json'), JSON.stringify({ ...valid, id: name.toLowerCase().replace('.', '') }));
      fs.writeFileSync(path.join(dir, name, 'index.js'), '');
    }
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not an extension');
    expect(scanExtensions(dir).map((found) => path.basename(found.folder))).toEqual(['alpha', 'beta', 'Zeta']);
  });
});
