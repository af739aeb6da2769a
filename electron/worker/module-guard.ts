// Module resolution that cannot tell whether a file outside the extension's folder exists.
//
// Node's permission model denies reading such a file, but resolving a module name stats it first,
// through native calls the model does not check: `require.resolve('<data-dir>/secrets.json')` answered
// "found" where a missing file is MODULE_NOT_FOUND, `Module._stat` and `_findPath` answered directly,
// and on Node 20 `Module._readPackage` even returned a package.json's fields from anywhere. Here every
// such answer about a path outside the readable roots is the answer for a missing file, from one throw
// site, so the error and its stack are the same either way.
//
// `import()` is covered where Node has in-thread module hooks (module.registerHooks: Node 22.15+, 24,
// Electron 41). Node 20 has only off-thread hooks, which need a thread the permission model denies, so
// there `import()` of an existing file outside still fails ERR_ACCESS_DENIED where a missing one is
// ERR_MODULE_NOT_FOUND (the README says so).
const Module = process.getBuiltinModule('node:module');
const path = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

interface ModuleStatics {
  _resolveFilename(request: string, parent: unknown, isMain?: boolean, options?: unknown): string;
  _findPath(request: string, paths: string[] | null, isMain?: boolean): string | false;
  _stat(file: string): number;
  _readPackage?(file: string): unknown;
  findPackageJSON?(specifier: string | URL, base?: string | URL): string | undefined;
  registerHooks?(hooks: { resolve: ResolveHook }): unknown;
}

type ResolveResult = { url: string };
type ResolveHook = (specifier: string, context: { parentURL?: string; conditions?: string[] }, next: (specifier: string, context: unknown) => ResolveResult) => ResolveResult;

const NOT_FOUND_CODES = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND']);
/** What `_stat` answers for a path that does not exist (-ENOENT). */
const STAT_MISSING = -2;

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && NOT_FOUND_CODES.has(String((err as { code?: unknown }).code));
}

function requireStack(parent: unknown): string[] {
  const stack: string[] = [];
  for (let cursor = parent as { filename?: string; id?: string; parent?: unknown } | undefined; cursor && stack.length < 64; cursor = cursor.parent as typeof cursor) {
    const name = cursor.filename ?? cursor.id;
    if (name) stack.push(name);
  }
  return stack;
}

/** Node's own wording for a CommonJS name that resolves to nothing. */
function cjsNotFound(request: string, parent: unknown): Error {
  const stack = requireStack(parent);
  const message = `Cannot find module '${request}'${stack.length ? `\nRequire stack:\n- ${stack.join('\n- ')}` : ''}`;
  return Object.assign(new Error(message), { code: 'MODULE_NOT_FOUND', requireStack: stack });
}

/** Node's own wording for an ES module name that resolves to nothing. */
function esmNotFound(specifier: string, parentURL: string | undefined, forRequire: boolean): Error {
  const from = parentURL?.startsWith('file:') ? fileURLToPath(parentURL) : parentURL;
  const message = `Cannot find module '${specifier}'${from ? ` imported from ${from}` : ''}`;
  return Object.assign(new Error(message), { code: forRequire ? 'MODULE_NOT_FOUND' : 'ERR_MODULE_NOT_FOUND' });
}

/** Installs the guard for a worker that may read only inside `roots` (absolute folders). */
export function guardModuleResolution(roots: readonly string[]): void {
  const folders = roots.map((root) => path.resolve(root));
  const readable = (file: string): boolean => {
    const resolved = path.resolve(file);
    return folders.some((root) => resolved === root || resolved.startsWith(root + path.sep));
  };
  const statics = Module as unknown as ModuleStatics;

  const resolveFilename = statics._resolveFilename;
  statics._resolveFilename = function guardedResolveFilename(request, parent, isMain, options) {
    let filename: string | undefined;
    try {
      filename = resolveFilename.call(this, request, parent, isMain, options);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    // Built-ins resolve to a bare name; anything with a path must be readable.
    if (filename === undefined || (path.isAbsolute(filename) && !readable(filename))) throw cjsNotFound(request, parent);
    return filename;
  };

  const findPath = statics._findPath;
  statics._findPath = function guardedFindPath(request, paths, isMain) {
    if (path.isAbsolute(request) && !readable(request)) return false;
    const found = findPath.call(this, request, paths, isMain);
    return found && !readable(found) ? false : found;
  };

  const stat = statics._stat;
  statics._stat = function guardedStat(file) {
    return readable(file) ? stat.call(this, file) : STAT_MISSING;
  };

  const readPackage = statics._readPackage;
  if (readPackage) {
    statics._readPackage = function guardedReadPackage(file) {
      if (!readable(file)) throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED', permission: 'FileSystemRead' });
      return readPackage.call(this, file);
    };
  }

  const findPackageJSON = statics.findPackageJSON;
  if (findPackageJSON) {
    statics.findPackageJSON = function guardedFindPackageJSON(specifier, base) {
      const found = findPackageJSON.call(this, specifier, base);
      return found && !readable(found) ? undefined : found;
    };
  }

  // import(), import.meta.resolve and require() all resolve through these hooks where Node has them.
  statics.registerHooks?.({
    resolve(specifier, context, next) {
      let result: ResolveResult | undefined;
      try {
        result = next(specifier, context);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      if (!result || (result.url.startsWith('file:') && !readable(fileURLToPath(result.url)))) {
        throw esmNotFound(specifier, context.parentURL, context.conditions?.includes('require') === true);
      }
      return result;
    },
  });
  Module.syncBuiltinESMExports();
}
