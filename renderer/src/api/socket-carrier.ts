// One browser WebSocket as an RPC kernel transport: calls made before it opens wait and go out on open; a call the
// socket must not carry (not JSON, or over its method's cap) is answered here, by id, from the text already made, so
// the host never closes the socket over it; the host's link errors are handed up (an UNAUTHORIZED one means the token).
import type { HostError } from '../../../shared/errors';
import type { ToServer } from '../../../shared/rpc/envelope';
import { fedTransport } from '../../../shared/rpc/fed-transport';
import type { Transport } from '../../../shared/rpc/transport';
import { inputLimit, MAX_WS_MESSAGE_BYTES } from '../../../shared/limits';
import { describeThrown } from './errors';

/** The slice of the WebSocket API this client uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface SocketCarrier extends Transport<unknown, ToServer> {
  /** The socket opened: what waited goes out. */
  opened(): void;
  /** A frame the socket received. */
  received(data: unknown): void;
  /** The socket is gone: calls still waiting for an answer end (the kernel client answers them). */
  ended(): void;
}

type Refusal = { id: number; error: HostError };

/** The text of a message, or why it is not sent. */
function encode(message: ToServer): { text: string } | Refusal {
  if (message.kind !== 'invoke') return { text: JSON.stringify(message) };
  const { id, method } = message;
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (err) {
    return { id, error: { code: 'INVALID_INPUT', message: `Input for ${method} cannot be sent: ${describeThrown(err)}` } };
  }
  // Every UTF-16 unit is 1–3 UTF-8 bytes, so most messages need no count.
  const limit = Math.min(inputLimit(method), MAX_WS_MESSAGE_BYTES);
  if (text.length * 3 > limit && (text.length > limit || new TextEncoder().encode(text).length > limit)) {
    return { id, error: { code: 'INPUT_TOO_LARGE', message: `Input for ${method} is over ${limit} bytes; it was not sent.` } };
  }
  return { text };
}

export function socketCarrier(socket: SocketLike, onLinkError: (error: HostError) => void): SocketCarrier {
  const waiting: Array<{ id: number | null; text: string }> = [];
  let open = false;
  const refuse = (id: number, error: HostError) => fed.deliver({ kind: 'result', id, result: { ok: false, error } }, 0);
  const put = (id: number | null, text: string) => {
    try {
      socket.send(text);
    } catch (err) {
      if (id !== null) refuse(id, { code: 'HOST_SHUTDOWN', message: `The call could not be sent: ${describeThrown(err)}` });
    }
  };
  const fed = fedTransport<unknown, ToServer>({
    send(message) {
      // A call that ended (its deadline) before the socket opened is not sent at all.
      if (message.kind === 'cancel' && !open) {
        const at = waiting.findIndex((w) => w.id === message.id);
        if (at >= 0) waiting.splice(at, 1);
        return;
      }
      const encoded = encode(message);
      if ('error' in encoded) return refuse(encoded.id, encoded.error);
      const id = message.kind === 'subscribe' ? null : message.id;
      if (open) put(id, encoded.text);
      else waiting.push({ id, text: encoded.text });
    },
    close: () => socket.close(1000, 'window closing'),
  });

  return Object.assign(fed.transport, {
    opened() {
      open = true;
      for (const { id, text } of waiting.splice(0)) put(id, text);
    },
    received(data: unknown) {
      if (fed.transport.closed || typeof data !== 'string') return;
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch {
        return;
      }
      const link = value as { kind?: unknown; error?: unknown };
      if (link?.kind === 'error' && typeof link.error === 'object' && link.error !== null) return onLinkError(link.error as HostError);
      fed.deliver(value, data.length);
    },
    ended() {
      waiting.length = 0;
      fed.end();
    },
  });
}
