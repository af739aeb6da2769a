// The one dispatcher of spindle.* requests: the method looked up in the contract (shared/spindle/requests.ts), its
// permission asked, its positional arguments named, its params checked, its handler run and its answer checked
// against the declared result. Failures are HostFailures with stable codes naming the field.
import { HostFailure } from '../../../../shared/errors';
import { firstProblem } from '../../../../shared/schema-problem';
import { COMMON_ERRORS, type SpindleRequestSpec } from '../../../../shared/spindle/request-schema';
import { spindleRequest } from '../../../../shared/spindle/requests';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { KERNEL_ERRORS } from '../../../../shared/rpc/endpoint';
import type { SpindleCall } from '../workers/worker-host-types';
import { fail, type Caller, type SpindleHandlers } from './handlers';

const NO_CALL: SpindleCall = { signal: new AbortController().signal, emit: () => undefined };

export interface DispatchOptions {
  /** The worker's cancel, and a stream's chunks (each checked against the method's chunk declaration). */
  call?: SpindleCall;
  /** A permission the method needs is not granted (the host logs it and tells the worker). */
  refused?(permission: ExtensionPermission, operation: string): void;
}

/** The params a handler sees: forwarded positional arguments by their declared names; a missing or null one is absent. */
function paramsOf(spec: SpindleRequestSpec, raw: unknown): unknown {
  if (!spec.positional) return raw ?? {};
  const args = (raw as { args?: unknown } | null)?.args;
  const list = Array.isArray(args) ? args : [];
  const params: Record<string, unknown> = {};
  spec.positional.forEach((name, index) => {
    if (list[index] !== undefined && list[index] !== null) params[name] = list[index];
  });
  return params;
}

/** Whether `code` is one this method declares (or every request, or the kernel's own, may answer). */
export function declaresError(spec: SpindleRequestSpec, code: string): boolean {
  return (COMMON_ERRORS as readonly string[]).includes(code) || (KERNEL_ERRORS as readonly string[]).includes(code) || (spec.errors ?? []).includes(code) || (code === 'PERMISSION_DENIED' && spec.permission !== undefined);
}

/** Runs one request through the contract; resolves to its checked answer, rejects with a HostFailure. */
export async function dispatchSpindle<C extends Caller>(handlers: SpindleHandlers<C>, caller: C, method: string, raw: unknown, options: DispatchOptions = {}): Promise<unknown> {
  const spec = typeof method === 'string' ? spindleRequest(method) : undefined;
  if (!spec) fail('UNSUPPORTED_HERE', `spindle.${String(method).slice(0, 120)} is not available in the Council Workbench.`);
  // The permission first, as Lumiverse asks it: a request it refuses is not read further.
  if (spec.permission && !caller.allowed(spec.permission)) {
    options.refused?.(spec.permission, `spindle.${method}`);
    throw new HostFailure({ code: 'PERMISSION_DENIED', message: `PERMISSION_DENIED: ${spec.permission} — spindle.${method} needs the ${spec.permission} permission.`, hint: 'Grant it under Extensions.' });
  }
  const params = paramsOf(spec, raw);
  const refused = firstProblem(spec.params, params, `spindle.${method}`);
  if (refused) fail(refused.code, refused.message, refused.path);
  const handler = (handlers as unknown as Record<string, (params: unknown, caller: C, call: SpindleCall) => unknown>)[method]!;
  const call = options.call ?? NO_CALL;
  const emit = (chunk: unknown) => {
    const bad = spec.chunk && firstProblem(spec.chunk, chunk, `spindle.${method} chunk`);
    if (bad) throw new Error(bad.message);
    call.emit(chunk);
  };
  const value = (await handler(params, caller, { signal: call.signal, emit })) ?? null;
  const wrong = firstProblem(spec.result, value, `spindle.${method} answer`);
  if (wrong) throw new Error(wrong.message);
  return value;
}
