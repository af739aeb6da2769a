// A worker's stdout and stderr as log lines, and the recent error lines a crash is explained by.
import type { LogLevel } from '../../../shared/protocol';
import { LineSplitter, type LogSource } from './extension-log';
import { crashLine } from './worker-exit';

const KEPT_ERROR_LINES = 200;

export class WorkerOutput {
  /** The last lines the worker wrote to stderr or logged as errors. */
  private readonly recentErrors: string[] = [];

  constructor(private readonly log: (level: LogLevel, source: LogSource, text: string) => void) {}

  /** Splits a stream into log lines (stdout at info, stderr at warn; stderr also kept for crashLine). */
  pipe(stream: NodeJS.ReadableStream | null, source: 'stdout' | 'stderr'): void {
    if (!stream) return;
    const splitter = new LineSplitter((line) => {
      if (source === 'stderr') this.remember(line);
      this.log(source === 'stderr' ? 'warn' : 'info', source, line);
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => splitter.push(chunk));
    stream.on('end', () => splitter.flush());
    stream.on('error', () => {});
  }

  /** An error the worker logged through spindle.log or console.error. */
  remember(text: string): void {
    this.recentErrors.push(...text.split('\n'));
    if (this.recentErrors.length > KEPT_ERROR_LINES) this.recentErrors.splice(0, this.recentErrors.length - KEPT_ERROR_LINES);
  }

  /** The line that says why it crashed (`TypeError: …`), if it wrote one. */
  crashLine(): string | undefined {
    return crashLine(this.recentErrors);
  }
}
