// Browser mode's carrier for the RPC kernel (shared/rpc): one JSON text per WebSocket message, each message's size
// taken from the frame as received. A frame that is not JSON is answered at once and the link goes on.
import type { RawData, WebSocket } from 'ws';
import type { ToClient } from '../../shared/rpc/envelope';
import type { Transport } from '../../shared/rpc/transport';

export function wsSocketTransport<E>(ws: WebSocket): Transport<unknown, ToClient<E>> {
  const closeListeners: Array<() => void> = [];
  const send = (message: ToClient<E>) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  let closed = false;
  const ended = () => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener();
  };
  ws.on('close', ended);
  ws.on('error', ended);
  return {
    send,
    onMessage(listener) {
      ws.on('message', (data: RawData, isBinary: boolean) => {
        const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
        let message: unknown;
        try {
          message = JSON.parse(isBinary ? '' : data.toString());
        } catch {
          return send({ kind: 'error', error: { code: 'INVALID_INPUT', message: 'Message is not JSON.' } });
        }
        listener(message, bytes);
      });
    },
    onClose: (listener) => void closeListeners.push(listener),
    close: () => ws.terminate(),
    get closed() {
      return closed || ws.readyState !== ws.OPEN;
    },
  };
}
