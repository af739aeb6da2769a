// Schema regexes (pattern, patternProperties) run on RE2's linear-time engine (re2js, pure JS) through Ajv's
// documented `code.regExp` option: no input can make a match backtrack, and nothing process-wide changes.
// RE2 has no lookaround and no backreferences; a pattern using them is refused at registration.
import { RE2JS } from 're2js';

export interface PatternVerdict {
  ok: boolean;
  /** Why the pattern was refused. Never contains the pattern text, which may be huge or hostile. */
  reason?: string;
  hint?: string;
}

const HINT = 'Schema patterns run on a linear-time engine (RE2): rewrite lookarounds and backreferences, e.g. with separate properties or enum.';

/** Whether a schema pattern can run here; the reason when not. */
export function checkPattern(pattern: string): PatternVerdict {
  try {
    RE2JS.compile(pattern);
    return { ok: true };
  } catch (error) {
    const raw = error instanceof Error ? error.message : '';
    // RE2 names the offending construct after a colon and quotes the pattern part; keep the construct only.
    const detail = raw.replace(/^error parsing regexp:\s*/, '').replace(/:\s*`[\s\S]*$/, '');
    return { ok: false, reason: `cannot run on the linear-time regex engine${detail ? ` (${detail})` : ''}`, hint: HINT };
  }
}

/** Ajv's `code.regExp`: JSON Schema `pattern` is an unanchored search, as RegExp.test is. */
export function linearRegExp(pattern: string): { test(text: string): boolean } {
  const compiled = RE2JS.compile(pattern);
  return { test: (text: string) => compiled.matcher(text).find() };
}
// Ajv's standalone-code name for the engine; it never generates standalone code here, but the option requires one.
linearRegExp.code = 'linearRegExp';
