// Browser mode's carrier for the RPC kernel (shared/rpc): one JSON text per WebSocket message, each message's size
// taken from the frame as received. A frame that is not JSON is answered at once and the link goes on.
import type { RawData, WebSocket } from 'ws';
import type { ToClient } from '../../shared/rpc/envelope';
import { fedTransport } from '../../shared/rpc/fed-transport';
import type { Transport } from '../../shared/rpc/transport';

export function wsSocketTransport<E>(ws: WebSocket): Transport<unknown, ToClient<E>> {
  const fed = fedTransport<unknown, ToClient<E>>({
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
    close: () => ws.terminate(),
    gone: () => ws.readyState !== ws.OPEN,
  });
  ws.on('close', fed.end);
  ws.on('error', fed.end);
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    let message: unknown;
    try {
      message = JSON.parse(isBinary ? '' : data.toString());
    } catch {
      return fed.transport.send({ kind: 'error', error: { code: 'INVALID_INPUT', message: 'Message is not JSON.' } });
    }
    fed.deliver(message, bytes);
  });
  return fed.transport;
}
