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
import type { BuildOptions, Loader, OnLoadArgs, OnResolveArgs, Plugin, PluginBuild } from 'esbuild';
import type { BuildAnswer, BuildJob, BuildMessage } from '../../shared/protocol/build';

/** Import attributes that choose the loader, as Bun and esbuild read them. */
const ATTRIBUTE_LOADERS: Record<string, Loader> = { text: 'text', json: 'json', bytes: 'binary', file: 'file' };
const CHECKED = Symbol('checked');

function inside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The file's real path when it lies inside `root`, else null (missing, unreadable and outside look the same). */
function realInside(root: string, file: string): string | null {
  try {
    const real = fs.realpathSync(file);
    return inside(root, real) ? real : null;
  } catch {
    return null;
  }
}

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

/** tsconfig.json is JSON with comments and trailing commas; null when it is not even that. */
function parseTsconfig(text: string): Record<string, unknown> | null {
  const json = text.replace(/("(?:\\.|[^"\\])*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_, literal: string | undefined) => literal ?? '').replace(/,(\s*[}\]])/g, '$1');
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The first `extends`, along the chain, that is not a file inside the folder: esbuild would read it from wherever
 * it is (a path out of the folder, a package above it), and quote it in its errors. null when all are inside.
 */
function extendsOutside(root: string, config: Record<string, unknown>, dir: string, depth = 0): string | null {
  const bases = Array.isArray(config.extends) ? config.extends : config.extends === undefined ? [] : [config.extends];
  for (const base of bases) {
    if (typeof base !== 'string') continue;
    const written = base.startsWith('file:') ? null : path.isAbsolute(base) || base.startsWith('.') ? path.resolve(dir, base) : path.join(root, 'node_modules', base);
    if (written === null || !inside(root, written)) return base;
    const real = realInside(root, written) ?? realInside(root, `${written}.json`) ?? realInside(root, path.join(written, 'tsconfig.json'));
    if (real === null || depth > 8) return base;
    const next = fs.statSync(real).isFile() ? parseTsconfig(fs.readFileSync(real, 'utf8')) : null;
    const further = next ? extendsOutside(root, next, path.dirname(real), depth + 1) : null;
    if (further !== null) return further;
  }
  return null;
}

/**
 * The tsconfig the build uses: the folder's own when it has a readable one (esbuild reads no other, so a
 * tsconfig.json above the folder changes nothing), else none — an empty or broken one is ignored, as Bun does.
 * One that extends a file outside the folder is refused: esbuild would read it, and quote it in its errors.
 */
function tsconfigOption(folder: string, notes: string[]): Pick<BuildOptions, 'tsconfig' | 'tsconfigRaw'> | { refused: string } {
  const file = path.join(folder, 'tsconfig.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { tsconfigRaw: '{}' };
  }
  if (text.trim() === '') {
    notes.push('tsconfig.json is empty; built without it, as Bun does.');
    return { tsconfigRaw: '{}' };
  }
  const config = parseTsconfig(text);
  const outside = config ? extendsOutside(folder, config, folder) : null;
  if (outside !== null) return { refused: `tsconfig.json extends "${outside}", which is not a file inside the extension's folder; an extension builds only from its own files.` };
  return { tsconfig: file };
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
  const options = (tsconfig: Pick<BuildOptions, 'tsconfig' | 'tsconfigRaw'>): BuildOptions => ({
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
    ...tsconfig,
  });
  const attempt = async (tsconfig: Pick<BuildOptions, 'tsconfig' | 'tsconfigRaw'>): Promise<BuildAnswer> => {
    try {
      const result = await esbuild.build(options(tsconfig));
      return { ok: true, code: result.outputFiles?.[0]?.text ?? '', warnings: withinFolder(root, result.warnings), notes, contained: contained() };
    } catch (err) {
      return { ok: false, errors: withinFolder(root, (err as { errors?: BuildMessage[] }).errors ?? [{ text: String((err as Error).message ?? err) }]), notes, contained: contained() };
    }
  };
  const tsconfig = tsconfigOption(root, notes);
  if ('refused' in tsconfig) return { ok: false, errors: [{ text: tsconfig.refused, location: { file: 'tsconfig.json', line: 1, column: 0 } }], notes, contained: contained() };
  const first = await attempt(tsconfig);
  // A tsconfig.json esbuild cannot read is ignored, as Bun ignores it, and said so.
  if (!first.ok && tsconfig.tsconfig && first.errors.some((e) => e.location?.file.endsWith('tsconfig.json'))) {
    notes.push(`tsconfig.json could not be read (${first.errors[0]!.text}); built without it, as Bun does.`);
    return attempt({ tsconfigRaw: '{}' });
  }
  return first;
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BuildJob;
  const answer = await runBuild(job);
  process.stdout.write(JSON.stringify(answer), () => process.exit(0));
}

void main();
