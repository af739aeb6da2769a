// The extension log: sanitized lines, capped by count and bytes; stream line splitting.
import { describe, expect, it } from 'vitest';
import { ExtensionLog, formatLogEntry, LineSplitter, LOG_MAX_LINE_CHARS, sanitizeLogLine } from '../../../electron/core/extensions/extension-log';

describe('sanitizeLogLine', () => {
  it('W16: strips ANSI colours, cursor moves, OSC titles, control and bidi characters; keeps tabs and text', () => {
    expect(sanitizeLogLine('\u001b[31mred\u001b[0m \u001b[2K\u001b[1Aup')).toBe('red up');
    expect(sanitizeLogLine('\u001b]0;evil title\u0007after')).toBe('after');
    expect(sanitizeLogLine('bell\u0007 nul\u0000 del\u007f c1\u009b')).toBe('bell nul del c1');
    expect(sanitizeLogLine('safe\u202etxt.exe')).toBe('safetxt.exe');
    expect(sanitizeLogLine('tab\there · naïve 日本')).toBe('tab\there · naïve 日本');
  });

  it('clips very long lines', () => {
    const line = sanitizeLogLine('x'.repeat(LOG_MAX_LINE_CHARS + 10));
    expect(line.startsWith('x'.repeat(LOG_MAX_LINE_CHARS))).toBe(true);
    expect(line.endsWith('… (10 more characters)')).toBe(true);
  });
});

describe('ExtensionLog', () => {
  it('keeps the newest 1000 lines', () => {
    const log = new ExtensionLog();
    for (let i = 0; i < 1500; i++) log.append(i, 'info', 'stdout', `line ${i}`);
    const entries = log.read();
    expect(entries).toHaveLength(1000);
    expect(entries[0]?.text).toBe('line 500');
    expect(entries.at(-1)?.text).toBe('line 1499');
  });

  it('keeps at most 256 KB', () => {
    const log = new ExtensionLog();
    for (let i = 0; i < 200; i++) log.append(i, 'info', 'stdout', `${i} ${'y'.repeat(4000)}`);
    const entries = log.read();
    const bytes = entries.reduce((n, e) => n + Buffer.byteLength(e.text), 0);
    expect(bytes).toBeLessThanOrEqual(256 * 1024);
    expect(entries.length).toBeGreaterThan(50);
    expect(entries.at(-1)?.text.startsWith('199 ')).toBe(true);
  });

  it('splits multi-line messages and reads after a sequence number', () => {
    const log = new ExtensionLog();
    const added = log.append(5, 'error', 'worker', 'first\nsecond\r\nthird');
    expect(added.map((e) => e.text)).toEqual(['first', 'second', 'third']);
    expect(log.read(added[0]!.seq).map((e) => e.text)).toEqual(['second', 'third']);
    expect(formatLogEntry(added[0]!)).toBe('1970-01-01T00:00:00.005Z worker error: first');
  });
});

describe('LineSplitter', () => {
  it('joins chunks split mid-line and flushes the rest', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    splitter.push('hel');
    splitter.push('lo\nwor');
    splitter.push('ld\r\n\npartial');
    expect(lines).toEqual(['hello', 'world', '']);
    splitter.flush();
    expect(lines).toEqual(['hello', 'world', '', 'partial']);
  });

  it('does not buffer an endless line without bound', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter((l) => lines.push(l));
    for (let i = 0; i < 10; i++) splitter.push('z'.repeat(1000));
    expect(lines.length).toBe(2);
    expect(lines.every((l) => l.length === LOG_MAX_LINE_CHARS)).toBe(true);
  });
});
