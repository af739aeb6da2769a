// @vitest-environment happy-dom
// HTML islands: which HTML blocks of a message are drawn as HTML (in a sandbox frame).
// The cut is lossless (joined, the pieces are the text), finds closed block elements that open a line with the
// HTML right after them, and leaves code, inline tags and unclosed elements as text. What the sanitizer keeps of
// an island is tested where DOMPurify runs as users have it, in Chromium (tests/e2e/html-islands.spec.ts): happy-dom
// parses HTML too loosely for it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlPieces, MAX_ISLAND_CHARS, MAX_ISLANDS, type MessagePiece } from '../../renderer/src/features/workbench/html-islands';

const kinds = (pieces: MessagePiece[]) => pieces.map((p) => (p.kind === 'html' ? `html:${p.html}` : `text:${p.text}`));

describe('htmlPieces', () => {
  it('cuts a styled status panel out of the prose, its <style> and the markup it styles in one island', () => {
    const text = '*She waves.* "Hi!"\n<style>.hp{color:red}</style>\n\n<div class="hp">HP <b>9</b>\n\n<div>inner</div></div>\n"Bye," she says.';
    expect(kinds(htmlPieces(text))).toEqual([
      'text:*She waves.* "Hi!"\n',
      'html:<style>.hp{color:red}</style>\n\n<div class="hp">HP <b>9</b>\n\n<div>inner</div></div>\n',
      'text:"Bye," she says.',
    ]);
  });

  it('leaves inline tags, code blocks, tags mid-line and elements not yet closed as text', () => {
    for (const text of [
      '<b>bold</b> and <span style="color:red">red</span>',
      '```html\n<div>code</div>\n```',
      'Look: <div>mid-line</div>',
      '<details><summary>Still streaming',
      '<style>.a{color:red}',
      '<img src=x onerror=alert(1)>',
      '<my-widget>custom</my-widget>',
    ]) {
      expect(htmlPieces(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('pairs no tag inside a code fence: a block closed only in a fence stays text, and the fence stays whole', () => {
    const text = '<div>\n```html\n</div>\n```\nafter';
    expect(htmlPieces(text)).toEqual([{ kind: 'text', text }]);
    const closed = '<div>\n```\n</div>\n```\n</div>\nafter';
    expect(kinds(htmlPieces(closed))).toEqual(['html:<div>\n```\n</div>\n```\n</div>\n', 'text:after']);
  });

  it('takes a whole page, its doctype first, as one island', () => {
    const page = '<!doctype html>\n<html><head><style>.a{color:red}</style></head><body>\n\n<div class="a">x</div></body></html>';
    expect(kinds(htmlPieces(`Before.\n${page}\nAfter.`))).toEqual(['text:Before.\n', `html:${page}\n`, 'text:After.']);
    expect(htmlPieces('<!doctype html>\nno page')).toEqual([{ kind: 'text', text: '<!doctype html>\nno page' }]);
  });

  it('closes nested same-name elements where the outer one closes, and takes self-closed and void siblings along', () => {
    const text = '<div><div>a</div><div>b</div></div><hr><section/>\ntail';
    expect(kinds(htmlPieces(text))).toEqual(['html:<div><div>a</div><div>b</div></div><hr><section/>\n', 'text:tail']);
  });

  it('draws a block once it closes while the reply streams, the text before it unchanged', () => {
    const full = 'Intro.\n<details><summary>Stats</summary>STR 10</details>\nOutro.';
    const before = htmlPieces(full.slice(0, full.indexOf('</details>')));
    expect(before).toEqual([{ kind: 'text', text: full.slice(0, full.indexOf('</details>')) }]);
    expect(kinds(htmlPieces(full))).toEqual(['text:Intro.\n', 'html:<details><summary>Stats</summary>STR 10</details>\n', 'text:Outro.']);
  });

  it(`stops at ${MAX_ISLANDS} islands a message and leaves one over ${MAX_ISLAND_CHARS} characters as text`, () => {
    const many = Array.from({ length: MAX_ISLANDS + 3 }, (_, i) => `<p>${i}</p>\nx`).join('\n');
    expect(htmlPieces(many).filter((p) => p.kind === 'html')).toHaveLength(MAX_ISLANDS);
    const huge = `<div>${'a'.repeat(MAX_ISLAND_CHARS)}</div>`;
    expect(htmlPieces(huge)).toEqual([{ kind: 'text', text: huge }]);
  });

  it('is lossless for any text', () => {
    const alphabet = fc.constantFrom('<div>', '</div>', '<style>', '</style>', '<p>', '</p>', '<b>', '```\n', '\n', ' ', 'a', '<', '>', '/');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const pieces = htmlPieces(text);
        expect(pieces.map((p) => (p.kind === 'html' ? p.html : p.text)).join('')).toBe(text);
        expect(pieces.every((p) => (p.kind === 'html' ? p.html : p.text).length > 0 || pieces.length === 1)).toBe(true);
      }),
    );
  });

  it('cuts a hostile reply in one pass a tag name: unclosed lines, tags that never end, a close at the very end, a run too long to draw, endless tag names', () => {
    // Each would take minutes to cut in quadratic time, and the test's time-out would stop it; in one pass a tag
    // name it takes milliseconds.
    const unclosed = '<div>\n'.repeat(20_000);
    expect(htmlPieces(unclosed)).toEqual([{ kind: 'text', text: unclosed }]);
    const closedAtTheEnd = `${'<div>\n'.repeat(10_000)}${'</div>'.repeat(10_000)}`;
    expect(htmlPieces(closedAtTheEnd)).toEqual([{ kind: 'html', html: closedAtTheEnd }]);
    const styles = '<style>\n'.repeat(20_000);
    expect(htmlPieces(styles)).toEqual([{ kind: 'text', text: styles }]);
    const noCloser = '<div \n'.repeat(20_000);
    expect(htmlPieces(noCloser)).toEqual([{ kind: 'text', text: noCloser }]);
    const longRun = '<div></div>\n'.repeat(40_000);
    const cut = htmlPieces(longRun);
    expect(cut.filter((p) => p.kind === 'html')).toEqual([]);
    const names = `<div>a</div>${Array.from({ length: 5_000 }, (_, i) => `<x${i}>b</x${i}>`).join('')}`;
    expect(htmlPieces(names)[0]!.kind).toBe('html');
  });
});
