// The one entry point every door uses: method lookup, size cap, schema check, handler, errors as data.
import { isMethodName, type CallContext, type Handlers, type MethodName } from '../../../shared/contract';
import { HostFailure, type Result } from '../../../shared/errors';
import { MAX_INPUT_BYTES } from '../../../shared/limits';
import type { Logger } from '../ports';
import { validateInput } from './validators';

export interface Dispatcher {
  /** Never throws: every outcome is a Result. `rawBytes` is the size the transport received, when known. */
  call(method: string, input: unknown, ctx: CallContext, rawBytes?: number): Promise<Result<unknown>>;
}

function byteLength(value: unknown): number {
  try {
    const json = JSON.stringify(value) ?? '';
    // A UTF-16 unit is at most 3 UTF-8 bytes: a short text cannot be over the cap, so skip the count.
    return json.length * 3 <= MAX_INPUT_BYTES ? json.length : Buffer.byteLength(json, 'utf8');
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
      const size = rawBytes ?? byteLength(input);
      if (size > MAX_INPUT_BYTES) {
        return {
          ok: false,
          error: { code: 'INPUT_TOO_LARGE', message: `Input for ${method} is ${size} bytes; the limit is ${MAX_INPUT_BYTES}.` },
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
