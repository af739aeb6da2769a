// Finds extensions' tags in a message in time linear in its length, whatever the text: a reply is the model's (or a
// stranger's) text, and a tag interceptor needs no permission. The regex this replaces,
// `<name(\s[^>]*)?>([\s\S]*?)</name>`, scanned to the end of the text for every opening tag without a close (100,000
// `<x>` in a 300 kB reply froze the window for 22–51 s). Each search here resumes where the last one ended, so no
// character is looked at more than a few times; and a message hands at most MAX_TAGS_PER_MESSAGE tags to extensions.

/** Tags one message hands to extensions (all interceptors together); the rest stay in the text as written. */
export const MAX_TAGS_PER_MESSAGE = 256;
/** Attribute text read per tag (what is past it is not parsed). */
export const MAX_ATTRIBUTE_CHARS = 4096;

export interface TagSpan {
  start: number;
  end: number;
  /** The text between the name and `>` (the regex's first group, without its leading whitespace trimmed). */
  attrs: string;
  content: string;
}

/** ASCII letters in lower case, every other character as it is: the same length, so positions carry over. */
const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/**
 * Every `<name …>…</name>` of one tag name, leftmost first and not overlapping, as the regex matched them; with `keep`,
 * only those it keeps, and only those count toward `limit`. Names match whatever their case (`<Sim>` is `sim`), as
 * Lumiverse's interceptors match them.
 */
export function scanTags(text: string, name: string, limit: number, keep?: (span: TagSpan) => boolean): TagSpan[] {
  // Searched in a lower-cased copy; the spans' text comes from the message as written.
  const hay = asciiLower(text);
  const open = `<${asciiLower(name)}`;
  const close = `</${asciiLower(name)}>`;
  const found: TagSpan[] = [];
  // The next `>` and the next close at or after where they were last needed: both only move forward.
  let gt = -1;
  let closeAt = -1;
  let from = 0;
  while (found.length < limit) {
    const start = hay.indexOf(open, from);
    if (start < 0) break;
    const after = start + open.length;
    const next = hay.charAt(after);
    let end: number;
    if (next === '>') end = after;
    else if (/\s/.test(next)) {
      if (gt < after) gt = hay.indexOf('>', after);
      if (gt < 0) break; // no `>` after here: no later tag can open either
      end = gt;
    } else {
      from = after; // `<names…`: another tag's name
      continue;
    }
    if (closeAt < end + 1) closeAt = hay.indexOf(close, end + 1);
    if (closeAt < 0) break; // no close after here: no later tag can close either
    const span = { start, end: closeAt + close.length, attrs: text.slice(after, end), content: text.slice(end + 1, closeAt) };
    if (!keep || keep(span)) found.push(span);
    from = closeAt + close.length;
  }
  return found;
}

/** `a="1" b='2' c=3 d` as a record (the first MAX_ATTRIBUTE_CHARS characters). */
export function tagAttributes(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.slice(0, MAX_ATTRIBUTE_CHARS).matchAll(/([A-Za-z_:][-A-Za-z0-9_:.]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) attrs[m[1]!] = m[2] ?? m[3] ?? m[4] ?? '';
  return attrs;
}

/** The text without the given spans (overlapping or nested ones together), in one pass. */
export function withoutSpans(text: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  if (spans.length === 0) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const { start, end } of sorted) {
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}
