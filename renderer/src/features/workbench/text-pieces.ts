// Streamed text cut into lines and pieces whose boundaries never move as the text grows: each finished
// line is its own block (its layout is kept while later ones grow) and each finished piece of a long line
// one untouched text node. Chromium then lays out only the growing tail instead of the whole reply every
// frame. Line breaks stay at the end of the line they close, so the text, its look (white-space:
// pre-wrap draws a block's closing break as nothing) and what a selection copies are unchanged.

/** About how many characters a piece holds before it ends at the next space or line break. */
export const PIECE_CHARS = 512;

/**
 * Splits `text` into consecutive pieces (joined, they are `text`). A piece ends just after the first
 * space or line break at or past `size` characters from its start, or at `2 × size` characters when
 * there is none (text without spaces, such as Chinese or Japanese; never inside a surrogate pair).
 * The rule reads only characters already there, so appending text never moves an earlier boundary.
 */
export function textPieces(text: string, size = PIECE_CHARS): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    const limit = start + 2 * size;
    const space = text.indexOf(' ', start + size);
    const line = text.indexOf('\n', start + size);
    let end = Math.min(space < 0 ? Infinity : space + 1, line < 0 ? Infinity : line + 1);
    if (end > limit) {
      if (text.length <= limit) break; // not decided yet: a space may still come before the limit
      end = isLowSurrogate(text.charCodeAt(limit)) ? limit + 1 : limit;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length || pieces.length === 0) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Splits `text` into lines (joined, they are `text`): a line ends after its run of line breaks, once a
 * character other than a line break follows (before that, more breaks may still join the run).
 */
export function textLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let br = text.indexOf('\n'); br >= 0; br = text.indexOf('\n', br)) {
    while (text.charCodeAt(br) === 10) br++;
    if (br >= text.length) break;
    lines.push(text.slice(start, br));
    start = br;
  }
  if (start < text.length || lines.length === 0) lines.push(text.slice(start));
  return lines;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
