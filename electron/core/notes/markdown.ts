// Markdown page helpers for the note tools: headings and sections, a tiny key: value frontmatter, [[links]].

export interface Heading {
  level: number;
  text: string;
  /** 0-based line index. */
  line: number;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const FENCE = /^(```|~~~)/;

export function headings(content: string): Heading[] {
  const out: Heading[] = [];
  let fenced = false;
  content.split('\n').forEach((line, index) => {
    if (FENCE.test(line.trimStart())) fenced = !fenced;
    if (fenced) return;
    const m = HEADING.exec(line);
    if (m) out.push({ level: m[1]!.length, text: m[2]!.trim(), line: index });
  });
  return out;
}

/** The section under a heading: from the line after it to the next heading of the same or higher level. */
export function findSection(content: string, heading: string): { headingLine: number; start: number; end: number } | null {
  const wanted = heading.replace(/^#+\s*/, '').trim().toLowerCase();
  const all = headings(content);
  const index = all.findIndex((h) => h.text.toLowerCase() === wanted);
  if (index < 0) return null;
  const h = all[index]!;
  const next = all.slice(index + 1).find((x) => x.level <= h.level);
  const lines = content.split('\n');
  return { headingLine: h.line, start: h.line + 1, end: next ? next.line : lines.length };
}

export function readSection(content: string, heading: string): string | null {
  const s = findSection(content, heading);
  if (!s) return null;
  return content.split('\n').slice(s.headingLine, s.end).join('\n').replace(/\n+$/, '');
}

/** Replaces, appends to or prepends to the body of a section (the heading line stays). */
export function editSection(content: string, heading: string, text: string, mode: 'replace' | 'append' | 'prepend'): string | null {
  const s = findSection(content, heading);
  if (!s) return null;
  const lines = content.split('\n');
  let body = lines.slice(s.start, s.end);
  // Keep the blank lines that separate this section from the next one.
  let trailing = 0;
  while (body.length > 0 && body[body.length - 1] === '') {
    body = body.slice(0, -1);
    trailing++;
  }
  const added = text.replace(/\n+$/, '').split('\n');
  if (mode === 'replace') body = added;
  else if (mode === 'append') body = [...body, ...added];
  else body = [...added, ...body];
  const gap = s.end < lines.length ? Math.max(1, trailing) : trailing;
  return [...lines.slice(0, s.start), ...body, ...new Array<string>(gap).fill(''), ...lines.slice(s.end)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Frontmatter: `---` fenced `key: value` lines. Only flat scalar keys are read or written; every other
// line (comments, nested YAML) is kept as it is.

export type FrontmatterValue = string | number | boolean | null | Array<string | number | boolean>;

interface SplitPage {
  lines: string[] | null;
  body: string;
}

function splitFrontmatter(content: string): SplitPage {
  if (!content.startsWith('---\n') && content !== '---') return { lines: null, body: content };
  const lines = content.split('\n');
  const end = lines.indexOf('---', 1);
  if (end < 0) return { lines: null, body: content };
  return { lines: lines.slice(1, end), body: lines.slice(end + 1).join('\n') };
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$/;

function parseScalar(text: string): FrontmatterValue {
  const t = text.trim();
  if (t === '' || t === '~' || t === 'null') return null;
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  if (t.startsWith("'") && t.endsWith("'") && t.length >= 2) return t.slice(1, -1).replace(/''/g, "'");
  if (t.startsWith('[') && t.endsWith(']')) {
    const inner = t.slice(1, -1).trim();
    if (inner === '') return [];
    return inner.split(',').map((item) => {
      const v = parseScalar(item);
      return v === null || Array.isArray(v) ? String(item.trim()) : v;
    });
  }
  return t;
}

function formatScalar(value: FrontmatterValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => formatScalar(v)).join(', ')}]`;
  if (typeof value !== 'string') return String(value);
  // Bare when unambiguous; otherwise a JSON string (valid YAML double-quoted scalar).
  const plain = /^[^\s"'#:[\]{},&*!|>%@`-][^"#:[\]{},]*$/.test(value) && value === value.trim() && !['true', 'false', 'null', '~'].includes(value) && !/^-?\d+(\.\d+)?$/.test(value);
  return plain ? value : JSON.stringify(value);
}

export function readFrontmatter(content: string): Record<string, FrontmatterValue> {
  const { lines } = splitFrontmatter(content);
  const out: Record<string, FrontmatterValue> = {};
  for (const line of lines ?? []) {
    const m = KEY_LINE.exec(line);
    if (m && m[1] !== '__proto__' && m[1] !== 'constructor' && m[1] !== 'prototype') out[m[1]!] = parseScalar(m[2]!);
  }
  return out;
}

/** Sets and removes top-level keys; a replaced key's indented continuation lines go with it. */
export function updateFrontmatter(content: string, set: Record<string, FrontmatterValue>, remove: string[]): string {
  const split = splitFrontmatter(content);
  const lines = split.lines ? [...split.lines] : [];
  const drop = (key: string): number => {
    const index = lines.findIndex((l) => KEY_LINE.exec(l)?.[1] === key);
    if (index < 0) return -1;
    let end = index + 1;
    while (end < lines.length && /^[ \t]+\S|^[ \t]*-[ \t]/.test(lines[end]!)) end++;
    lines.splice(index, end - index);
    return index;
  };
  for (const key of remove) drop(key);
  for (const [key, value] of Object.entries(set)) {
    const at = drop(key);
    const line = `${key}: ${formatScalar(value)}`;
    if (at < 0) lines.push(line);
    else lines.splice(at, 0, line);
  }
  if (lines.length === 0) return split.lines ? split.body : content;
  return `---\n${lines.join('\n')}\n---\n${split.lines ? split.body : content}`;
}

// ---------------------------------------------------------------------------------------------
// [[Links]]: `[[Target]]`, `[[Target#Heading]]`, `[[Target|label]]`.

const LINK = /\[\[([^\]|#\n]+)(#[^\]|\n]*)?(\|[^\]\n]*)?\]\]/g;

export function links(content: string): string[] {
  const out = new Set<string>();
  for (const m of content.matchAll(LINK)) out.add(m[1]!.trim());
  return [...out];
}

/** Rewrites links to `from` (with or without `.md`) so they point at `to`; anchors and labels are kept. */
export function renameLinks(content: string, from: string, to: string): string {
  return content.replace(LINK, (whole, target: string, anchor: string | undefined, label: string | undefined) => {
    const t = target.trim();
    if (t !== from && t !== `${from}.md`) return whole;
    return `[[${to}${anchor ?? ''}${label ?? ''}]]`;
  });
}
