// What spindle.macros.resolve answers (Lumiverse's shape): the text, and what stopped or skipped expansion.
export interface ResolvedMacros {
  text: string;
  diagnostics: Array<{ message: string; offset: number; length: number }>;
}
