// The doors' builtin imports (scripts/builtin-imports.mjs): each builtin through a module of ours that exports what
// the code imports from it, so Node never builds a builtin's ES module view. Built with esbuild and run in Node.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without types
import { assertNoBuiltinNamespaces, builtinImportsFor } from '../../../scripts/builtin-imports.mjs';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

async function bundle(source: string): Promise<string> {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'entry.ts'), source);
  const options: BuildOptions = { entryPoints: [path.join(dir, 'entry.ts')], bundle: true, platform: 'node', format: 'esm', outfile: path.join(dir, 'out.mjs'), logLevel: 'silent', write: false };
  const result = await build({ ...options, plugins: [await builtinImportsFor(build, options)] });
  assertNoBuiltinNamespaces(result.outputFiles!);
  fs.writeFileSync(path.join(dir, 'out.mjs'), result.outputFiles![0]!.text);
  return path.join(dir, 'out.mjs');
}

describe('builtin imports in the doors', () => {
  it('passes on default, named, lazily defined and namespace imports, and leaves no ES module import of a builtin', async () => {
    const out = await bundle(`
      import fs, { readFileSync } from 'node:fs';
      import * as os from 'os';
      import { parseArgs } from 'node:util';
      const views = process.moduleLoadList.filter((m) => m.startsWith('NativeModule internal/fs/streams'));
      console.log(JSON.stringify({
        read: readFileSync === fs.readFileSync,
        eol: os.EOL,
        parsed: parseArgs({ args: ['--x'], options: { x: { type: 'boolean' } } }).values.x,
        streams: views.length,
      }));
    `);
    expect(fs.readFileSync(out, 'utf8')).not.toMatch(/from\s*"(node:)?(fs|os|util)"/);
    const run = spawnSync(process.execPath, [out], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    // fs's streams are not loaded: nothing read its lazy ReadStream (an ES module view of fs would have).
    expect(JSON.parse(run.stdout)).toEqual({ read: true, eol: '\n', parsed: true, streams: 0 });
  });

  it('(the control: Node itself loads fs streams for an ES module import of fs, so the check above can fail)', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'plain.mjs'), `import fs from 'node:fs';\nconsole.log(process.moduleLoadList.filter((m) => m.startsWith('NativeModule internal/fs/streams')).length);`);
    expect(Number(spawnSync(process.execPath, [path.join(dir, 'plain.mjs')], { encoding: 'utf8' }).stdout)).toBeGreaterThan(0);
  });

  it('fails the build where a builtin namespace is used as a value (it would lack the names not imported)', async () => {
    await expect(bundle(`import * as fs from 'node:fs'; console.log(typeof fs[process.argv[2]]);`)).rejects.toThrow(/namespace is used as a value \(node-builtin:fs\)/);
  });

  it('fails the build on a name the builtin does not have', async () => {
    await expect(bundle(`import { noSuchThing } from 'node:fs'; console.log(noSuchThing);`)).rejects.toThrow(/node:fs has no export noSuchThing/);
  });
});
