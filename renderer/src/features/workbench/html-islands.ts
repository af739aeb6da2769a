// HTML blocks in a message (a card's status panel, a display rule's skin) cut out of its text, to be drawn in a
// sandbox frame (HtmlIsland.tsx) while the rest stays role-play text. Found as Lumiverse finds its HTML islands: an
// element that opens a line and is closed, with the HTML elements right after it (a <style> and the markup it styles
// are one island). An element not yet closed (a reply still streaming) stays text until it is; code blocks and
// inline tags (<b>, <span>…) stay text.
import { FENCE } from './roleplay-text';

export type MessagePiece = { kind: 'text'; text: string } | { kind: 'html'; html: string };

/** Elements that start an island when they open a line. */
const BLOCKS = new Set([
  ...['style', 'div', 'details', 'table', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'figure'],
  ...['center', 'fieldset', 'dl', 'ul', 'ol', 'p', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  // A whole page (a card written as a document, its doctype before it).
  'html',
]);
const DOCTYPE = /<!doctype\b[^<>]*>\s*/iy;
/** Inline elements the text view draws itself (or shows as text): never pulled into an island after a block. */
const INLINE = new Set(['b', 'i', 'em', 'strong', 'u', 's', 'small', 'a', 'span', 'font', 'code', 'br', 'sup', 'sub', 'mark']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** More islands than this in one message, or one longer than this, and the rest stays text (a frame each costs). */
export const MAX_ISLANDS = 16;
export const MAX_ISLAND_CHARS = 200_000;

// A tag's attributes never run past the next `<`: on a reply of unclosed tags each try stops there (linear).
const OPEN_TAG = /<([a-z][a-z0-9-]*)\b[^<>]*>/iy;
const SPACE = /\s*/y;

/** Tag names whose closing tags one cut looks up; past this, an element of yet another name is not an island. */
const MAX_TAG_NAMES = 64;

/** The spans of `text` inside code fences (an unclosed one runs to the end): no tag in them opens or closes an island. */
function fencedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let fence: string | null = null;
  let start = 0;
  for (let at = 0; at < text.length; ) {
    const br = text.indexOf('\n', at);
    const end = br < 0 ? text.length : br + 1;
    const line = text.slice(at, br < 0 ? text.length : br);
    if (fence === null) {
      const opener = FENCE.exec(line);
      if (opener) [fence, start] = [opener[1]!, at];
    } else if (line.trimStart().startsWith(fence)) {
      spans.push([start, end]);
      fence = null;
    }
    at = end;
  }
  if (fence !== null) spans.push([start, text.length]);
  return spans;
}

/** Whether positions, asked in increasing order, fall in one of `spans` (in order): each span is passed once. */
function spanCursor(spans: ReadonlyArray<[number, number]>): (at: number) => boolean {
  let i = 0;
  return (at) => {
    while (i < spans.length && spans[i]![1] <= at) i++;
    return i < spans.length && spans[i]![0] <= at;
  };
}

/**
 * Where each element of a tag name, by where it opens, closes (just after its closing tag) in `text`: same-name
 * tags paired as a stack pairs them, so nested <div>s close where the outer one does; a <style> at its first
 * </style>; tags in code fences left out. One pass over the text a tag name, however many elements open lines (a
 * hostile reply of 20,000 lines that each open a <div> costs one pass, not 20,000).
 */
function closings(text: string, fenced: ReadonlyArray<[number, number]>): (tag: string, start: number) => number | null {
  const byTag = new Map<string, Map<number, number>>();
  const table = (tag: string): Map<number, number> | null => {
    const known = byTag.get(tag);
    if (known || byTag.size >= MAX_TAG_NAMES) return known ?? null;
    const ends = new Map<number, number>();
    const open: number[] = [];
    const inFence = spanCursor(fenced);
    for (const m of text.matchAll(new RegExp(`</?${tag}(?=[\\s>/])[^<>]*>`, 'gi'))) {
      if (inFence(m.index)) continue;
      if (m[0][1] !== '/') {
        if (!/\/\s*>$/.test(m[0])) open.push(m.index);
      } else if (tag === 'style') {
        for (const at of open) ends.set(at, m.index + m[0].length);
        open.length = 0;
      } else if (open.length) {
        ends.set(open.pop()!, m.index + m[0].length);
      }
    }
    byTag.set(tag, ends);
    return ends;
  };
  return (tag, start) => table(tag)?.get(start) ?? null;
}

/** Where the element opening at `start` ends (after its closing tag), or null when it is not closed (yet). */
function elementEnd(text: string, start: number, allowed: (tag: string) => boolean, closeOf: ReturnType<typeof closings>): number | null {
  OPEN_TAG.lastIndex = start;
  const open = OPEN_TAG.exec(text);
  if (!open) return null;
  const tag = open[1]!.toLowerCase();
  if (!allowed(tag)) return null;
  if (VOID.has(tag) || /\/\s*>$/.test(open[0])) return start + open[0].length;
  return closeOf(tag, start);
}

/**
 * The end of the island opening at `start`: its element, then the HTML elements that follow it, blank lines between;
 * null when none opens there. One longer than MAX_ISLAND_CHARS is too long to draw; the cut goes on after all of it,
 * so a long run of elements is walked once.
 */
function islandEnd(text: string, start: number, closeOf: ReturnType<typeof closings>): { end: number; tooLong: boolean } | null {
  DOCTYPE.lastIndex = start;
  const page = DOCTYPE.exec(text) ? DOCTYPE.lastIndex : null;
  let end = page === null ? elementEnd(text, start, (tag) => BLOCKS.has(tag), closeOf) : elementEnd(text, page, (tag) => tag === 'html', closeOf);
  if (end === null) return null;
  for (;;) {
    SPACE.lastIndex = end;
    SPACE.exec(text);
    const sibling = elementEnd(text, SPACE.lastIndex, (tag) => !INLINE.has(tag), closeOf);
    if (sibling === null) return { end, tooLong: end - start > MAX_ISLAND_CHARS };
    end = sibling;
  }
}

/** `text` cut into text and HTML islands; joined, the pieces are `text`. */
export function htmlPieces(text: string): MessagePiece[] {
  if (!text.includes('<')) return [{ kind: 'text', text }];
  const fenced = fencedSpans(text);
  const closeOf = closings(text, fenced);
  const inFence = spanCursor(fenced);
  const pieces: MessagePiece[] = [];
  let textStart = 0;
  let islands = 0;
  for (let at = 0; at < text.length; ) {
    const br = text.indexOf('\n', at);
    const lineEnd = br < 0 ? text.length : br + 1;
    const indent = /^ {0,3}/.exec(text.slice(at, at + 4))![0].length;
    const found = text[at + indent] === '<' && islands < MAX_ISLANDS && !inFence(at) ? islandEnd(text, at + indent, closeOf) : null;
    if (found === null || found.tooLong) {
      at = found ? Math.max(lineEnd, found.end) : lineEnd;
      continue;
    }
    // The island takes the rest of its last line when nothing but spaces follow it there.
    const tail = /[ \t]*(\n|$)/y;
    tail.lastIndex = found.end;
    const stop = tail.exec(text) ? tail.lastIndex : found.end;
    if (at > textStart) pieces.push({ kind: 'text', text: text.slice(textStart, at) });
    pieces.push({ kind: 'html', html: text.slice(at, stop) });
    islands += 1;
    textStart = at = stop;
  }
  if (textStart < text.length) pieces.push({ kind: 'text', text: text.slice(textStart) });
  return pieces.length ? pieces : [{ kind: 'text', text }];
}
