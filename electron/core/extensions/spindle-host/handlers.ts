// What every host-answered spindle namespace looks like: a method name, the extension's arguments, an answer.
import { HostFailure } from '../../../../shared/errors';
import type { ExtensionPermission } from '../../../../shared/types/spindle';

/** The extension a request came from. */
export interface Caller {
  extensionId: string;
  /** Asked at the moment of the request. */
  allowed(permission: ExtensionPermission): boolean;
}

export interface NamespaceHandler {
  /** The permission a method needs, if any (Lumiverse's rules). */
  permission?(method: string): ExtensionPermission | undefined;
  /** `method` is the part after the namespace (`get`, `local.set`); `args` as the extension passed them. */
  handle(caller: Caller, method: string, args: unknown[]): unknown;
}

/** The positional arguments of a forwarded call (`{ args: [...] }`). */
export function argsOf(params: unknown): unknown[] {
  const args = (params as { args?: unknown } | null)?.args;
  return Array.isArray(args) ? args : [];
}

export function fail(code: string, message: string, path?: string): never {
  throw new HostFailure(path ? { code, message, path } : { code, message });
}

/** A string argument, or INVALID_INPUT naming it. */
export function text(value: unknown, name: string, max = 1024): string {
  if (typeof value !== 'string' || value.length === 0) fail('INVALID_INPUT', `${name} must be a non-empty string.`, `/${name}`);
  if (value.length > max) fail('INVALID_INPUT', `${name} is longer than ${max} characters.`, `/${name}`);
  return value;
}

export function unknownMethod(namespace: string, method: string): never {
  fail('UNSUPPORTED_HERE', `spindle.${namespace}.${method} is not available in the Council Workbench.`);
}
