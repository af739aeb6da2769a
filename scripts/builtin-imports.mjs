// How the doors (out/node) import Node's builtins. `import fs from 'node:fs'` in an ES module makes Node build the
// builtin's ES module view, which reads every export: fs then loads its streams, process its stdin, http its
// WebSocket client (~20 ms of each CLI command's start). In the doors an import statement of a builtin goes through a
// small module of ours instead, whose default export is the builtin and whose named exports are the names the doors
// import from it, read once. `require()` and `import()` of a builtin are left to Node. A builtin's namespace used
// as a value (`import * as fs` read by a computed name, or passed on) would lack the names nobody imported: the
// build refuses it (assertNoBuiltinNamespaces).
const { createRequire, isBuiltin } = process.getBuiltinModule('node:module');

const NAMESPACE = 'node-builtin';
const require = createRequire(import.meta.url);

/** The plugin; `names` maps a builtin ('fs') to the names imported from it (none: a first pass that finds them). */
function builtinImports(names) {
  return {
    name: 'builtin-imports',
    setup(build) {
      build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) =>
        args.kind === 'import-statement' && isBuiltin(args.path) ? { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const imported = [...(names?.get(args.path) ?? [])].sort();
        const builtin = require(`node:${args.path}`);
        const unknown = imported.filter((name) => !(name in builtin));
        if (unknown.length) return { errors: [{ text: `node:${args.path} has no export ${unknown.join(', ')}` }] };
        const lines = [`const m = process.getBuiltinModule(${JSON.stringify(`node:${args.path}`)});`, 'export default m;'];
        for (const name of imported) lines.push(`export const ${name} = m.${name};`);
        return { contents: lines.join('\n'), loader: 'js' };
      });
    },
  };
}

const MISSING = new RegExp(`No matching export in "${NAMESPACE}:([^"]+)" for import "([^"]+)"|Import "([^"]+)" will always be undefined because there is no matching export in "${NAMESPACE}:([^"]+)"`);

/**
 * The plugin for a build of `options`: a first pass with default-only modules makes esbuild name every builtin
 * import the doors use (as errors and warnings), and the plugin returned exports exactly those.
 */
export async function builtinImportsFor(build, options) {
  const names = new Map();
  const note = (builtin, name) => (names.get(builtin) ?? names.set(builtin, new Set()).get(builtin)).add(name);
  let messages;
  try {
    const result = await build({ ...options, plugins: [builtinImports(null)], write: false, metafile: false, sourcemap: false, logLevel: 'silent' });
    messages = result.warnings;
  } catch (failure) {
    if (!failure.errors) throw failure;
    messages = [...failure.errors, ...failure.warnings];
  }
  for (const { text } of messages) {
    const m = MISSING.exec(text);
    if (m) note(m[1] ?? m[4], m[2] ?? m[3]);
  }
  return builtinImports(names);
}

/**
 * esbuild writes a module's namespace object (`__export(x_exports, …)`) only when code uses the namespace as a value;
 * for a builtin's module here it would hold only the names imported by name: the build fails instead.
 */
export function assertNoBuiltinNamespaces(outputFiles) {
  const found = [];
  for (const file of outputFiles) {
    if (!/\.m?js$/.test(file.path)) continue;
    let builtin = null;
    for (const line of file.text.split('\n')) {
      if (line.startsWith('// ')) builtin = line.startsWith(`// ${NAMESPACE}:`) ? line.slice(3) : null;
      else if (builtin && line.includes('__export(')) found.push(builtin);
    }
  }
  if (found.length) throw new Error(`A builtin's namespace is used as a value (${[...new Set(found)].join(', ')}): import its default and read from that.`);
}
