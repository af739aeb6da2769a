// The worker's one link to the host: framed pipes on fds 3 (in) and 4 (out), or Electron's parentPort.
import fs from 'node:fs';
import net from 'node:net';
import { describeFrameFault, encodeFrame, FrameDecoder, MAX_FRAME_CHARS, type WorkerToHostMessage } from '../../shared/protocol';

/** The host writes to this fd and the worker reads it; the worker writes its frames to OUT_FD. */
export const IN_FD = 3;
export const OUT_FD = 4;

export interface HostPort {
  readonly kind: 'pipes' | 'utility';
  /** Hands one message over at once, in order; a message to a gone host is dropped. */
  send(message: WorkerToHostMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The host is gone or spoke nonsense: the worker must end (pipes only; a utilityProcess dies with its parent). */
  onClose(listener: (why: string) => void): void;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function utilityPort(parentPort: ParentPortLike): HostPort {
  return {
    kind: 'utility',
    send(message) {
      try {
        parentPort.postMessage(message);
      } catch {
        // A closed port drops the message, like utilityProcess itself.
      }
    },
    onMessage(listener) {
      parentPort.on('message', (event) => listener(event.data));
    },
    onClose() {},
  };
}

function isPipe(fd: number): boolean {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isSocket() || stat.isFIFO();
  } catch {
    return false;
  }
}

/** Sleeps the thread for a moment: only when the out pipe reports it is full. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Writes the whole frame before returning. The one writer for every message (results, logs,
 * heartbeats), and synchronous, so frames never interleave and nothing is lost when extension code
 * exits right after.
 */
function writeFrame(frame: string): boolean {
  const bytes = Buffer.from(frame, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(OUT_FD, bytes, offset, bytes.length - offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') pause(1);
      else return false; // EPIPE: the host is gone
    }
  }
  return true;
}

function pipesPort(): HostPort {
  const input = new net.Socket({ fd: IN_FD, readable: true, writable: false });
  const closeListeners: Array<(why: string) => void> = [];
  let closed = false;
  const close = (why: string) => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener(why);
  };
  let deliver: (message: unknown) => void = () => {};
  const decoder = new FrameDecoder(
    (message) => deliver(message),
    (fault) => close(`the host ${describeFrameFault(fault)}`),
  );
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => decoder.push(chunk));
  input.on('end', () => close('the host closed the channel'));
  input.on('error', () => close('the channel to the host failed'));
  return {
    kind: 'pipes',
    send(message) {
      if (closed) return;
      const frame = encodeFrame(message);
      if (frame.length > MAX_FRAME_CHARS) throw new RangeError(`A message of ${frame.length} characters is over the ${MAX_FRAME_CHARS} limit.`);
      if (!writeFrame(frame)) close('the host stopped reading');
    },
    onMessage(listener) {
      deliver = listener;
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
  };
}

/** Picks the transport the process was started with, or null when it has no host. */
export function openHostPort(): HostPort | null {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort && typeof parentPort.postMessage === 'function') return utilityPort(parentPort);
  if (isPipe(IN_FD) && isPipe(OUT_FD)) return pipesPort();
  return null;
}
