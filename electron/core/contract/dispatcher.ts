// The one entry point every door uses: method lookup, size cap, schema check, handler, errors as data.
import { isMethodName, type CallContext, type Handlers, type MethodName } from '../../../shared/contract';
import { HostFailure, type Result } from '../../../shared/errors';
import { inputLimit } from '../../../shared/limits';
import type { Logger } from '../ports';
import { validateInput } from './validators';

export interface Dispatcher {
  /** Never throws: every outcome is a Result. `rawBytes` is the size the transport received, when known. */
  call(method: string, input: unknown, ctx: CallContext, rawBytes?: number): Promise<Result<unknown>>;
}

const BOUND_MAX_DEPTH = 32;

/**
 * An upper bound of the UTF-8 size of plain JSON without serializing it (every UTF-16 unit of a string
 * at most 6 bytes escaped, a number at most 24 characters), stopping once it passes `limit`; null when
 * the bound passes the limit or the value is anything but plain JSON (the exact count decides then).
 */
function jsonBytesUpperBound(value: unknown, limit: number, depth: number): number | null {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (depth >= BOUND_MAX_DEPTH) return null;
      let bytes = 2;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item = jsonBytesUpperBound(value[i], limit - bytes, depth + 1);
          if (item === null) return null;
          bytes += item + 1;
          if (bytes > limit) return null;
        }
        return bytes;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return null;
      const record = value as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) return null;
        const item = jsonBytesUpperBound(record[key], limit - bytes, depth + 1);
        if (item === null) return null;
        bytes += key.length * 6 + 4 + item;
        if (bytes > limit) return null;
      }
      return bytes;
    }
    default:
      // undefined, functions, symbols, bigints: JSON.stringify decides how (or whether) they count.
      return null;
  }
}

function byteLength(value: unknown, limit: number): number {
  // The usual small input: a cheap bound shows it is under the cap without building its JSON.
  try {
    const bound = jsonBytesUpperBound(value, limit, 0);
    if (bound !== null) return bound;
  } catch {
    // A throwing getter or proxy trap: let the exact count below answer.
  }
  try {
    const json = JSON.stringify(value) ?? '';
    // A UTF-16 unit is at most 3 UTF-8 bytes: a short text cannot be over the cap, so skip the count.
    return json.length * 3 <= limit ? json.length : Buffer.byteLength(json, 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export function createDispatcher(handlers: Handlers, log: Logger): Dispatcher {
  return {
    async call(method, input, ctx, rawBytes) {
      if (typeof method !== 'string' || !isMethodName(method)) {
        return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method "${String(method).slice(0, 100)}"` } };
      }
      const limit = inputLimit(method);
      const size = rawBytes ?? byteLength(input, limit);
      if (size > limit) {
        return {
          ok: false,
          error: { code: 'INPUT_TOO_LARGE', message: `Input for ${method} is ${size} bytes; the limit is ${limit}.` },
        };
      }
      const invalid = validateInput(method, input ?? {});
      if (invalid) return { ok: false, error: invalid };
      try {
        const handler = handlers[method] as (input: unknown, ctx: CallContext) => unknown;
        const value = await handler(input ?? {}, ctx);
        return { ok: true, value };
      } catch (err) {
        if (err instanceof HostFailure) return { ok: false, error: err.error };
        log.error(`handler ${method as MethodName} failed`, err);
        return { ok: false, error: { code: 'INTERNAL', message: `The host failed while handling ${method}.` } };
      }
    },
  };
}
