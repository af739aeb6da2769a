// The first place a value breaks a TypeBox schema, as a stable INVALID_INPUT naming the field. Checked with
// TypeBox's Value (no code generation, so it runs under the frames' and the app's CSP too).
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';

export interface SchemaProblem {
  code: 'INVALID_INPUT';
  message: string;
  path?: string;
}

/**
 * A union of objects told apart by a literal field (`type: 'raw' | 'quiet' | 'batch'`): the member the value names,
 * so its errors are the ones reported (a union alone only says that no member matched).
 */
function memberFor(schema: TSchema, value: unknown): TSchema {
  const members = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!members || typeof value !== 'object' || value === null) return schema;
  // A member whose fixed fields all hold (two members may share `type` and differ in `ok`).
  const named = members.filter((member) => {
    const fixed = Object.entries((member as { properties?: Record<string, { const?: unknown }> }).properties ?? {}).filter(([, prop]) => prop.const !== undefined);
    return fixed.length > 0 && fixed.every(([key, prop]) => (value as Record<string, unknown>)[key] === prop.const);
  });
  return named.length === 1 ? named[0]! : schema;
}

/** Null when `value` conforms to `schema`; else what is wrong first, and where ('' at the root). */
export function schemaError(schema: TSchema, value: unknown): { message: string; path: string } | null {
  try {
    if (Value.Check(schema, value)) return null;
    const first = Value.Errors(memberFor(schema, value), value).First();
    return { message: first?.message ?? 'does not match the contract', path: first?.path ?? '' };
  } catch {
    // A schema Value cannot read on its own (a reference it was not given): refused, never a throw in the caller.
    return { message: 'cannot be checked against its schema', path: '' };
  }
}

/** Null when `value` conforms to `schema`; else the first problem, `what` naming the request in its message. */
export function firstProblem(schema: TSchema, value: unknown, what: string): SchemaProblem | null {
  const error = schemaError(schema, value);
  if (!error) return null;
  const at = error.path;
  return { code: 'INVALID_INPUT', message: `${what}: ${error.message}${at ? ` at ${at}` : ''}.`, ...(at ? { path: at } : {}) };
}
