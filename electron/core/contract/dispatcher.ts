// The one entry point every door uses: method lookup, size cap, schema check, handler, errors as data.
import { isMethodName, type CallContext, type Handlers, type MethodName } from '../../../shared/contract';
import { HostFailure, type Result } from '../../../shared/errors';
import { inputLimit } from '../../../shared/limits';
import type { Logger } from '../ports';
import { validateInput, validateOutput } from './validators';
import { utf8ByteLength } from '../../../shared/protocol/limits';
import { checkJsonBudget } from '../../../shared/json-budget';

export interface Dispatcher {
  /** Never throws: every outcome is a Result. `rawBytes` is the size the transport received, when known. */
  call(method: string, input: unknown, ctx: CallContext, rawBytes?: number): Promise<Result<unknown>>;
}

/**
 * The input's UTF-8 JSON size, or Infinity when it cannot be serialized. A walk that stops once the value passes the
 * limit comes first, so an oversized input is refused without building its JSON.
 */
function byteLength(value: unknown, limit: number): number {
  if (checkJsonBudget(value, { maxBytes: limit, maxDepth: Number.POSITIVE_INFINITY })?.reason === 'too-large') return Number.POSITIVE_INFINITY;
  try {
    return utf8ByteLength(JSON.stringify(value) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** `checkOutputs` (tests): every answer is checked against its method's output schema, a mismatch answered INTERNAL. */
export function createDispatcher(handlers: Handlers, log: Logger, options: { checkOutputs?: boolean } = {}): Dispatcher {
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
          error: { code: 'INPUT_TOO_LARGE', message: `Input for ${method} is ${Number.isFinite(size) ? `${size} bytes` : 'over the limit or not JSON'}; the limit is ${limit} bytes.` },
        };
      }
      const invalid = validateInput(method, input ?? {});
      if (invalid) return { ok: false, error: invalid };
      try {
        const handler = handlers[method] as (input: unknown, ctx: CallContext) => unknown;
        const value = await handler(input ?? {}, ctx);
        const mismatch = options.checkOutputs ? validateOutput(method, value) : null;
        if (mismatch) {
          log.error(mismatch.message);
          return { ok: false, error: mismatch };
        }
        return { ok: true, value };
      } catch (err) {
        if (err instanceof HostFailure) return { ok: false, error: err.error };
        log.error(`handler ${method as MethodName} failed`, err);
        return { ok: false, error: { code: 'INTERNAL', message: `The host failed while handling ${method}.` } };
      }
    },
  };
}
