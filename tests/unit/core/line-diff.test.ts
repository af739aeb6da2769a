// The unified diffs shown before a note is written and in the prompt breakdown.
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../shared/text/line-diff';

const numbered = (n: number, prefix = 'l') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join('\n');

describe('unifiedDiff', () => {
  it('a new file is all additions from /dev/null', () => {
    expect(unifiedDiff('n.md', '', 'hello\nworld\n', { created: true })).toBe('--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+hello\n+world\n');
  });

  it('a change in the trailing newline alone says so', () => {
    const diff = unifiedDiff('n.md', 'x', 'x\n');
    expect(diff).toContain('\\ No newline at end of file');
    expect(diff.startsWith('--- a/n.md\n+++ b/n.md\n@@ -1,1 +1,1 @@\n')).toBe(true);
  });

  it('changes far apart are two hunks, each with three lines of context', () => {
    const before = `${numbered(20)}\n`;
    const after = before.replace('l2\n', 'L2\n').replace('l17\n', 'L17\n');
    const diff = unifiedDiff('f.md', before, after);
    expect(diff.match(/^@@.*@@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -15,6 +15,6 @@']);
  });

  it('a change too large to align is shown as the whole text replaced', () => {
    const diff = unifiedDiff('big', numbered(3000, 'a'), numbered(3000, 'b'));
    const body = diff.split('\n').slice(3, -1);
    expect(diff.split('\n')[2]).toBe('@@ -1,3000 +1,3000 @@');
    expect(body.filter((line) => line.startsWith('-'))).toHaveLength(3000);
    expect(body.filter((line) => line.startsWith('+'))).toHaveLength(3000);
    expect(body.slice(0, 3000).every((line) => line.startsWith('-'))).toBe(true);
  });

  it('a rewrite too large to align replaces only the middle, with the lines around it as context', () => {
    const before = numbered(5000);
    const after = before.split('\n').map((line, i) => (i >= 2000 && i < 2600 ? `new ${i}` : line)).join('\n');
    const diff = unifiedDiff('big', `${before}\n`, `${after}\n`);
    expect(diff.split('\n')[2]).toBe('@@ -1998,606 +1998,606 @@');
    expect(diff.split('\n')[3]).toBe(' l1997');
    expect(diff.split('\n')).toHaveLength(1210);
  });

  it('a large new file starts at 0 on the old side, an emptied one at 0 on the new, as diff writes them', () => {
    const text = numbered(1500, 'x');
    expect(unifiedDiff('n.md', '', `${text}\n`, { created: true }).split('\n').slice(0, 3)).toEqual(['--- /dev/null', '+++ b/n.md', '@@ -0,0 +1,1500 @@']);
    const emptied = unifiedDiff('n.md', text, '').split('\n');
    expect(emptied[2]).toBe('@@ -1,1500 +0,0 @@');
    expect(emptied.at(-2)).toBe('\\ No newline at end of file');
  });
});
