// The stdio transport's line reader, with a budget on log notifications so a flooding server cannot starve the host.
//
// The SDK validates every incoming line with zod (~150 µs each, mostly failed union branches): 50 000
// `notifications/message` lines keep the event loop ~90 % busy for seconds. This reader parses the
// JSON first and drops log notifications beyond `maxLogPerSecond` before any zod work; everything else
// goes through the SDK's own JSONRPCMessageSchema unchanged. It replaces the transport's private
// `_readBuffer` (append/readMessage/clear, pinned SDK 1.32.2); when that field is not there the SDK's
// reader stays and only the host-side caps apply.
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ReadBudget {
  maxLogPerSecond: number;
  now(): number;
  /** Called at most once per second with the number of log notifications dropped in the last window. */
  onDropped(count: number): void;
}

class BudgetedReadBuffer {
  private buffer: Buffer | undefined;
  private windowStart = 0;
  private inWindow = 0;
  private dropped = 0;

  constructor(private readonly budget: ReadBudget) {}

  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${STDIO_DEFAULT_MAX_BUFFER_SIZE} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    for (;;) {
      if (!this.buffer) return null;
      const index = this.buffer.indexOf('\n');
      if (index === -1) return null;
      const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(index + 1);
      const raw: unknown = JSON.parse(line);
      if (this.overBudget(raw)) continue;
      return JSONRPCMessageSchema.parse(raw);
    }
  }

  clear(): void {
    this.buffer = undefined;
  }

  private overBudget(raw: unknown): boolean {
    if ((raw as { method?: unknown } | null)?.method !== 'notifications/message') return false;
    const now = this.budget.now();
    if (now - this.windowStart >= 1000) {
      if (this.dropped > 0) this.budget.onDropped(this.dropped);
      this.windowStart = now;
      this.inWindow = 0;
      this.dropped = 0;
    }
    if (this.inWindow < this.budget.maxLogPerSecond) {
      this.inWindow++;
      return false;
    }
    this.dropped++;
    return true;
  }

  /** Reports a drop count still pending when the stream goes quiet. */
  flushDropped(): void {
    if (this.dropped > 0) this.budget.onDropped(this.dropped);
    this.dropped = 0;
  }
}

/** Installs the budgeted reader; returns a flush for the pending drop count, or null when the SDK's shape differs. */
export function installReadBudget(transport: StdioClientTransport, budget: ReadBudget): (() => void) | null {
  const target = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown; clear?: unknown } };
  const current = target._readBuffer;
  if (!current || typeof current.append !== 'function' || typeof current.readMessage !== 'function' || typeof current.clear !== 'function') return null;
  const reader = new BudgetedReadBuffer(budget);
  target._readBuffer = reader as unknown as typeof current;
  return () => reader.flushDropped();
}
