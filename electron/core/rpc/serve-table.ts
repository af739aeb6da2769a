// The answering side of a declared link: params checked on the way in; results, chunks and error codes checked on the
// way out, because the side that answers is ours. What breaks the declaration is a bug of ours: the caller gets
// INTERNAL, and the bug is reported (a test fails on it).
import type { Static, TSchema } from '@sinclair/typebox';
import { HostFailure, type HostError, type Result } from '../../../shared/errors';
import { KERNEL_ERRORS, type EndpointTable } from '../../../shared/rpc/endpoint';
import type { ServeOptions } from '../../../shared/rpc/serve';
import { compiledValidator, describeAjvError, type Validator } from '../contract/validators';

export interface CallContext<Chunk> {
  signal: AbortSignal;
  /** Sends one chunk of a streaming endpoint's output. */
  emit(chunk: Chunk): void;
  /** The call's size on the carrier, in bytes. */
  bytes: number;
}

export type TableHandlers<T extends EndpointTable> = {
  [M in keyof T]: (
    params: Static<T[M]['params']>,
    context: CallContext<NonNullable<T[M]['chunk']> extends TSchema ? Static<NonNullable<T[M]['chunk']>> : never>,
  ) => Promise<Static<T[M]['result']>> | Static<T[M]['result']>;
};

const INTERNAL: HostError = { code: 'INTERNAL', message: 'The process failed while handling the call.' };

interface Checked {
  params: Validator;
  result: Validator;
  chunk: Validator | null;
  errors: ReadonlySet<string>;
}

/** The `call` of serve() for a table: `reportBug` hears every answer that broke the declaration. */
export function tableCall<T extends EndpointTable>(table: T, handlers: TableHandlers<T>, reportBug: (message: string) => void): ServeOptions<never>['call'] {
  const checked = new Map<string, Checked>();
  const checkerOf = (method: string): Checked | undefined => {
    if (!Object.prototype.hasOwnProperty.call(table, method)) return undefined;
    let found = checked.get(method);
    if (!found) {
      const spec = table[method]!;
      found = {
        params: compiledValidator(spec.params),
        result: compiledValidator(spec.result),
        chunk: spec.chunk ? compiledValidator(spec.chunk) : null,
        errors: new Set([...KERNEL_ERRORS, ...(spec.errors ?? [])]),
      };
      checked.set(method, found);
    }
    return found;
  };

  return async (method, input, bytes, signal, emit): Promise<Result<unknown>> => {
    const check = checkerOf(method);
    if (!check) return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown method: ${String(method)}.` } };
    if (!check.params(input)) {
      const { message, path } = describeAjvError(check.params.errors?.[0], 'The parameters are not valid.');
      return { ok: false, error: { code: 'INVALID_INPUT', message, path } };
    }
    const send = (chunk: unknown) => {
      if (check.chunk && !check.chunk(chunk)) return reportBug(`${method} streamed a chunk its declaration does not allow: ${describeAjvError(check.chunk.errors?.[0], '').message}`);
      emit(chunk);
    };
    try {
      const value = await handlers[method as keyof T]!(input as never, { signal, emit: send as never, bytes });
      if (!check.result(value)) {
        reportBug(`${method} answered a result its declaration does not allow: ${describeAjvError(check.result.errors?.[0], '').message}`);
        return { ok: false, error: INTERNAL };
      }
      return { ok: true, value };
    } catch (error) {
      if (!(error instanceof HostFailure)) {
        reportBug(`${method} threw: ${error instanceof Error ? error.message : String(error)}`);
        return { ok: false, error: INTERNAL };
      }
      if (!check.errors.has(error.error.code)) {
        reportBug(`${method} answered ${error.error.code}, which it does not declare.`);
        return { ok: false, error: INTERNAL };
      }
      return { ok: false, error: error.error };
    }
  };
}
