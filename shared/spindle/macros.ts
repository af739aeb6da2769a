// What spindle.macros.resolve answers (Lumiverse's shape): the text, and what stopped or skipped expansion; and a
// stored scope of variables as the macros read it.

/** A stored scope of variables as text (an extension or an imported chat may have kept numbers or flags there; lists and records are not variables). */
export function variablesAsText(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (scalar(v) ? [[k, String(v)]] : [])));
}

export interface ResolvedMacros {
  text: string;
  diagnostics: Array<{ message: string; offset: number; length: number }>;
}
