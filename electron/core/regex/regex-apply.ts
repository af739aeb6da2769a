// Applies regex scripts to texts as Lumiverse's applyRegexScripts does: in order, each to the texts of its placements
// within its depths, its pattern and replacement through macros as its substitute_macros says, then its trim strings.
// A script that fails (its time ran out, its pattern does not compile once macros are in) is passed over and said,
// and the others still run.
import type { RegexScript, RegexPlacement } from '../../../shared/types/regex-script';
import { RegexPassFailure, type RegexMatch, type RegexSandbox } from './regex-sandbox';

export interface RegexText {
  text: string;
  placement: RegexPlacement;
  /** How far from the newest message (0 = the newest); absent for text that is not a message (world info). */
  depth?: number;
}

export interface RegexRun {
  texts: string[];
  /** The scripts that changed something, with how many texts each changed. */
  changed: Array<{ script: RegexScript; texts: number }>;
  /** The scripts passed over, and why; `timedOut` when its time ran out. */
  failed: Array<{ script: RegexScript; reason: string; timedOut?: boolean }>;
}

/** Resolves macros in a text, for one script (what a script's macros may reach depends on who wrote it). */
export type ScriptMacros = (script: RegexScript) => (text: string) => Promise<string>;

export interface RegexApplyOptions {
  /** Without it, macro modes leave `{{…}}` as written and a replacement as it is (Lumiverse without a macro env). */
  macros?: ScriptMacros;
  /**
   * For text that is kept (a saved reply, an edit): a script this refuses may not add a macro to it, as the macros of
   * a kept text run at every later turn with the chat around them. Its change to such a text is not kept.
   */
  mayAddMacros?: (script: RegexScript) => boolean;
  signal?: AbortSignal;
}

const macroCount = (text: string) => text.split('{{').length - 1;

const applies = (script: RegexScript, item: RegexText) =>
  script.placement.includes(item.placement) &&
  (item.depth === undefined || ((script.min_depth === null || item.depth >= script.min_depth) && (script.max_depth === null || item.depth <= script.max_depth)));

export async function applyRegexScripts(sandbox: RegexSandbox, scripts: readonly RegexScript[], items: readonly RegexText[], options: RegexApplyOptions = {}): Promise<RegexRun> {
  const texts = items.map((item) => item.text);
  const run: RegexRun = { texts, changed: [], failed: [] };
  for (const script of scripts) {
    options.signal?.throwIfAborted();
    const at = items.flatMap((item, i) => (applies(script, item) ? [i] : []));
    if (at.length === 0) continue;
    try {
      const before = at.map((i) => texts[i]!);
      const replaced = await pass(sandbox, script, before, options.macros?.(script));
      const trims = script.trim_strings.filter((t) => t.length > 0);
      const after = trims.length ? await sandbox.trim(trims, replaced) : replaced;
      let changed = 0;
      let refused = 0;
      at.forEach((i, k) => {
        if (after[k] === before[k]) return;
        if (options.mayAddMacros && !options.mayAddMacros(script) && macroCount(after[k]!) > macroCount(before[k]!)) {
          refused++;
          return;
        }
        changed++;
        texts[i] = after[k]!;
      });
      if (changed) run.changed.push({ script, texts: changed });
      if (refused) run.failed.push({ script, reason: `it wrote a macro into text that is kept, which an extension that may not read the chat may not (${refused} text${refused === 1 ? '' : 's'} left as they were)` });
    } catch (err) {
      if (!(err instanceof RegexPassFailure)) throw err;
      const timedOut = err.failure.kind === 'timeout';
      run.failed.push({ script, reason: timedOut ? `it ran past its time (${err.message})` : err.message, ...(timedOut ? { timedOut } : {}) });
    }
  }
  return run;
}

/** One script over `texts`, by its macro mode (Lumiverse's four). */
async function pass(sandbox: RegexSandbox, script: RegexScript, texts: string[], macros: ((text: string) => Promise<string>) | undefined): Promise<string[]> {
  if (!macros) return sandbox.replace(script.find_regex, script.flags, script.replace_string, texts);
  const mode = script.substitute_macros;
  const pattern = mode === 'none' ? script.find_regex : await macros(script.find_regex);
  switch (mode) {
    case 'none':
      return sandbox.replace(pattern, script.flags, script.replace_string, texts);
    case 'escaped':
      // Macros once, then `$` made literal: captures do not reach the replacement.
      return sandbox.replace(pattern, script.flags, (await macros(script.replace_string)).replace(/\$/g, '$$$$'), texts);
    case 'after':
      // Captures first, then one macro pass over each whole result.
      return Promise.all((await sandbox.replace(pattern, script.flags, script.replace_string, texts)).map(macros));
    case 'raw': {
      // Captures into the template, then macros per match: a macro may read what was captured.
      const found = await sandbox.matches(pattern, script.flags, script.replace_string, texts);
      return Promise.all(texts.map(async (text, i) => spliced(text, found[i]!, await Promise.all(found[i]!.map((m) => macros(m.replacement))))));
    }
  }
}

function spliced(text: string, matches: RegexMatch[], replacements: string[]): string {
  let out = '';
  let last = 0;
  matches.forEach((m, i) => {
    out += text.slice(last, m.index) + replacements[i];
    last = m.index + m.length;
  });
  return out + text.slice(last);
}
