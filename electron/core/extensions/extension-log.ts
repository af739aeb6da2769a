// One extension's log: a ring buffer capped by lines and bytes, with terminal escapes and control characters removed.
import type { LogLevel } from '../../../shared/protocol';

export type LogSource = 'worker' | 'stdout' | 'stderr' | 'host';

export interface ExtensionLogEntry {
  seq: number;
  at: number;
  level: LogLevel;
  source: LogSource;
  text: string;
}

export const LOG_MAX_LINES = 1000;
export const LOG_MAX_BYTES = 256 * 1024;
export const LOG_MAX_LINE_CHARS = 4096;

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-character ESC sequences.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 except tab, DEL, C1, and bidi overrides/isolates that can disguise text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Makes one line safe to show as text: no escapes, no control characters, bounded length. */
export function sanitizeLogLine(text: string): string {
  const clean = text.replace(ANSI, '').replace(CONTROL, '');
  return clean.length > LOG_MAX_LINE_CHARS ? `${clean.slice(0, LOG_MAX_LINE_CHARS)}… (${clean.length - LOG_MAX_LINE_CHARS} more characters)` : clean;
}

/** One entry as a display line: `2026-01-02T03:04:05.678Z stderr warn: text`. */
export function formatLogEntry(entry: ExtensionLogEntry): string {
  return `${new Date(entry.at).toISOString()} ${entry.source} ${entry.level}: ${entry.text}`;
}

/** Lines streamed as events per second; more are stored and counted, then summarised. */
export const MAX_LOG_EVENTS_PER_SECOND = 100;

export class ExtensionLog {
  private entries: ExtensionLogEntry[] = [];
  private bytes = 0;
  private seq = 0;
  private window = { start: 0, count: 0, suppressed: 0 };

  constructor(
    private readonly limits: { maxLines: number; maxBytes: number; maxStreamedPerSecond?: number } = { maxLines: LOG_MAX_LINES, maxBytes: LOG_MAX_BYTES },
    /** Keeps what is streamed beyond this process (the log on disk); held-back lines are counted, not kept. */
    private readonly persist?: (entry: ExtensionLogEntry) => void,
  ) {}

  /** Adds one entry per line of `text`; returns what was stored. */
  append(at: number, level: LogLevel, source: LogSource, text: string): ExtensionLogEntry[] {
    const added: ExtensionLogEntry[] = [];
    for (const line of text.split(/\r\n|\r|\n/)) {
      const entry: ExtensionLogEntry = { seq: ++this.seq, at, level, source, text: sanitizeLogLine(line) };
      this.entries.push(entry);
      this.bytes += Buffer.byteLength(entry.text);
      added.push(entry);
    }
    while (this.entries.length > this.limits.maxLines || (this.bytes > this.limits.maxBytes && this.entries.length > 1)) {
      const dropped = this.entries.shift()!;
      this.bytes -= Buffer.byteLength(dropped.text);
    }
    return added;
  }

  /**
   * Stores `text` and hands each stored line to `stream`, at most MAX_LOG_EVENTS_PER_SECOND (or the log's own
   * limit) a second: a flooding extension or MCP server cannot flood the UI; what was held back is counted in a
   * line of its own.
   */
  record(at: number, level: LogLevel, source: LogSource, text: string, stream: (entry: ExtensionLogEntry) => void): void {
    const max = this.limits.maxStreamedPerSecond ?? MAX_LOG_EVENTS_PER_SECOND;
    if (at - this.window.start >= 1000) {
      const suppressed = this.window.suppressed;
      this.window = { start: at, count: 0, suppressed: 0 };
      if (suppressed > 0) this.record(at, 'info', 'host', `${suppressed} log lines were stored without being streamed (more than ${max} per second).`, stream);
    }
    for (const entry of this.append(at, level, source, text)) {
      if (++this.window.count > max) {
        this.window.suppressed++;
        continue;
      }
      stream(entry);
      this.persist?.(entry);
    }
  }

  /** Entries after `afterSeq` (all by default), oldest first. */
  read(afterSeq = 0): ExtensionLogEntry[] {
    return this.entries.filter((entry) => entry.seq > afterSeq);
  }

  clear(): void {
    this.entries = [];
    this.bytes = 0;
  }
}

/** Splits a byte stream into lines; an unterminated line is flushed once it reaches the line cap. */
export class LineSplitter {
  private partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r\n|\n|\r/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.onLine(line);
    while (this.partial.length > LOG_MAX_LINE_CHARS) {
      this.onLine(this.partial.slice(0, LOG_MAX_LINE_CHARS));
      this.partial = this.partial.slice(LOG_MAX_LINE_CHARS);
    }
  }

  flush(): void {
    if (this.partial !== '') this.onLine(this.partial);
    this.partial = '';
  }
}
