// The worker's one link to the host: framed JSON on two pipes the host made (Node), or Electron's parentPort.
const net = process.getBuiltinModule('node:net');
import { encodeFrame, FrameDecoder, MAX_HOST_FRAME_CHARS, describeFrameError } from '../../shared/protocol/framing';

/** Set by the Node launcher: the fds of the host → worker and worker → host pipes. */
export const WORKER_FDS_ENV = 'COUNCIL_WORKER_FDS';

/** Whether a message went out; a refused one was never written (the host ends a worker whose frame breaks its rules). */
export type Sent = { ok: true } | { ok: false; reason: 'not-json'; detail: string } | { ok: false; reason: 'too-large'; chars: number };

export interface SendOptions {
  /** Runs once the message is handed over (or dropped). */
  done?: () => void;
  /** Refuse a message longer than this many characters of JSON. */
  maxChars?: number;
}

const SENT: Sent = { ok: true };
const notJson = (err: unknown): Sent => ({ ok: false, reason: 'not-json', detail: err instanceof Error ? err.message : String(err) });

export interface HostPort {
  readonly kind: 'utility' | 'pipes';
  /** The streams it reads and writes (the lockdown seals their handle class). */
  readonly streams: object[];
  /** Never throws; a message to a gone host is dropped (and counts as sent). */
  send(message: unknown, options?: SendOptions): Sent;
  /** `chars`: the message's length as it came (0 where the carrier does not say: Electron's parentPort). */
  onMessage(listener: (message: unknown, chars: number) => void): void;
  /** The host went away, or wrote something that is not a frame: the worker should exit. */
  onClose(listener: (why: string) => void): void;
}

export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

/** Electron's parentPort as the worker's channel (exported for its test). */
export function utilityPort(parentPort: ParentPortLike): HostPort {
  return {
    kind: 'utility',
    streams: [],
    send(message, options = {}) {
      // A structured clone holds no text to measure, so a capped message is measured as the host will measure it.
      if (options.maxChars !== undefined) {
        let chars: number;
        try {
          chars = JSON.stringify(message).length;
        } catch (err) {
          options.done?.();
          return notJson(err);
        }
        if (chars > options.maxChars) {
          options.done?.();
          return { ok: false, reason: 'too-large', chars };
        }
      }
      try {
        parentPort.postMessage(message);
      } catch (err) {
        options.done?.();
        // What structured clone refuses (a function deep in the params) was never sent: say so, or its call would wait
        // forever. A closed port drops the message, like utilityProcess itself.
        if ((err as { name?: unknown } | null)?.name === 'DataCloneError') return notJson(err);
        return SENT;
      }
      options.done?.();
      return SENT;
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
    send(message, options = {}) {
      const done = options.done;
      if (closed || output.destroyed) {
        done?.();
        return SENT;
      }
      let frame: string;
      try {
        frame = encodeFrame(message);
      } catch (err) {
        done?.();
        return notJson(err);
      }
      if (options.maxChars !== undefined && frame.length > options.maxChars) {
        done?.();
        return { ok: false, reason: 'too-large', chars: frame.length };
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
      output.write(frame, () => done?.());
      return SENT;
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
