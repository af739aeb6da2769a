// Calls host-answered spindle methods the way a worker's request reaches them: through the contract's dispatcher
// (named params checked, permission asked, answer checked), with only the handlers a test builds.
import type { Caller, SpindleHandlers } from '../../electron/core/extensions/spindle-host/handlers';
import { dispatchSpindle } from '../../electron/core/extensions/spindle-host/spindle-dispatch';

/** `handlers` answers `method`; params as the worker sends them (`{ args: [...] }` for positional methods). */
export function callSpindle(handlers: Partial<SpindleHandlers>, caller: Caller, method: string, params: unknown): Promise<unknown> {
  return dispatchSpindle(handlers as SpindleHandlers, caller, method, params);
}

/** A caller with every permission. */
export const anyCaller = (extensionId: string): Caller => ({ extensionId, allowed: () => true });
