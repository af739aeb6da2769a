// Coalescing protocol messages: the `batch` envelope, its caps, and the per-tick outbox both sides send through.
//
// One IPC write costs a system call and usually wakes the other process; with many calls in flight
// that dominates the cost of a trivial tool. The first message of a burst goes at once; the ones that
// follow while the sender is busy go out together as `batch`es. A batch changes nothing else: the receiver
// handles its items in order, each exactly as if it had come alone (parsing, size caps and the
// worker flood count apply per item), and a batch never contains a batch.

/** Several messages in one IPC write, in the order they were queued. */
export interface BatchMessage<T> {
  type: 'batch';
  messages: T[];
}

/** Most items one batch may carry; the host refuses a larger batch from a worker. */
export const MAX_BATCH_ITEMS = 256;
/**
 * A sender writes its batch once it holds this many items, without waiting for the end of its burst:
 * the receiver then works on the first items while the sender prepares the rest. One batch per burst
 * made the two processes take turns (measured: about 75k calls/s with 64 in flight, against about
 * 110k with writes of 16).
 */
export const FLUSH_BATCH_ITEMS = 16;
/** A sender starts a new batch rather than let one grow past this many bytes of JSON (upper bound). */
export const MAX_BATCH_BYTES = 512 * 1024;

export function isBatch(raw: unknown): raw is { type: 'batch'; messages: unknown } {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'batch';
}

/**
 * An upper bound of `JSON.stringify(value)` in UTF-8 bytes, or Infinity once it passes `limit` (or
 * for anything that is not plain JSON data). Cheap for the small values that are worth batching.
 */
export function jsonBytesBound(value: unknown, limit: number): number {
  const bytes = bound(value, limit, 0);
  return bytes > limit ? Infinity : bytes;
}

const MAX_BOUND_DEPTH = 32;
/** Shorter strings are bounded at 6 bytes a unit; longer ones (chat context) are measured. */
const MEASURE_STRINGS_FROM = 16;
/** Printable ASCII that JSON writes as-is: one byte a unit. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function stringBound(value: string, limit: number): number {
  // Every UTF-16 unit is at most 6 bytes of JSON (\uXXXX), plus the quotes.
  if (value.length < MEASURE_STRINGS_FROM) return 2 + 6 * value.length;
  // At least a byte a unit: past the limit without reading it.
  if (value.length + 2 > limit) return value.length + 2;
  if (PLAIN_JSON_TEXT.test(value)) return 2 + value.length;
  let bytes = 2;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) bytes += 6; // \n or \u0001
    else if (c === 0x22 || c === 0x5c) bytes += 2; // \" \\
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdfff) bytes += 6; // a lone surrogate is written as \uXXXX; a pair takes 4 bytes
    else bytes += 3;
  }
  return bytes;
}

function bound(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return stringBound(value, limit);
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
      return 4;
    case 'object': {
      if (value === null) return 4;
      if (depth >= MAX_BOUND_DEPTH) return Infinity;
      let bytes = 2;
      if (Array.isArray(value)) {
        for (const item of value) {
          bytes += 1 + bound(item, limit, depth + 1);
          if (bytes > limit) return Infinity;
        }
        return bytes;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      // toJSON (Date, Buffer) and class instances serialize in ways not worth predicting.
      if (proto !== Object.prototype && proto !== null) return Infinity;
      for (const key in value) {
        bytes += 4 + 6 * key.length + bound((value as Record<string, unknown>)[key], limit, depth + 1);
        if (bytes > limit) return Infinity;
      }
      return bytes;
    }
    default:
      return Infinity;
  }
}

export interface OutboxOptions<T> {
  /** Hands one message (or batch) to the transport; false when the channel is gone. */
  write(message: T | BatchMessage<T>): boolean;
  /** Runs `flush` once the current burst of work is done (process.nextTick in Node). */
  schedule(flush: () => void): void;
  /** Items whose write failed, so the sender can fail what waited on them. */
  onDropped?(items: T[]): void;
  maxItems?: number;
  maxBytes?: number;
}

/** Writes the first message of a burst at once and queues the rest, written as batches of up to maxItems at the end of the burst. */
export class Outbox<T> {
  private items: T[] = [];
  private bytes = 0;
  private scheduled = false;
  private readonly maxItems: number;
  private readonly maxBytes: number;
  private readonly scheduledFlush = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(private readonly options: OutboxOptions<T>) {
    this.maxItems = options.maxItems ?? FLUSH_BATCH_ITEMS;
    this.maxBytes = options.maxBytes ?? MAX_BATCH_BYTES;
  }

  get size(): number {
    return this.items.length;
  }

  /**
   * `measure` bounds the item's JSON size (by default its jsonBytesBound), asked only when the item
   * would join a batch: the first message of a burst is written at once whatever its size, and
   * measuring would be on the path of every lone call. An item too big to share a batch (Infinity:
   * unknown) travels alone, in order.
   */
  push(item: T, measure?: (item: T) => number): void {
    if (!this.scheduled) {
      this.scheduled = true;
      if (this.items.length === 0) {
        // The first message of a burst leaves at once: a lone call or answer pays no scheduling
        // delay, and the receiver starts on it while the rest of the burst queues behind it. The
        // flush that ends the burst is scheduled after the write, off the message's way out.
        this.writeItems([item]);
        this.options.schedule(this.scheduledFlush);
        return;
      }
      this.options.schedule(this.scheduledFlush);
    }
    const size = measure ? measure(item) : jsonBytesBound(item, this.maxBytes);
    if (!(size <= this.maxBytes)) {
      this.flush();
      this.writeItems([item]);
      return;
    }
    if (this.items.length >= this.maxItems || this.bytes + size > this.maxBytes) this.flush();
    this.items.push(item);
    this.bytes += size;
  }

  /** Writes whatever is queued now. */
  flush(): void {
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    this.bytes = 0;
    this.writeItems(items);
  }

  /** Forgets what is queued (the channel is being torn down). */
  clear(): void {
    this.items = [];
    this.bytes = 0;
  }

  private writeItems(items: T[]): void {
    const written = this.options.write(items.length === 1 ? items[0]! : { type: 'batch', messages: items });
    if (!written) this.options.onDropped?.(items);
  }
}
