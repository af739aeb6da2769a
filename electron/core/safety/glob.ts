// Glob patterns over qualified tool names for `--approve` (e.g. `notes:*`, `scratchpad:append_*`, `*`).

/** `*` matches any run of characters (`:` included), `?` one character; everything else is literal. */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => globToRegExp(p).test(name));
}
