// The app socket's carrier for the RPC kernel (shared/rpc): newline-delimited JSON frames (shared/protocol/framing.ts)
// on a unix socket, each message's size taken from the line as read.
import type net from 'node:net';
import { encodeFrame, FrameDecoder, type FrameError } from '../../../shared/protocol/framing';
import { fedTransport } from '../../../shared/rpc/fed-transport';
import type { Transport } from '../../../shared/rpc/transport';

/** The longest frame either side accepts: a backup import is the largest input (shared/limits.ts), plus its JSON. */
export const MAX_FRAME_CHARS = 300 * 1024 * 1024;

/** `onBadFrame`: a line that is not JSON, or too long; the stream cannot be trusted further (the caller ends it). */
export function socketTransport<In, Out>(socket: net.Socket, onBadFrame: (error: FrameError) => void): Transport<In, Out> {
  const fed = fedTransport<In, Out>({ send: (message) => void socket.write(encodeFrame(message)), close: () => socket.destroy(), gone: () => socket.destroyed });
  const decoder = new FrameDecoder(MAX_FRAME_CHARS, (message, line) => fed.deliver(message as In, line === null ? 0 : Buffer.byteLength(line)), onBadFrame);
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => decoder.push(chunk));
  socket.on('error', () => socket.destroy());
  socket.on('close', fed.end);
  return fed.transport;
}
