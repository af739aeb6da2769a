// A MessagePort as a kernel transport (the window's port to an extension frame): structured clones in and out, so a
// message has no size on this carrier (0). A port says nothing when its other end goes, so the link ends when this
// side closes it.
import { fedTransport, type FedTransport } from './fed-transport';
import type { Transport } from './transport';

/** The slice of a MessagePort the transport uses. */
export interface PortLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export function portTransport<In, Out>(port: PortLike): Transport<In, Out> {
  const fed: FedTransport<In, Out> = fedTransport<In, Out>({
    send: (message) => port.postMessage(message),
    close() {
      port.close();
      fed.end();
    },
  });
  port.onmessage = (event) => fed.deliver(event.data as In, 0);
  return fed.transport;
}
