// The install-time build of an extension's TypeScript, in a process of its own.
//
// The host starts this script under Node's permission model (electron/core/extensions/install/extension-build.ts):
// it may read only the extension's folder and esbuild, write nothing, and start only esbuild's binary,
// with no key in its environment. Every import goes through a plugin that resolves and loads it here,
// refusing whatever lies outside the folder, so a source file cannot inline the settings, the keys or
// /proc into its bundle — whatever esbuild learns to resolve, nothing reaches the bundle without
// passing through the plugin's onLoad, whose reads the permission model checks again.
//
// Reads one job (JSON) on stdin, writes one answer (JSON) on stdout.
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, OnLoadArgs, OnResolveArgs, Plugin, PluginBuild } from 'esbuild';
import type { BuildAnswer, BuildJob, BuildMessage } from '../../shared/protocol/build';
import { folderTsconfig } from './build-tsconfig';
import { inside, realInside } from './folder-paths';

/** Import attributes that choose the loader, as Bun and esbuild read them. */
const ATTRIBUTE_LOADERS: Record<string, Loader> = { text: 'text', json: 'json', bytes: 'binary', file: 'file' };
const CHECKED = Symbol('checked');

function refuse(text: string) {
  return { errors: [{ text }] };
}

/** Resolves and loads every import itself, refusing anything outside `root`. */
function folderOnly(root: string, platform: BuildJob['platform']): Plugin {
  return {
    name: 'extension-folder-only',
    setup(build: PluginBuild) {
      build.onResolve({ filter: /.*/ }, async (args: OnResolveArgs) => {
        if (args.pluginData === CHECKED) return undefined;
        const spec = args.path;
        if (platform === 'node' && isBuiltin(spec)) return { path: spec, external: true };
        if (spec.startsWith('data:')) return undefined;
        // A path written out is judged as written, before anything looks at the disk.
        const written = spec.startsWith('file:') ? fileURLToPath(spec) : path.isAbsolute(spec) ? spec : spec.startsWith('.') ? path.resolve(args.resolveDir, spec) : null;
        if (written !== null && !inside(root, written)) return refuse(`Import "${spec}" reaches outside the extension's folder; an extension builds only from its own files.`);
        const resolved = await build.resolve(spec, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: CHECKED, with: args.with });
        // esbuild's own complaint (a broken package.json in the folder) is passed on when it is about the folder.
        const own = resolved.errors.filter((e) => !e.location || inside(root, path.resolve(root, e.location.file)));
        if (own.length && own.length === resolved.errors.length) return { errors: own };
        const real = resolved.errors.length || resolved.external ? null : resolved.namespace === 'file' ? realInside(root, resolved.path) : null;
        if (real === null) return refuse(`Could not resolve "${spec}" inside the extension's folder (dependencies must ship in its own node_modules).`);
        return { path: real, namespace: 'file', sideEffects: resolved.sideEffects, suffix: resolved.suffix };
      });
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args: OnLoadArgs) => {
        const real = realInside(root, args.path);
        if (real === null) return refuse(`"${args.path}" is outside the extension's folder.`);
        return { contents: fs.readFileSync(real), loader: ATTRIBUTE_LOADERS[args.with?.type ?? ''] ?? 'default', resolveDir: path.dirname(real) };
      });
    },
  };
}

/** Whether Node's permission model confines this process. */
function contained(): boolean {
  const permission = (process as unknown as { permission?: { has(scope: string): boolean } }).permission;
  return !!permission && !permission.has('fs.write');
}

/** What esbuild says about a file outside the folder is not passed on: its text could quote that file. */
function withinFolder(root: string, messages: BuildMessage[]): BuildMessage[] {
  return messages.map((message) =>
    message.location && !inside(root, path.resolve(root, message.location.file)) ? { text: `A file outside the extension's folder could not be used (${path.basename(message.location.file)}).` } : message,
  );
}

async function runBuild(job: BuildJob): Promise<BuildAnswer> {
  const notes: string[] = [];
  const root = fs.realpathSync(job.folder);
  const esbuild = createRequire(import.meta.url)(job.esbuild) as typeof import('esbuild');
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [job.source],
      bundle: true,
      write: false,
      platform: job.platform,
      format: 'esm',
      target: job.platform === 'node' ? 'node20' : 'es2022',
      logLevel: 'silent',
      nodePaths: [],
      plugins: [folderOnly(root, job.platform)],
      // Read by us from the folder (build-tsconfig.ts); esbuild reads no tsconfig file itself.
      tsconfigRaw: folderTsconfig(root, notes),
    });
    return { ok: true, code: result.outputFiles?.[0]?.text ?? '', warnings: withinFolder(root, result.warnings), notes, contained: contained() };
  } catch (err) {
    return { ok: false, errors: withinFolder(root, (err as { errors?: BuildMessage[] }).errors ?? [{ text: String((err as Error).message ?? err) }]), notes, contained: contained() };
  }
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BuildJob;
  const answer = await runBuild(job);
  process.stdout.write(JSON.stringify(answer), () => process.exit(0));
}

void main();
