// What every carrier adapter shares: the listeners for messages and for the end, the closed flag, and the end told
// once. An adapter feeds in what its carrier delivers and says how to send and how to close; the kernel sees a
// Transport.
import type { Transport } from './transport';

export interface Carrier<Out> {
  send(message: Out): void;
  /** Closes the carrier; without it, closing ends the link at once. */
  close?(): void;
  /** Whether the carrier is gone though it has not said so yet (a socket no longer open). */
  gone?(): boolean;
}

export interface FedTransport<In, Out> {
  readonly transport: Transport<In, Out>;
  /** A message the carrier delivered, with its size there (0 where the carrier does not say); dropped once ended. */
  deliver(message: In, bytes: number): void;
  /** The carrier is gone: the end is told once, and nothing more is delivered or sent. */
  end(): void;
}

export function fedTransport<In, Out>(carrier: Carrier<Out>): FedTransport<In, Out> {
  const messageListeners: Array<(message: In, bytes: number) => void> = [];
  const closeListeners: Array<() => void> = [];
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    for (const listener of closeListeners) listener();
  };
  return {
    transport: {
      get closed() {
        return ended || (carrier.gone?.() ?? false);
      },
      send(message) {
        if (!ended) carrier.send(message);
      },
      onMessage: (listener) => void messageListeners.push(listener),
      onClose: (listener) => void closeListeners.push(listener),
      close: () => (carrier.close ? carrier.close() : end()),
    },
    deliver(message, bytes) {
      if (!ended) for (const listener of messageListeners) listener(message, bytes);
    },
    end,
  };
}
