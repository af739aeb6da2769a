// Tool names: the bare-name rules, `sourceId:toolName` qualified names, and stable provider-safe aliases.
//
// Providers restrict function names (OpenAI `[A-Za-z0-9_-]{1,64}`) and some treat them
// case-insensitively, while MCP allows `.` and 128 chars. The internal id is the qualified name;
// the model sees an alias derived from it alone, so it is the same on every start regardless of the
// order sources register in, and never changes while the tool stays registered.
import { createHash } from 'node:crypto';
import type { HostError } from '../../../shared/errors';

/** Spindle / orchestrator rule for tools registered by extensions and builtins. */
export const BARE_TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;
/** MCP § Tool Names: 1–128 chars of `[A-Za-z0-9_.-]`. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Source ids never contain the `:` separator, so the first `:` always splits a qualified name. */
export const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export type NameRule = 'bare' | 'mcp';

const HASH_CHARS = 12;
const MAX_ALIAS = 64;

/** Null when valid. The message gives the length and the first bad code point, never the raw name. */
export function checkToolName(name: unknown, rule: NameRule): HostError | null {
  const pattern = rule === 'bare' ? BARE_TOOL_NAME : MCP_TOOL_NAME;
  const shape =
    rule === 'bare'
      ? '1–64 ASCII letters, digits or underscores, starting with a letter'
      : '1–128 ASCII letters, digits, "_", "." or "-"';
  if (typeof name !== 'string') {
    return { code: 'INVALID_TOOL_NAME', message: `Tool name must be a string of ${shape}`, path: '/name' };
  }
  if (pattern.test(name)) return null;
  // UTF-16 length: spreading a 10 MB name into code points would cost the host what the limit saves.
  const length = name.length;
  let detail: string;
  if (length === 0) detail = 'it is empty';
  else if (length > (rule === 'bare' ? 64 : 128)) detail = `it is ${length} characters long`;
  else detail = `${describeFirstInvalid(name, rule)} (${length} characters)`;
  const error: HostError = { code: 'INVALID_TOOL_NAME', message: `Tool name must be ${shape}; ${detail}`, path: '/name' };
  if (rule === 'bare') error.hint = 'Use a name like search_knowledge_base; the host adds the extension id itself.';
  return error;
}

function describeFirstInvalid(name: string, rule: NameRule): string {
  const allowed = rule === 'bare' ? /[a-zA-Z0-9_]/ : /[A-Za-z0-9_.-]/;
  let index = 0;
  for (const ch of name) {
    const first = index === 0 && rule === 'bare' && !/[a-zA-Z]/.test(ch);
    if (first || !allowed.test(ch)) {
      const cp = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      return `${first && allowed.test(ch) ? 'it starts with' : 'it contains'} U+${cp} at position ${index}`;
    }
    index++;
  }
  return 'it has an invalid character';
}

export function qualifiedName(sourceId: string, toolName: string): string {
  return `${sourceId}:${toolName}`;
}

export function splitQualifiedName(qualified: string): { sourceId: string; toolName: string } | null {
  const at = qualified.indexOf(':');
  if (at <= 0 || at === qualified.length - 1) return null;
  return { sourceId: qualified.slice(0, at), toolName: qualified.slice(at + 1) };
}

/**
 * `sourceId__toolName` when that form is provably collision-free on its own: all lowercase (so
 * case-insensitive providers cannot confuse two tools), the source id has no `__` and does not end
 * in `_` (so the first `__` is always the separator), the tool part has no `-`, and it fits in 64.
 * Anything else becomes `<sanitized prefix>-<12 hex of sha256(qualified)>`; plain aliases can never
 * end in `-` + 12 hex (their tail is the tool name, which has no `-`), so the two forms never meet.
 */
export function deriveAlias(qualified: string): string {
  const parts = splitQualifiedName(qualified);
  const sourceId = parts?.sourceId ?? qualified;
  const toolName = parts?.toolName ?? '';
  const base = `${sourceId}__${toolName}`;
  const plain =
    parts !== null &&
    base.length <= MAX_ALIAS &&
    /^[a-z0-9_-]+$/.test(sourceId) &&
    !sourceId.includes('__') &&
    !sourceId.endsWith('_') &&
    /^[a-z0-9_]+$/.test(toolName);
  if (plain) return base;
  const hash = createHash('sha256').update(qualified, 'utf8').digest('hex').slice(0, HASH_CHARS);
  const prefix = base.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_ALIAS - HASH_CHARS - 1);
  return `${prefix}-${hash}`;
}

/** Alias → qualified name, unique under case folding. */
export class AliasTable {
  private readonly byFolded = new Map<string, { alias: string; qualified: string }>();

  /** False when another tool already holds this alias under case folding. */
  claim(alias: string, qualified: string): boolean {
    const folded = alias.toLowerCase();
    const holder = this.byFolded.get(folded);
    if (holder && holder.qualified !== qualified) return false;
    this.byFolded.set(folded, { alias, qualified });
    return true;
  }

  release(alias: string): void {
    this.byFolded.delete(alias.toLowerCase());
  }

  /** A case-only difference still resolves: aliases are unique under folding, so it is unambiguous. */
  resolve(alias: string): string | undefined {
    return this.byFolded.get(alias.toLowerCase())?.qualified;
  }
}
