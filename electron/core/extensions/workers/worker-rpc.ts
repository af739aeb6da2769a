// A worker's spindle.* calls, answered on the RPC kernel: its `rpc` messages carry the kernel's envelope, each call is
// answered once by id, the worker's cancel aborts the call's signal, a stream sends its chunks before its answer, and
// when the worker is gone every call still running is aborted.
import type { HostToWorkerMessage } from '../../../../shared/protocol';
import type { ToClient } from '../../../../shared/rpc/envelope';
import { serve, type ServeOptions } from '../../../../shared/rpc/serve';
import type { Transport } from '../../../../shared/rpc/transport';

export interface WorkerRpc {
  /** An `rpc` message the worker sent (read against its schema already; the kernel reads the envelope). */
  receive(envelope: unknown): void;
  /** The worker is gone: calls still running are aborted, and nothing more is sent. */
  end(): void;
}

export function workerRpc(send: (message: HostToWorkerMessage) => void, answer: ServeOptions<never>['call']): WorkerRpc {
  const messageListeners: Array<(message: unknown, bytes: number) => void> = [];
  const closeListeners: Array<() => void> = [];
  let closed = false;
  const transport: Transport<unknown, ToClient<never>> = {
    get closed() {
      return closed;
    },
    send: (message) => send({ type: 'rpc', message }),
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    close: () => undefined,
  };
  serve(transport, { call: answer, invalid: 'The rpc message is not a call or a cancel.' });
  return {
    receive(envelope) {
      // The frame's size was checked where it was read; the calls measure nothing again.
      if (!closed) for (const listener of messageListeners) listener(envelope, 0);
    },
    end() {
      if (closed) return;
      closed = true;
      for (const listener of closeListeners) listener();
    },
  };
}
