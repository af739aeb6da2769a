// API keys the user keeps in environment variables: read once, then removed from the host's own environment.
//
// A key variable stays readable through the returned object, but after its first read it is gone
// from process.env, so no process the host starts later (an MCP server, a tool) inherits it, and on
// Linux its value is zeroed in the process's environment block too, which /proc/<pid>/environ would
// otherwise show to the user's other processes for as long as the app runs (environ-block.ts).
// Workers never inherit the environment anyway.
import { SECRET_NAME } from '../../../shared/secret-mask';
import { scrubEnvironBlock } from './environ-block';
import type { Env } from './secret-store';

export interface KeyEnvironmentOptions {
  /** Overwrites taken values in the environment block; the doors pass scrubEnvironBlock, tests leave it out. */
  scrub?: (names: readonly string[]) => unknown;
}

export function keyEnvironment(source: NodeJS.ProcessEnv = process.env, options: KeyEnvironmentOptions = {}): Env {
  const taken = new Map<string, string>();
  const take = (names: readonly string[]): void => {
    const fresh = names.filter((name) => !taken.has(name) && source[name] !== undefined);
    for (const name of fresh) {
      taken.set(name, source[name]!);
      delete source[name];
    }
    if (fresh.length) options.scrub?.(fresh);
  };
  const read = (name: string): string | undefined => {
    take([name]);
    return taken.get(name);
  };
  // Every variable that looks like a key is taken at once: the app never needs one in its environment.
  if (options.scrub) take(Object.keys(source).filter((name) => SECRET_NAME.test(name)));
  // A Proxy keeps the Env shape (env[name]) the key resolvers already use.
  return new Proxy(Object.create(null) as Env, {
    get: (_target, name) => (typeof name === 'string' ? read(name) : undefined),
    has: (_target, name) => typeof name === 'string' && read(name) !== undefined,
    set: () => false,
  });
}

/**
 * The doors' start: every key-looking variable read into memory now, removed from process.env and
 * zeroed in the environment block; a variable a connection names later is taken the same way.
 */
export function takeKeyEnvironment(source: NodeJS.ProcessEnv = process.env): Env {
  return keyEnvironment(source, { scrub: scrubEnvironBlock });
}
