// Newline-delimited JSON frames on the pipes between the host and a worker, with a maximum frame size.
//
// Node's own IPC channel throws inside its reader when the other side writes a line that is not
// JSON, and that exception takes the whole host down. A worker runs a stranger's code, so the host
// reads its pipe itself: a bad or oversized frame ends that worker (WORKER_PROTOCOL), never the host.
// JSON.stringify never emits a raw newline, so one line is one message.
//
// A message's top-level `text` string (a tool result, already serialized once by whoever made it) does not go
// through JSON again: its frame is a header line saying `textChars`, then the text as it is, then a newline. The
// reader takes those characters without parsing them and hands the message back with its `text`.

/** Longest frame a worker may write, in UTF-16 units: a request within MAX_REQUEST_CHARS, with room to spare. */
export const MAX_WORKER_FRAME_CHARS = 16 * 1024 * 1024;
/** Longest `params` of a request, as JSON; the worker refuses a longer one before it is sent (INPUT_TOO_LARGE). */
export const MAX_REQUEST_CHARS = 12 * 1024 * 1024;
/** Longest frame the host writes (a call with its chat context); the worker refuses longer ones too. */
export const MAX_HOST_FRAME_CHARS = 32 * 1024 * 1024;

/** One message as a frame (a `text` string member travels after the header, as it is). */
export function encodeFrame(message: unknown): string {
  if (!hasText(message)) return `${JSON.stringify(message)}\n`;
  const { text, ...header } = message;
  return `${JSON.stringify({ ...header, textChars: text.length })}\n${text}\n`;
}

function hasText(message: unknown): message is { text: string } {
  return typeof message === 'object' && message !== null && typeof (message as { text?: unknown }).text === 'string';
}

export type FrameError = { reason: 'too-large'; limit: number } | { reason: 'not-json'; detail: string };

/** A header read; its text still coming. */
interface PendingText {
  header: Record<string, unknown>;
  chars: number;
  parts: string[];
  got: number;
}

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
  private text: PendingText | null = null;

  constructor(
    private readonly maxChars: number,
    /** `line` is the frame's JSON as read (null for a frame whose text came after its header). */
    private readonly onFrame: (message: unknown, line: string | null) => void,
    private readonly onError: (error: FrameError) => void,
  ) {}

  get stopped(): boolean {
    return this.failed;
  }

  push(chunk: string): void {
    let start = 0;
    while (!this.failed) {
      if (this.text) {
        start = this.takeText(chunk, start);
        if (this.text) return;
        continue;
      }
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
      const textChars = (message as { textChars?: unknown } | null)?.textChars;
      if (textChars === undefined) this.onFrame(message, line);
      else if (!Number.isSafeInteger(textChars) || (textChars as number) < 0) return this.fail({ reason: 'not-json', detail: 'textChars is not a count of characters' });
      else if ((textChars as number) > this.maxChars) return this.fail({ reason: 'too-large', limit: this.maxChars });
      else {
        const { textChars: _, ...header } = message as Record<string, unknown>;
        this.text = { header, chars: textChars as number, parts: [], got: 0 };
      }
    }
  }

  /** Takes a header's text from `chunk` at `start`; returns where the next frame starts (or the chunk's end). */
  private takeText(chunk: string, start: number): number {
    const pending = this.text as PendingText;
    if (pending.got < pending.chars) {
      const piece = chunk.slice(start, start + pending.chars - pending.got);
      pending.parts.push(piece);
      pending.got += piece.length;
      start += piece.length;
      if (pending.got < pending.chars) return start;
    }
    if (start >= chunk.length) return start;
    if (chunk.charCodeAt(start) !== 10) {
      this.fail({ reason: 'not-json', detail: 'a text longer than its header said' });
      return chunk.length;
    }
    this.text = null;
    this.onFrame({ ...pending.header, text: pending.parts.length === 1 ? pending.parts[0] : pending.parts.join('') }, null);
    return start + 1;
  }

  private fail(error: FrameError): void {
    this.failed = true;
    this.pending = [];
    this.pendingLength = 0;
    this.text = null;
    this.onError(error);
  }
}
