// The CLI's help: one entry per command, summaries wrapped to the terminal's width.
import type { CliCommand } from './command';

const DEFAULT_WIDTH = 100;
const MIN_WIDTH = 40;

/** Splits text into lines of at most `width` characters, at spaces (a longer word stays whole). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The terminal's width; COLUMNS when output is piped (shells export it), else a default. */
function terminalColumns(): number | undefined {
  return process.stdout.columns || Number(process.env.COLUMNS) || undefined;
}

/** Usage lines first, each summary indented below its command, nothing wider than `columns`. */
export function helpText(commands: CliCommand[], columns: number | undefined = terminalColumns()): string {
  const width = Math.max(MIN_WIDTH, columns && columns > 0 ? columns : DEFAULT_WIDTH);
  const block = (text: string, indent: string) => wrap(text, width - indent.length).map((line) => `${indent}${line}`);
  return [
    ...block("Usage: npm run cli -- <command> [--data-dir DIR] [--json] [--approve '<glob>']… [--no-host]", ''),
    ...block('When the app runs on the data folder, commands go to it (its window shows their changes); --no-host runs them in this process.', '  '),
    ...block('--approve: tools needing approval run only when a pattern matches their qualified name (e.g. notes:*); others are denied.', '  '),
    '',
    'Commands:',
    ...commands.flatMap((c) => [...block(c.usage, '  '), ...block(c.summary, '      ')]),
  ].join('\n');
}
