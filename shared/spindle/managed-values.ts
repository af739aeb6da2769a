// The values a managed backend process may carry (spindle.backendProcesses): Lumiverse's "JSON-safe wire grammar".
// A spawn's payload and metadata share one budget; every process message has its own. The worker checks the values
// as the extension made them (a Date or a Map is refused, not turned into a string); the host checks the budget again
// on what crossed, since a worker runs a stranger's code.
import { utf8ByteLength } from '../protocol/limits';

/** Lumiverse's limits (developer docs, backend-processes.md: "Managed-process JSON-safe wire limits"). */
export const MANAGED_VALUE_LIMITS = { bytes: 256 * 1024, visited: 10_000, depth: 32, entries: 1_000 } as const;

/** What one budget has used so far: shared by a spawn's two roots. */
export interface ManagedBudget {
  bytes: number;
  visited: number;
}

export const freshBudget = (): ManagedBudget => ({ bytes: 0, visited: 0 });

/** Why `value` is not a managed value, naming where (`payload.items[3]`), or null when it is. */
export function managedValueProblem(value: unknown, where: string, budget: ManagedBudget = freshBudget()): string | null {
  const path: object[] = [];
  const walk = (v: unknown, at: string, depth: number): string | null => {
    if (depth > MANAGED_VALUE_LIMITS.depth) return `${at} is nested deeper than ${MANAGED_VALUE_LIMITS.depth} levels.`;
    if (v === null || typeof v === 'boolean') return null;
    if (typeof v === 'number') return Number.isFinite(v) ? null : `${at} is ${String(v)}; only finite numbers cross.`;
    if (typeof v === 'string') return spend(utf8ByteLength(v), at);
    if (typeof v !== 'object') return `${at} is a ${typeof v}; only null, booleans, numbers, strings, arrays and plain objects cross.`;
    if (path.includes(v)) return `${at} refers back to itself (a cycle).`;
    // A value referred to twice is counted twice: the wire here is JSON, which writes it out each time (Lumiverse's
    // structured clone counts it once), so what the host receives is what was measured.
    if (++budget.visited > MANAGED_VALUE_LIMITS.visited) return `${at}: more than ${MANAGED_VALUE_LIMITS.visited} values in all.`;
    // Counted before anything is walked: a huge array is refused without a descriptor made for each of its entries.
    const count = Array.isArray(v) ? v.length : Object.keys(v).length;
    if (count > MANAGED_VALUE_LIMITS.entries) return `${at} has ${count} entries; the limit is ${MANAGED_VALUE_LIMITS.entries}.`;
    const shape = shapeProblem(v, at);
    if (shape) return shape;
    const keys = Object.keys(v);
    path.push(v);
    const isArray = Array.isArray(v);
    for (const key of keys) {
      const spent = isArray ? null : spend(utf8ByteLength(key), at);
      const problem = spent ?? walk((v as Record<string, unknown>)[key], isArray ? `${at}[${key}]` : `${at}.${key}`, depth + 1);
      if (problem) return problem;
    }
    path.pop();
    return null;
  };
  const spend = (bytes: number, at: string): string | null => {
    budget.bytes += bytes;
    return budget.bytes > MANAGED_VALUE_LIMITS.bytes ? `${at}: the strings and keys pass ${MANAGED_VALUE_LIMITS.bytes} bytes of UTF-8.` : null;
  };
  return walk(value, where, 0);
}

/** Plain objects (prototype Object.prototype or null) with only enumerable string-keyed data; dense arrays with nothing else. */
function shapeProblem(v: object, at: string): string | null {
  const proto = Object.getPrototypeOf(v) as object | null;
  const isArray = Array.isArray(v);
  if (!isArray && proto !== Object.prototype && proto !== null) return `${at} is a ${(v.constructor as { name?: string } | undefined)?.name ?? 'class instance'}; only plain objects cross.`;
  if (Object.getOwnPropertySymbols(v).length) return `${at} has symbol keys.`;
  const names = Object.getOwnPropertyNames(v);
  for (const name of names) {
    if (isArray && name === 'length') continue;
    const descriptor = Object.getOwnPropertyDescriptor(v, name)!;
    if (!('value' in descriptor)) return `${at}.${name} is an accessor.`;
    if (!descriptor.enumerable) return `${at}.${name} is not enumerable.`;
    if (isArray && !/^(0|[1-9]\d*)$/.test(name)) return `${at} is an array with an extra property "${name}".`;
    if (descriptor.value === undefined) return `${at}${isArray ? `[${name}]` : `.${name}`} is undefined.`;
  }
  if (isArray && names.length - 1 !== (v as unknown[]).length) return `${at} is a sparse array.`;
  return null;
}

/** A spawn's payload and metadata: two roots, one budget; metadata, when given, is a plain object. */
export function spawnValuesProblem(options: { payload?: unknown; metadata?: unknown }, has: { payload: boolean; metadata: boolean }): string | null {
  const budget = freshBudget();
  if (has.payload && options.payload === undefined) return 'payload is undefined; leave it out instead.';
  if (has.metadata && (typeof options.metadata !== 'object' || options.metadata === null || Array.isArray(options.metadata))) return 'metadata must be a plain object.';
  return (has.payload ? managedValueProblem(options.payload, 'payload', budget) : null) ?? (has.metadata ? managedValueProblem(options.metadata, 'metadata', budget) : null);
}
