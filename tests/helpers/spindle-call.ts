// Calls host-answered spindle methods the way a worker's request reaches them: through the contract's dispatcher
// (named params checked, permission asked, answer checked), with only the handlers a test builds.
import type { Caller, SpindleHandlers } from '../../electron/core/extensions/spindle-host/handlers';
import { dispatchSpindle } from '../../electron/core/extensions/spindle-host/spindle-dispatch';

/** `handlers` answers `method`; params as the worker sends them (`{ args: [...] }` for positional methods); `signal`: the worker's cancel. */
export function callSpindle(handlers: Partial<SpindleHandlers>, caller: Caller, method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
  return dispatchSpindle(handlers as SpindleHandlers, caller, method, params, signal ? { call: { signal, emit: () => undefined } } : {});
}

/** A caller with every permission. */
export const anyCaller = (extensionId: string): Caller => ({ extensionId, allowed: () => true });
