// Newline-delimited JSON frames on the pipes between the host and a worker, with a maximum frame size.
//
// Node's own IPC channel throws inside its reader when the other side writes a line that is not
// JSON, and that exception takes the whole host down. A worker runs a stranger's code, so the host
// reads its pipe itself: a bad or oversized frame ends that worker (WORKER_PROTOCOL), never the host.
// JSON.stringify never emits a raw newline, so one line is one message.

/** Longest frame a worker may write, in UTF-16 units: a request within MAX_REQUEST_CHARS, with room to spare. */
export const MAX_WORKER_FRAME_CHARS = 16 * 1024 * 1024;
/** Longest `params` of a request, as JSON; the worker refuses a longer one before it is sent (INPUT_TOO_LARGE). */
export const MAX_REQUEST_CHARS = 12 * 1024 * 1024;
/** Longest frame the host writes (a call with its chat context); the worker refuses longer ones too. */
export const MAX_HOST_FRAME_CHARS = 32 * 1024 * 1024;

/** One message as a frame. */
export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

export type FrameError = { reason: 'too-large'; limit: number } | { reason: 'not-json'; detail: string };

/** What a FrameError says to a person. */
export function describeFrameError(error: FrameError): string {
  return error.reason === 'too-large'
    ? `it wrote a message longer than ${error.limit} characters`
    : `it wrote a line that is not JSON (${error.detail})`;
}

/**
 * Splits text chunks into frames and parses each. The first bad frame stops it for good: the stream
 * can no longer be trusted, and whatever follows is dropped without being buffered.
 */
export class FrameDecoder {
  private pending: string[] = [];
  private pendingLength = 0;
  private failed = false;

  constructor(
    private readonly maxChars: number,
    private readonly onFrame: (message: unknown) => void,
    private readonly onError: (error: FrameError) => void,
  ) {}

  get stopped(): boolean {
    return this.failed;
  }

  push(chunk: string): void {
    let start = 0;
    while (!this.failed) {
      const newline = chunk.indexOf('\n', start);
      if (newline === -1) {
        const rest = chunk.length - start;
        if (this.pendingLength + rest > this.maxChars) return this.fail({ reason: 'too-large', limit: this.maxChars });
        if (rest > 0) {
          this.pending.push(start === 0 ? chunk : chunk.slice(start));
          this.pendingLength += rest;
        }
        return;
      }
      if (this.pendingLength + (newline - start) > this.maxChars) return this.fail({ reason: 'too-large', limit: this.maxChars });
      let line = chunk.slice(start, newline);
      if (this.pending.length) {
        line = this.pending.join('') + line;
        this.pending = [];
        this.pendingLength = 0;
      }
      start = newline + 1;
      if (line.length === 0) continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch (err) {
        return this.fail({ reason: 'not-json', detail: err instanceof Error ? err.message.slice(0, 120) : 'parse error' });
      }
      this.onFrame(message);
    }
  }

  private fail(error: FrameError): void {
    this.failed = true;
    this.pending = [];
    this.pendingLength = 0;
    this.onError(error);
  }
}
