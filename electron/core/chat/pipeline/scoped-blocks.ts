// Lumiverse's conditional blocks in prompt text: `{{if::cond}}…{{elseif::cond}}…{{else}}…{{/if}}` and
// `{{unless::cond}}…{{else}}…{{/unless}}` (also written `{{if cond}}`, `{{#if cond}}`), as its MacroEvaluator reads
// them (src/macros/definitions/primitives.ts, conditions.ts): the tags, a block's branches, which branch it takes. The
// walk (macro-walk.ts) decides each block when it reaches it. A condition is its macros expanded, then Lumiverse's
// test: a leading `!` negates, `.name`/`$name` read the turn's or the global variables, `== != >= <= > <` compare (as numbers when both sides are), and empty, 0, false, null,
// undefined, no and off are false. An `{{if}}` with no closing tag answers "true" or nothing.
import type { MacroVariables } from './builtin-macros';

type Kind = 'if' | 'unless';

export interface Tag {
  start: number;
  /** Just past its closing braces. */
  end: number;
  name: string;
  closing: boolean;
  /** What follows the name: `::cond` or ` cond`, as written. */
  rest: string;
  /** A block tag's condition (`rest` without its separator). */
  condition: string;
}

/** Counts the characters the tag scans read: a resolve's walk stops past its share (a hostile text would be quadratic). */
export interface Meter {
  chars: number;
}

/** The macro tag starting at `start` (`{{`), its nested braces included, or null when it never closes. */
export function tagAt(text: string, start: number, meter?: Meter): Tag | null {
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '{' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && text[i + 1] === '}') {
      depth--;
      i++;
      if (depth === 0) {
        if (meter) meter.chars += i + 1 - start;
        const inner = text.slice(start + 2, i - 1);
        const head = /^\s*([#/]?)\s*([A-Za-z_]+)/.exec(inner);
        const name = head ? head[2]!.toLowerCase() : '';
        const rest = head ? inner.slice(head[0].length) : inner;
        return { start, end: i + 1, name, closing: head?.[1] === '/', rest, condition: conditionOf(rest) };
      }
    }
  }
  if (meter) meter.chars += text.length - start;
  return null;
}

/** Tags at the top level of `text` from `from` on, in order (a tag's inside is not entered). */
function* tags(text: string, from: number, meter?: Meter): Generator<Tag> {
  let at = text.indexOf('{{', from);
  while (at >= 0) {
    const tag = tagAt(text, at, meter);
    if (!tag) return;
    yield tag;
    at = text.indexOf('{{', tag.end);
  }
}

const isBlock = (name: string): name is Kind => name === 'if' || name === 'unless';
function conditionOf(rest: string): string {
  return rest.replace(/^\s*::/, '').trim();
}

/** An `{{if}}` or `{{unless}}` that opens a block (or stands alone). */
export const isBlockOpener = (tag: Tag): boolean => isBlock(tag.name) && !tag.closing;

export type Branch = { condition: string | null; body: string };

/** The block opened by `open`: its branches (the first under the opening condition) and where it ends; null when unclosed. */
export function blockOf(text: string, open: Tag, meter?: Meter): { branches: Branch[]; end: number } | null {
  const branches: Branch[] = [];
  let depth = 0;
  let condition: string | null = open.condition;
  let bodyStart = open.end;
  for (const tag of tags(text, open.end, meter)) {
    if (isBlock(tag.name)) {
      depth += tag.closing ? -1 : 1;
      if (depth < 0) {
        if (tag.name !== open.name) return null;
        branches.push({ condition, body: text.slice(bodyStart, tag.start) });
        return { branches, end: tag.end };
      }
    } else if (depth === 0 && !tag.closing && (tag.name === 'else' || tag.name === 'elseif' || tag.name === 'elif')) {
      branches.push({ condition, body: text.slice(bodyStart, tag.start) });
      condition = tag.name === 'else' ? null : tag.condition;
      bodyStart = tag.end;
    }
  }
  return null;
}

const FALSY = new Set(['0', 'false', 'null', 'undefined', 'no', 'off']);
const OPERATORS = ['==', '!=', '>=', '<=', '>', '<'] as const;

/** Lumiverse's evaluateMacroCondition on a condition whose macros are expanded. */
export function conditionHolds(condition: string, variables: Pick<MacroVariables, 'local' | 'global'>): boolean {
  let c = condition.trim();
  const negate = c.startsWith('!');
  if (negate) c = c.slice(1).trim();
  c = c.replace(/(^|\s)\.([a-zA-Z][\w-]*)/g, (_, pre: string, name: string) => pre + (variables.local.get(name) ?? '')).replace(/(^|\s)\$([a-zA-Z][\w-]*)/g, (_, pre: string, name: string) => pre + (variables.global.get(name) ?? ''));
  return negate !== truthy(c);
}

function truthy(value: string): boolean {
  // A macro left unexpanded means the value is unknown: false, as in Lumiverse.
  if (value.includes('{{') && value.includes('}}')) return false;
  let found: { op: (typeof OPERATORS)[number]; index: number } | null = null;
  for (const op of OPERATORS) {
    const index = value.indexOf(op);
    if (index >= 0 && (!found || index < found.index || (index === found.index && op.length > found.op.length))) found = { op, index };
  }
  if (found) {
    const [left, right] = [value.slice(0, found.index).trim(), value.slice(found.index + found.op.length).trim()];
    const [l, r] = [parseFloat(left), parseFloat(right)];
    const [a, b] = Number.isNaN(l) || Number.isNaN(r) ? [left, right] : [l, r];
    return { '==': a === b, '!=': a !== b, '>=': a >= b, '<=': a <= b, '>': a > b, '<': a < b }[found.op];
  }
  return value !== '' && !FALSY.has(value.toLowerCase());
}

/** A named scope (`{{foreachMessage}}…{{/foreachMessage}}`): its body and where it ends; null when never closed. */
export function scopeOf(text: string, open: Tag, meter?: Meter): { body: string; end: number } | null {
  let depth = 0;
  for (const tag of tags(text, open.end, meter)) {
    if (tag.name !== open.name) continue;
    depth += tag.closing ? -1 : 1;
    if (depth < 0) return { body: text.slice(open.end, tag.start), end: tag.end };
  }
  return null;
}

/** The branch a block takes: an `{{unless}}`'s first when its condition fails; an `{{if}}`'s first that holds. */
export async function takenBranch(open: Tag, branches: Branch[], holds: (condition: string) => Promise<boolean>): Promise<string> {
  if (open.name === 'unless') return (await holds(branches[0]!.condition ?? '')) ? (branches[1]?.body ?? '') : branches[0]!.body;
  for (const branch of branches) if (branch.condition === null || (await holds(branch.condition))) return branch.body;
  return '';
}

/** Whether the text holds a block's or a loop's tag at all (most texts do not: they cost one scan). */
export const hasScopes = (text: string): boolean => /\{\{\s*#?\s*(?:if|unless|foreachmessage|for_each_message)\b/i.test(text);
