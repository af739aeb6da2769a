// A MessagePort as a kernel transport (the window's port to an extension frame): structured clones in and out, so a
// message has no size on this carrier (0). A port says nothing when its other end goes, so the link ends when this
// side closes it.
import type { Transport } from './transport';

/** The slice of a MessagePort the transport uses. */
export interface PortLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export function portTransport<In, Out>(port: PortLike): Transport<In, Out> {
  const messageListeners: Array<(message: In, bytes: number) => void> = [];
  const closeListeners: Array<() => void> = [];
  let closed = false;
  port.onmessage = (event) => {
    if (!closed) for (const listener of messageListeners) listener(event.data as In, 0);
  };
  return {
    get closed() {
      return closed;
    },
    send(message) {
      if (!closed) port.postMessage(message);
    },
    onMessage: (listener) => void messageListeners.push(listener),
    onClose: (listener) => void closeListeners.push(listener),
    close() {
      if (closed) return;
      closed = true;
      port.close();
      for (const listener of closeListeners) listener();
    },
  };
}
