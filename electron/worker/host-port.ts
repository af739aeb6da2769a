// The worker's one link to the host: framed JSON on two pipes the host made (Node), or Electron's parentPort.
const net = process.getBuiltinModule('node:net');
import { encodeFrame, FrameDecoder, MAX_HOST_FRAME_CHARS, describeFrameError } from '../../shared/protocol/framing';

/** Set by the Node launcher: the fds of the host → worker and worker → host pipes. */
export const WORKER_FDS_ENV = 'COUNCIL_WORKER_FDS';

export interface HostPort {
  readonly kind: 'utility' | 'pipes';
  /** The streams it reads and writes (the lockdown seals their handle class). */
  readonly streams: object[];
  /** Never throws; a message to a gone host is dropped. `done` runs once it is handed over (or dropped). */
  send(message: unknown, done?: () => void): void;
  /** `chars`: the message's length as it came (0 where the carrier does not say: Electron's parentPort). */
  onMessage(listener: (message: unknown, chars: number) => void): void;
  /** The host went away, or wrote something that is not a frame: the worker should exit. */
  onClose(listener: (why: string) => void): void;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

function utilityPort(parentPort: ParentPortLike): HostPort {
  return {
    kind: 'utility',
    streams: [],
    send(message, done) {
      try {
        parentPort.postMessage(message);
      } catch {
        // A closed port drops the message, like utilityProcess itself.
      }
      done?.();
    },
    onMessage(listener) {
      parentPort.on('message', (event) => listener(event.data, 0));
    },
    // A utilityProcess dies with its parent.
    onClose() {},
  };
}

function pipesPort(inFd: number, outFd: number): HostPort {
  const input = new net.Socket({ fd: inFd, readable: true, writable: false });
  const output = new net.Socket({ fd: outFd, readable: false, writable: true });
  const messageListeners: Array<(message: unknown, chars: number) => void> = [];
  const closeListeners: Array<(why: string) => void> = [];
  let closed = false;
  let corked = false;
  const close = (why: string) => {
    if (closed) return;
    closed = true;
    for (const listener of closeListeners) listener(why);
  };
  const decoder = new FrameDecoder(
    MAX_HOST_FRAME_CHARS,
    (message, line) => {
      const chars = line === null ? 0 : line.length;
      for (const listener of messageListeners) listener(message, chars);
    },
    (error) => close(`the host ${describeFrameError(error)}`),
  );
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => decoder.push(chunk));
  input.on('end', () => close('the host closed the channel'));
  input.on('error', () => close('the channel failed'));
  output.on('error', () => close('the channel failed'));
  return {
    kind: 'pipes',
    streams: [input, output],
    send(message, done) {
      if (closed || output.destroyed) {
        done?.();
        return;
      }
      // Frames written in the same loop turn (answers of calls whose timers fired together) leave in one
      // system call: setImmediate, not nextTick, which would run between those timer callbacks.
      if (!corked) {
        corked = true;
        output.cork();
        setImmediate(() => {
          corked = false;
          output.uncork();
        });
      }
      output.write(encodeFrame(message), () => done?.());
    },
    onMessage(listener) {
      messageListeners.push(listener);
    },
    onClose(listener) {
      closeListeners.push(listener);
    },
  };
}

/** Picks the channel the process was started with, or null when it has none. */
export function detectHostPort(): HostPort | null {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort && typeof parentPort.postMessage === 'function') return utilityPort(parentPort);
  const fds = /^(\d+),(\d+)$/.exec(process.env[WORKER_FDS_ENV] ?? '');
  if (fds) return pipesPort(Number(fds[1]), Number(fds[2]));
  return null;
}
