// What a worker's channel delivers, checked before the host acts on it: the same rules for both doors.
//
// Node workers write newline-delimited JSON on a pipe (FrameDecoder: JSON, size cap); Electron's
// utilityProcess delivers structured-clone values (acceptStructured: a plain object of JSON data
// under the same cap). Anything else is a protocol violation: the worker is ended with
// WORKER_PROTOCOL, and the host goes on.
import { describeFrameError, FrameDecoder, MAX_WORKER_FRAME_CHARS } from '../../../../shared/protocol/framing';

export type Inbound = { ok: true; message: Record<string, unknown> } | { ok: false; detail: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A structured-clone message (utilityProcess): a plain object whose JSON fits the frame cap. A result's `text` is
 * counted as it is (as the pipe's framing carries it), not serialized again.
 */
export function acceptStructured(value: unknown, maxChars = MAX_WORKER_FRAME_CHARS): Inbound {
  if (!isPlainObject(value)) return { ok: false, detail: `it sent a message that is not an object (${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})` };
  const { text, ...header } = value;
  const textChars = typeof text === 'string' ? text.length : 0;
  let json: string | undefined;
  try {
    json = JSON.stringify(typeof text === 'string' ? header : value);
  } catch (err) {
    return { ok: false, detail: `it sent a message that is not JSON data (${err instanceof Error ? err.message.slice(0, 120) : 'unserializable'})` };
  }
  if (json === undefined || json.length + textChars > maxChars) return { ok: false, detail: `it wrote a message longer than ${maxChars} characters` };
  return { ok: true, message: value };
}

/** A pipe reader (Node workers): frames in, checked messages out; the first violation ends it. */
export function frameReader(deliver: (message: Record<string, unknown>) => void, fail: (detail: string) => void, maxChars = MAX_WORKER_FRAME_CHARS): FrameDecoder {
  return new FrameDecoder(
    maxChars,
    (message) => {
      if (isPlainObject(message)) deliver(message);
      else fail(`it sent a message that is not an object (${Array.isArray(message) ? 'an array' : message === null ? 'null' : typeof message})`);
    },
    (error) => fail(describeFrameError(error)),
  );
}
