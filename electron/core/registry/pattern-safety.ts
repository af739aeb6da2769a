// Decides at registration whether a schema regex (pattern, patternProperties key) is safe to run in the host.
//
// The V8 fallback (safe-regex-engine.ts) only rescues regexes its linear engine can run. Measured on
// Node 20 with the fallback on: lookaheads (`^(?=(a|a)*$)`), backreferences (`(a|a)*\1`) and counted
// repetition above 16 (`^(a|a){1,64}$`, 1 s at 24 chars and doubling) still backtrack exponentially,
// and even `[a-z]{0,64}!` costs 0.2 s on a 1 MB string because it is retried at every offset. So:
//   tier 1 — the linear engine accepts the pattern: allowed; any blow-up falls back to linear time.
//   tier 2 — otherwise allowed only when the work is bounded by the pattern itself: anchored with a
//            leading `^` and no top-level `|` (tried at one offset only), no lookaround, no
//            backreference, no repeated group, no unbounded `*`/`+`/`{n,}`, and the product of all
//            repetition ranges ≤ 4096. That keeps `^[a-z0-9_]{1,64}$` and friends working.
// Everything else is refused with a hint; `+`/`*` plus maxLength is always an accepted rewrite.
import { linearEngineAccepts } from './safe-regex-engine';

/** Upper bound on backtracking paths for one match attempt of a tier-2 pattern. */
export const MAX_BACKTRACKING_PATHS = 4096;

const HINT_REWRITE =
  'Use `*` or `+` with maxLength/minLength instead of large {n,m} counts, and avoid lookarounds and backreferences.';

export interface PatternVerdict {
  ok: boolean;
  /** Why the pattern was refused. Never contains the pattern text, which may be huge or hostile. */
  reason?: string;
  hint?: string;
}

export function checkPattern(pattern: string): PatternVerdict {
  try {
    // Ajv runs with unicodeRegExp:false, so this is exactly the regex it will build.
    new RegExp(pattern);
  } catch (error) {
    const raw = error instanceof Error ? error.message : '';
    // V8 echoes the pattern in its message; keep only the reason after it.
    const detail = raw.includes(': ') ? raw.slice(raw.lastIndexOf(': ') + 2) : raw;
    return { ok: false, reason: `does not compile as a regular expression${detail ? ` (${detail})` : ''}` };
  }
  if (linearEngineAccepts(pattern)) return { ok: true };

  const scan = scanPattern(pattern);
  const refuse = (reason: string): PatternVerdict => ({ ok: false, reason, hint: HINT_REWRITE });
  if (scan.lookaround) return refuse('uses a lookaround, which cannot run in linear time');
  if (scan.backreference) return refuse('uses a backreference, which cannot run in linear time');
  if (scan.quantifiedGroup) return refuse('repeats a group with a count the linear engine cannot run');
  if (!scan.anchored) return refuse('uses large {n,m} counts without a leading ^ (it would be retried at every offset)');
  if (scan.unbounded) return refuse('mixes large {n,m} counts with unbounded * or + repetition');
  if (scan.paths > MAX_BACKTRACKING_PATHS) {
    return refuse(`allows too many backtracking paths (more than ${MAX_BACKTRACKING_PATHS})`);
  }
  // The lexical scan may miss a construct the linear engine refuses; with counts relaxed to * and +,
  // the probe must accept, confirming the counts were the only obstacle.
  if (linearEngineAccepts('a') && !linearEngineAccepts(scan.relaxed)) {
    return refuse('uses a construct that cannot run in linear time');
  }
  return { ok: true };
}

interface PatternScan {
  lookaround: boolean;
  backreference: boolean;
  quantifiedGroup: boolean;
  unbounded: boolean;
  /** Starts with `^` and has no `|` outside groups. */
  anchored: boolean;
  /** Product of (max - min + 1) over every quantifier. */
  paths: number;
  /** The pattern with every {n,m} replaced by `*` or `+`, for the linear-engine probe. */
  relaxed: string;
}

type Prev = 'none' | 'atom' | 'group' | 'quantifier';

/** A lexical scan of non-`u` regex syntax: enough to find groups, quantifiers, escapes and classes. */
function scanPattern(pattern: string): PatternScan {
  const scan: PatternScan = {
    lookaround: false,
    backreference: false,
    quantifiedGroup: false,
    unbounded: false,
    anchored: pattern.startsWith('^'),
    paths: 1,
    relaxed: '',
  };
  let out = '';
  let prev: Prev = 'none';
  let depth = 0;
  let i = 0;
  const quantify = (low: number, high: number) => {
    if (prev === 'group') scan.quantifiedGroup = true;
    if (!Number.isFinite(high)) scan.unbounded = true;
    else scan.paths = Math.min(Number.MAX_SAFE_INTEGER, scan.paths * (high - low + 1));
  };
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) scan.backreference = true;
      out += c + next;
      i += 2;
      prev = 'atom';
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      out += pattern.slice(i, j + 1);
      i = j + 1;
      prev = 'atom';
      continue;
    }
    if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) scan.lookaround = true;
      depth++;
      out += c;
      i++;
      prev = 'none';
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      out += c;
      i++;
      prev = 'group';
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && prev !== 'none') {
      if (c === '?' && prev === 'quantifier') {
        out += c; // lazy modifier, not a new quantifier
        i++;
        continue;
      }
      quantify(c === '+' ? 1 : 0, c === '?' ? 1 : Infinity);
      prev = 'quantifier';
      out += c;
      i++;
      continue;
    }
    if (c === '{' && (prev === 'atom' || prev === 'group')) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 40));
      if (m) {
        const low = Number(m[1]);
        const high = m[2] === undefined ? low : m[3] === '' ? Infinity : Number(m[3]);
        quantify(low, high);
        prev = 'quantifier';
        out += low >= 1 ? '+' : '*';
        i += m[0].length;
        continue;
      }
    }
    if (c === '|' && depth === 0) scan.anchored = false;
    out += c;
    i++;
    prev = c === '|' || c === '^' || c === '$' ? 'none' : 'atom';
  }
  scan.relaxed = out;
  return scan;
}
