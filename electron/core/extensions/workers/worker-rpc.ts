// A worker's spindle.* calls, answered on the RPC kernel: its `rpc` messages carry the kernel's envelope, each call is
// answered once by id, the worker's cancel aborts the call's signal, a stream sends its chunks before its answer, and
// when the worker is gone every call still running is aborted.
import type { HostToWorkerMessage } from '../../../../shared/protocol';
import type { ToClient } from '../../../../shared/rpc/envelope';
import { serve, type ServeOptions } from '../../../../shared/rpc/serve';
import { fedTransport } from '../../../../shared/rpc/fed-transport';

export interface WorkerRpc {
  /** An `rpc` message the worker sent (read against its schema already; the kernel reads the envelope). */
  receive(envelope: unknown): void;
  /** The worker is gone: calls still running are aborted, and nothing more is sent. */
  end(): void;
}

export function workerRpc(send: (message: HostToWorkerMessage) => void, answer: ServeOptions<never>['call']): WorkerRpc {
  const fed = fedTransport<unknown, ToClient<never>>({ send: (message) => send({ type: 'rpc', message }), close: () => undefined });
  serve(fed.transport, { call: answer, invalid: 'The rpc message is not a call or a cancel.' });
  // The frame's size was checked where it was read; the calls measure nothing again.
  return { receive: (envelope) => fed.deliver(envelope, 0), end: fed.end };
}
