// Regex scripts a file brings (a character card's, a preset's), made rules as Lumiverse imports them: its own shape taken
// as it is, SillyTavern's converted (a `/pattern/flags` literal, numbered placements, markdownOnly/promptOnly as targets,
// -1 depths as none). A script that cannot be a rule is left out and said so.
import { HostFailure } from '../../../shared/errors';
import { REGEX_PLACEMENTS, type RegexPlacement, type RegexScriptInput, type RegexTarget } from '../../../shared/types/regex-script';
import { checkedInput, checkPattern } from './regex-script';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** SillyTavern's numbered placements (0, a display placement it retired, reads as user input, as Lumiverse reads it; 3, slash commands, has none). */
const ST_PLACEMENTS: Record<number, RegexPlacement> = { 0: 'user_input', 1: 'user_input', 2: 'ai_output', 5: 'world_info', 6: 'reasoning' };
const ST_MACROS = ['none', 'raw', 'escaped'] as const;
/** More than this from one file, and the rest are left out (said so). */
export const MAX_CARD_SCRIPTS = 200;

export interface ImportedRegexScripts {
  /** Checked, ready to be created with the session's id as their scope_id. */
  scripts: RegexScriptInput[];
  /** Each script left out, and why ("Script 3 (Hide OOC): Invalid regex: …"). */
  skipped: string[];
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : null);
const str = (x: unknown, fallback = ''): string => (typeof x === 'string' ? x : fallback);

const PLACEMENT_NAMES = new Set<string>(REGEX_PLACEMENTS);

function fromSillyTavern(item: Record<string, unknown>, index: number): RegexScriptInput {
  const literal = /^\/([\s\S]+)\/([dgimsuvy]*)$/.exec(str(item.findRegex ?? item.find_regex));
  // Numbered as SillyTavern writes them, or named as Lumiverse does.
  const placement = (Array.isArray(item.placement) ? item.placement : [2]).flatMap((p): RegexPlacement[] =>
    typeof p === 'number' && ST_PLACEMENTS[p] ? [ST_PLACEMENTS[p]] : typeof p === 'string' && PLACEMENT_NAMES.has(p) ? [p as RegexPlacement] : [],
  );
  const trims = item.trimStrings ?? item.trim_strings;
  const target: RegexTarget[] = [...(item.markdownOnly === true ? ['display' as const] : []), ...(item.promptOnly === true ? ['prompt' as const] : [])];
  return {
    name: str(item.scriptName ?? item.name, `Imported Script ${index + 1}`),
    find_regex: literal ? literal[1]! : str(item.findRegex ?? item.find_regex),
    flags: literal ? literal[2] || 'gi' : 'gi',
    replace_string: str(item.replaceString ?? item.replace_string),
    trim_strings: Array.isArray(trims) ? trims.filter((t): t is string => typeof t === 'string') : [],
    placement: placement.length ? [...new Set(placement)] : ['ai_output'],
    target: target.length ? target : ['response'],
    min_depth: num(item.minDepth ?? item.min_depth),
    max_depth: num(item.maxDepth ?? item.max_depth),
    run_on_edit: (item.runOnEdit ?? item.run_on_edit) === true,
    description: str(item.description),
    substitute_macros: ST_MACROS[Number(item.substituteRegex ?? 0)] ?? 'none',
    disabled: item.disabled === true,
  };
}

/** Lumiverse's own shape: its fields of the right types, nothing of another owner's or scope's kept. */
function fromLumiverse(item: Record<string, unknown>): RegexScriptInput {
  const out: Record<string, unknown> = {};
  for (const field of ['name', 'find_regex', 'replace_string', 'flags', 'substitute_macros', 'description', 'folder'] as const) if (typeof item[field] === 'string') out[field] = item[field];
  for (const field of ['run_on_edit', 'disabled'] as const) if (typeof item[field] === 'boolean') out[field] = item[field];
  for (const field of ['min_depth', 'max_depth'] as const) out[field] = num(item[field]);
  for (const field of ['placement', 'trim_strings'] as const) if (Array.isArray(item[field])) out[field] = (item[field] as unknown[]).filter((x) => typeof x === 'string');
  if (typeof item.target === 'string' || Array.isArray(item.target)) out.target = item.target;
  if (isRecord(item.metadata)) out.metadata = item.metadata;
  // Actions (buttons Lumiverse draws) are not taken from a card: the Workbench draws none, and extensions would read them.
  return out as RegexScriptInput;
}

/**
 * Scripts a file brings (a card's, a preset's), each made a rule of `scope` (its scope_id given on creation) or left
 * out and said so: SillyTavern's shape converted, Lumiverse's taken as it is (all of them, when `lumiverse`).
 */
export function regexScriptsOf(all: unknown[], options: { scope: 'character' | 'preset'; source: string; lumiverse?: boolean }): ImportedRegexScripts {
  const lumiverse = options.lumiverse === true;
  // Past the cap, one line for the rest (a card of millions of items is not read item by item).
  const items = all.slice(0, MAX_CARD_SCRIPTS);
  const scripts: RegexScriptInput[] = [];
  const skipped: string[] = [];
  items.forEach((item, index) => {
    const label = `Script ${index + 1}${isRecord(item) && typeof (item.scriptName ?? item.name) === 'string' ? ` (${String(item.scriptName ?? item.name).slice(0, 80)})` : ''}`;
    if (!isRecord(item)) return void skipped.push(`${label}: not a script.`);
    try {
      // SillyTavern's shape has a scriptName or findRegex; anything else is taken as Lumiverse's, as Lumiverse does.
      const converted = !lumiverse && (item.scriptName !== undefined || item.findRegex !== undefined) ? fromSillyTavern(item, index) : fromLumiverse(item);
      // The session's id is not known yet: checked as a character's rule with a stand-in id, given the real one on creation.
      const input = checkedInput({ ...converted, scope: options.scope, scope_id: 'pending', sort_order: index, metadata: { ...(isRecord(converted.metadata) ? converted.metadata : {}), source: options.source } }, true);
      checkPattern(input.find_regex!, input.flags ?? 'gi', input.substitute_macros ?? 'none');
      scripts.push(input);
    } catch (err) {
      if (!(err instanceof HostFailure)) throw err;
      skipped.push(`${label}: ${err.message}`);
    }
  });
  if (all.length > MAX_CARD_SCRIPTS) skipped.push(`Scripts ${MAX_CARD_SCRIPTS + 1}–${all.length}: a ${options.source} brings at most ${MAX_CARD_SCRIPTS} scripts.`);
  return { scripts, skipped };
}
