// What answers each spindle.* request: one handler per method of the contract (shared/spindle/requests.ts), given
// the request's checked params and the extension it came from.
import { HostFailure } from '../../../../shared/errors';
import type { SpindleMethod, SpindleParams } from '../../../../shared/spindle/requests';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { SpindleCall } from '../workers/worker-host-types';

/** The extension a request came from. */
export interface Caller {
  extensionId: string;
  /** Asked at the moment of the request. */
  allowed(permission: ExtensionPermission): boolean;
}

/** `call`: the worker's cancel, and a streaming method's way to send a chunk. */
export type SpindleHandler<M extends SpindleMethod, C extends Caller = Caller> = (params: SpindleParams<M>, caller: C, call: SpindleCall) => unknown;

/** One handler for every method of the contract: the compiler checks none is missing. */
export type SpindleHandlers<C extends Caller = Caller> = { [M in SpindleMethod]: SpindleHandler<M, C> };

/** The handlers of the methods under `prefix` (`tokens`, `variables.local`…). */
export type HandlersOf<P extends string, C extends Caller = Caller> = { [M in SpindleMethod as M extends `${P}.${string}` ? M : never]: SpindleHandler<M, C> };

export function fail(code: string, message: string, path?: string): never {
  throw new HostFailure(path ? { code, message, path } : { code, message });
}
