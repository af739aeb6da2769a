// The app socket's wire: one JSON document per line, each way. The CLI invokes contract methods and may ask for the
// host's events; the app answers each invoke once, by id.
import type { HostError, Result } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/events';

export type ToApp = { kind: 'invoke'; id: number; method: string; input: unknown } | { kind: 'subscribe' };
export type FromApp = { kind: 'result'; id: number; result: Result<unknown> } | { kind: 'event'; event: HostEvent } | { kind: 'error'; error: HostError };

/** The largest line either side accepts: a backup import is the largest input (shared/limits.ts), plus its JSON. */
export const MAX_LINE_BYTES = 300 * 1024 * 1024;

/** Splits a byte stream into lines; a line over the cap is reported once and the stream should be closed. */
export function lineReader(onLine: (line: string) => void, onTooLong: () => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  let size = 0;
  let failed = false;
  return (chunk) => {
    if (failed) return;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      onLine(Buffer.concat(pending).toString('utf8'));
      pending = [];
      size = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      size += chunk.length - start;
      if (size > MAX_LINE_BYTES) {
        failed = true;
        onTooLong();
      }
    }
  };
}

export function encode(message: ToApp | FromApp): string {
  return `${JSON.stringify(message)}\n`;
}
