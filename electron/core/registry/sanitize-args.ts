// Turns caller-supplied tool arguments into a safe, bounded, plain-JSON object before schema validation.
//
// Arguments come from a model (or a user); identity and host context never do. The seed's worker
// contract says the host strips user ids, and delivers councilMember / contextMessages as separate
// top-level fields "so user-space args cannot collide with or spoof" them. We strip rather than reject
// so a model that hallucinates one of these keys still gets its call through; the stripped paths are
// returned so the registry can log them.
import type { Result } from '../../../shared/errors';
import { utf8ByteLength } from '../../../shared/protocol/limits';
import { checkJsonBudget, escapePointer } from '../../../shared/json-budget';
import { DEFAULT_REGISTRY_LIMITS } from './limits';
import { err, ok } from './result';

/**
 * Removed from the top level of args. `context` and `__deadlineMs` are host-supplied: the registry
 * adds them after validation, so a caller-supplied value is dropped even when the host adds none.
 */
export const STRIPPED_TOP_LEVEL_KEYS: readonly string[] = [
  '__userId',
  '__user_id',
  'userId',
  'councilMember',
  'contextMessages',
  '_meta',
  'context',
  '__deadlineMs',
];

/** Removed at every depth: the keys prototype-pollution gadgets walk through in naive merges. */
export const STRIPPED_EVERYWHERE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export interface ArgsLimits {
  maxArgsBytes: number;
  maxArgsDepth: number;
}

export interface SanitizedArgs {
  args: Record<string, unknown>;
  /** JSON pointers of removed members, for logs; never their values. */
  stripped: string[];
}

const HINT_JSON = 'Send the arguments as a single JSON object, e.g. {"query": "..."}.';

/** Parses a model's arguments string. JSON.parse defines `__proto__` as an own key; it never pollutes. */
export function parseArgumentsJson(text: string, limits: ArgsLimits = DEFAULT_REGISTRY_LIMITS): Result<unknown> {
  // A UTF-16 unit is at least one UTF-8 byte, so the length alone can refuse without scanning.
  if (text.length > limits.maxArgsBytes || utf8ByteLength(text) > limits.maxArgsBytes) {
    return err('INVALID_ARGUMENTS', `Arguments are larger than ${limits.maxArgsBytes} bytes`, {
      path: '/',
      hint: 'Pass references (ids, paths) instead of large content.',
    });
  }
  // Some providers send "" for a tool without parameters.
  if (text.trim() === '') return ok({});
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'parse error';
    return err('INVALID_ARGUMENTS_JSON', `Arguments are not valid JSON: ${detail.slice(0, 200)}`, { hint: HINT_JSON });
  }
}

/** Accepts a JSON string or an already-parsed value; undefined means no arguments. */
export function sanitizeArguments(raw: unknown, limits: ArgsLimits = DEFAULT_REGISTRY_LIMITS): Result<SanitizedArgs> {
  let value = raw;
  if (typeof raw === 'string') {
    const parsed = parseArgumentsJson(raw, limits);
    if (!parsed.ok) return parsed;
    value = parsed.value;
  }
  if (value === undefined) value = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err('INVALID_ARGUMENTS', `Arguments must be a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`, {
      path: '/',
      hint: HINT_JSON,
    });
  }
  const budget = checkJsonBudget(value, { maxBytes: limits.maxArgsBytes, maxDepth: limits.maxArgsDepth });
  if (budget) {
    const path = budget.path || '/';
    if (budget.reason === 'too-large') {
      return err('INVALID_ARGUMENTS', `Arguments are larger than ${limits.maxArgsBytes} bytes`, {
        path: '/',
        hint: 'Pass references (ids, paths) instead of large content.',
      });
    }
    if (budget.reason === 'too-deep') {
      return err('INVALID_ARGUMENTS', `Arguments nest deeper than ${limits.maxArgsDepth} levels`, { path });
    }
    return err('INVALID_ARGUMENTS', `${path} is not plain JSON (${budget.detail})`, { path });
  }
  const stripped: string[] = [];
  const args = copyClean(value, null, 0, stripped) as Record<string, unknown>;
  return ok({ args, stripped });
}

/**
 * Depth is bounded by the budget check above, so recursion is safe here. Paths are built only for
 * what is stripped: `parent` is the chain of keys above this value.
 */
function copyClean(value: unknown, parent: PathLink | null, depth: number, stripped: string[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item, i) => copyClean(item, { key: String(i), parent }, depth + 1, stripped));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (STRIPPED_EVERYWHERE_KEYS.includes(key) || (depth === 0 && STRIPPED_TOP_LEVEL_KEYS.includes(key))) {
      stripped.push(pointerOf({ key, parent }));
      continue;
    }
    const member = source[key];
    if (member === undefined) continue;
    out[key] = typeof member === 'object' && member !== null ? copyClean(member, { key, parent }, depth + 1, stripped) : member;
  }
  return out;
}

interface PathLink {
  key: string;
  parent: PathLink | null;
}

function pointerOf(link: PathLink): string {
  const parts: string[] = [];
  for (let l: PathLink | null = link; l; l = l.parent) parts.push(escapePointer(l.key));
  return `/${parts.reverse().join('/')}`;
}
