// A worker's stdout and stderr as log lines, and the recent error lines a crash is explained by.
import type { LogLevel } from '../../../../shared/protocol';
import { LineSplitter, type LogSource } from '../extension-log';
import { crashLine } from './worker-exit';

export type { LogSource };

const KEPT_LINES = 200;
/** `(node:1234) [MODULE_TYPELESS_PACKAGE_JSON] Warning: …`, `(node:1234) ExperimentalWarning: …` */
const NODE_WARNING = /^\(node:\d+\) (?:\[[A-Z0-9_]+\] )?\w*Warning: /;
/** The line Node closes its first warning with. */
const TRACE_HINT = /^\(Use `\S+ --trace-\w+/;
/** A warning's explanation runs a few lines at most; past that, stderr is stderr again. */
const MAX_WARNING_LINES = 8;

/**
 * The level of each stderr line: Node's own warnings (and the lines that continue them) are warnings, not
 * errors; everything else on stderr is an error.
 */
export function stderrLevels(): (line: string) => LogLevel {
  let left = 0;
  return (line) => {
    if (NODE_WARNING.test(line)) {
      left = MAX_WARNING_LINES;
      return 'warn';
    }
    if (left > 0 && line.trim() !== '') {
      left = TRACE_HINT.test(line) ? 0 : left - 1;
      return 'warn';
    }
    left = 0;
    return 'error';
  };
}

export class WorkerOutput {
  /** The last lines the worker wrote to stderr or logged as errors, oldest first. */
  private readonly recent: string[] = [];

  constructor(private readonly onLog: (level: LogLevel, source: LogSource, text: string) => void) {}

  pipe(stream: NodeJS.ReadableStream | null, source: LogSource, level: LogLevel): void {
    if (!stream) return;
    const levelOf = source === 'stderr' && level === 'error' ? stderrLevels() : () => level;
    const splitter = new LineSplitter((line) => {
      if (source === 'stderr') this.remember(line);
      this.onLog(levelOf(line), source, line);
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
