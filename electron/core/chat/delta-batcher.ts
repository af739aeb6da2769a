// Coalesces streamed tokens into few chat.delta events: everything that arrives in one event-loop turn goes out as one event.
//
// Why per turn and not on a 16 ms timer: a timer adds up to a frame of latency to every token,
// while a network read already delivers many tokens in one turn. Tokens that arrive together leave
// together; a slow stream (one token per read) is not delayed at all. A fast stream can keep one
// turn busy for many milliseconds (the SDK parses a whole read in microtasks), so a token never
// waits longer than `maxWaitMs` either. The renderer still draws once per animation frame from its
// store. `minIntervalMs` adds a rate cap for callers that want one (it trades latency for fewer events).
import { systemTimers, type Timers } from '../ports';

export interface DeltaBatcherOptions {
  /** At least this long between two flushes (0 = flush at the end of every turn). Default 0. */
  minIntervalMs?: number;
  /** Flush at once when this many characters are waiting. Default 64 KiB. */
  maxChars?: number;
  /** Flush at once when the oldest waiting text has waited this long (ms). Default 1. */
  maxWaitMs?: number;
  now?: () => number;
  /** For the rate cap's wait (fake time in tests). The end-of-turn flush is setImmediate: a loop turn, not a time. */
  timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>;
}

export class DeltaBatcher {
  private buffer: string[] = [];
  private chars = 0;
  private scheduled: { immediate: NodeJS.Immediate } | { timer: unknown } | null = null;
  private lastFlush = -Infinity;
  private firstAt = 0;
  private readonly maxWait: number;
  private readonly minInterval: number;
  private readonly maxChars: number;
  private readonly now: () => number;
  private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>;

  constructor(
    private readonly sink: (text: string) => void,
    options: DeltaBatcherOptions = {},
  ) {
    this.minInterval = options.minIntervalMs ?? 0;
    this.maxChars = options.maxChars ?? 64 * 1024;
    this.maxWait = options.maxWaitMs ?? 1;
    this.now = options.now ?? (() => performance.now());
    this.timers = options.timers ?? systemTimers;
  }

  push(text: string): void {
    if (!text) return;
    const at = this.now();
    if (this.chars === 0) this.firstAt = at;
    this.buffer.push(text);
    this.chars += text.length;
    if (this.chars >= this.maxChars || (this.minInterval === 0 && at - this.firstAt >= this.maxWait)) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    const wait = this.minInterval - (this.now() - this.lastFlush);
    this.scheduled = wait > 0 ? { timer: this.timers.setTimeout(() => this.flush(), wait) } : { immediate: setImmediate(() => this.flush()) };
  }

  /** Sends whatever is waiting now (before a tool-call or finish event, so order holds). */
  flush(): void {
    this.cancel();
    if (this.chars === 0) return;
    const text = this.buffer.length === 1 ? this.buffer[0]! : this.buffer.join('');
    this.buffer = [];
    this.chars = 0;
    this.lastFlush = this.now();
    this.sink(text);
  }

  private cancel(): void {
    if (!this.scheduled) return;
    if ('timer' in this.scheduled) this.timers.clearTimeout(this.scheduled.timer);
    else clearImmediate(this.scheduled.immediate);
    this.scheduled = null;
  }

  dispose(): void {
    this.cancel();
    this.buffer = [];
    this.chars = 0;
  }
}
