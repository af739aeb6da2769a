// A worker's stdout and stderr as log lines, and the recent error lines a crash is explained by.
import type { LogLevel } from '../../../shared/protocol';
import { LineSplitter, type LogSource } from './extension-log';
import { crashLine } from './worker-exit';

export type { LogSource };

const KEPT_LINES = 200;

export class WorkerOutput {
  /** The last lines the worker wrote to stderr or logged as errors, oldest first. */
  private readonly recent: string[] = [];

  constructor(private readonly onLog: (level: LogLevel, source: LogSource, text: string) => void) {}

  pipe(stream: NodeJS.ReadableStream | null, source: LogSource, level: LogLevel): void {
    if (!stream) return;
    const splitter = new LineSplitter((line) => {
      if (source === 'stderr') this.remember(line);
      this.onLog(level, source, line);
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => splitter.push(chunk));
    stream.on('end', () => splitter.flush());
    stream.on('error', () => {});
  }

  remember(text: string): void {
    this.recent.push(...text.split('\n'));
    if (this.recent.length > KEPT_LINES) this.recent.splice(0, this.recent.length - KEPT_LINES);
  }

  /** The first `SomethingError: …` line among them. */
  crashLine(): string | undefined {
    return crashLine(this.recent);
  }
}
