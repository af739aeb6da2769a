// Newline-delimited JSON frames on the pipes between the host and a worker, with a maximum frame size.
//
// Node's own IPC channel throws inside its reader when the other end writes a line that is not JSON,
// and nothing can catch that: one line from an extension took the host down. So the host and the
// worker read their pipes themselves. JSON.stringify never writes a raw newline, so one line is one
// message. A reader never holds more than one frame's worth of text: a writer that goes on past the
// maximum without a newline is cut off there, not buffered.

/** Longest frame either side writes or reads, in UTF-16 units (a 1 MB result escaped as JSON fits with room). */
export const MAX_FRAME_CHARS = 16 * 1024 * 1024;

/** One message as one frame. */
export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

export type FrameFault = { kind: 'oversized'; limit: number } | { kind: 'not-json'; detail: string };

/** What a fault says to a person, after "the worker…". */
export function describeFrameFault(fault: FrameFault): string {
  return fault.kind === 'oversized'
    ? `wrote a message longer than ${fault.limit} characters (or text without a line end)`
    : `wrote a line that is not JSON (${fault.detail})`;
}

/**
 * Splits decoded text into frames and parses each. The first fault ends it for good: the stream can
 * no longer be trusted, and whatever follows is dropped unread.
 */
export class FrameDecoder {
  private pending: string[] = [];
  private pendingChars = 0;
  private faulted = false;

  constructor(
    private readonly onFrame: (message: unknown) => void,
    private readonly onFault: (fault: FrameFault) => void,
    private readonly maxChars = MAX_FRAME_CHARS,
  ) {}

  get stopped(): boolean {
    return this.faulted;
  }

  push(chunk: string): void {
    let start = 0;
    while (!this.faulted) {
      const end = chunk.indexOf('\n', start);
      const length = (end === -1 ? chunk.length : end) - start;
      if (this.pendingChars + length > this.maxChars) return this.fault({ kind: 'oversized', limit: this.maxChars });
      if (end === -1) {
        if (length > 0) {
          this.pending.push(start === 0 ? chunk : chunk.slice(start));
          this.pendingChars += length;
        }
        return;
      }
      let line = chunk.slice(start, end);
      if (this.pending.length > 0) {
        this.pending.push(line);
        line = this.pending.join('');
        this.pending = [];
        this.pendingChars = 0;
      }
      start = end + 1;
      if (line.length > 0) this.parse(line);
    }
  }

  private parse(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      this.fault({ kind: 'not-json', detail: err instanceof Error ? err.message.slice(0, 120) : 'parse error' });
      return;
    }
    this.onFrame(message);
  }

  private fault(fault: FrameFault): void {
    this.faulted = true;
    this.pending = [];
    this.pendingChars = 0;
    this.onFault(fault);
  }
}
