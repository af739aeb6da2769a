// Switches V8 to its linear-time regex engine where backtracking explodes, and probes that engine.
//
// Measured (Node 20, Ajv 8.20): `pattern: "^(a|a)*$"` blocks the thread for seconds on a ~30-char
// string. With `--enable-experimental-regexp-engine-on-excessive-backtracks`, V8 abandons the
// backtracker after a bounded number of steps and finishes on a breadth-first engine (~1 ms) — but
// only for regexes compiled without the `u` flag (hence Ajv's `unicodeRegExp: false`) and only for
// regexes that engine can run. `--enable-experimental-regexp-engine` adds the `l` flag, which we use
// purely as a probe: if `new RegExp(p, 'l')` compiles, the fallback can take over for `p`.
import v8 from 'node:v8';

const FALLBACK_FLAG = '--enable-experimental-regexp-engine-on-excessive-backtracks';
const LINEAR_FLAG = '--enable-experimental-regexp-engine';

/** Held in a variable: the `l` flag only exists once the flag above is set. */
const LINEAR_REGEX_FLAG = 'l';

let linearProbeAvailable: boolean | null = null;

/**
 * Idempotent. Must run before any schema regex is compiled; V8 reads the flag when a regex executes
 * for the first time after compiling. Returns whether the linear engine is usable as a probe; when it
 * is not (a future V8 without the flag), pattern-safety falls back to its stricter static rules.
 */
export function enableLinearRegexFallback(): boolean {
  if (linearProbeAvailable !== null) return linearProbeAvailable;
  try {
    v8.setFlagsFromString(FALLBACK_FLAG);
    v8.setFlagsFromString(LINEAR_FLAG);
    new RegExp('a', LINEAR_REGEX_FLAG);
    linearProbeAvailable = true;
  } catch {
    linearProbeAvailable = false;
  }
  return linearProbeAvailable;
}

/** True when V8's linear engine can run the pattern (so excessive backtracking falls back to it). */
export function linearEngineAccepts(pattern: string): boolean {
  if (!enableLinearRegexFallback()) return false;
  try {
    new RegExp(pattern, LINEAR_REGEX_FLAG);
    return true;
  } catch {
    return false;
  }
}
