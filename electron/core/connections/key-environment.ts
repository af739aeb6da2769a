// API keys the user keeps in environment variables: read once, then removed from the host's own environment.
//
// A key variable stays readable through the returned object, but after its first read it is gone
// from process.env, so no process the host starts later (an MCP server, a tool) inherits it. Workers
// never inherit the environment anyway; /proc/<pid>/environ still shows the block the host started
// with, which the worker's permission model keeps out of reach.
import type { Env } from './secret-store';

export function keyEnvironment(source: NodeJS.ProcessEnv = process.env): Env {
  const taken = new Map<string, string>();
  const read = (name: string): string | undefined => {
    if (taken.has(name)) return taken.get(name);
    const value = source[name];
    if (value === undefined) return undefined;
    taken.set(name, value);
    delete source[name];
    return value;
  };
  // A Proxy keeps the Env shape (env[name]) the key resolvers already use.
  return new Proxy(Object.create(null) as Env, {
    get: (_target, name) => (typeof name === 'string' ? read(name) : undefined),
    has: (_target, name) => typeof name === 'string' && read(name) !== undefined,
    set: () => false,
  });
}
