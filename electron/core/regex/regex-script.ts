// A regex script as Lumiverse keeps it (RegexScriptDTO, lumiverse-spindle-types 0.6.20), and the checks its service
// makes of what an extension writes: Lumiverse's defaults for what is left out, its rules (flags, placements, a
// pattern that compiles) and its words, refused as INVALID_INPUT at the field that is wrong.
import { fail } from '../../../shared/errors';
import { REGEX_MACRO_MODES, REGEX_PLACEMENTS, REGEX_SCOPES, REGEX_TARGETS, type RegexMacroMode, type RegexScript, type RegexScriptInput, type RegexTarget } from '../../../shared/types/regex-script';

export const REGEX_LIMITS = {
  /** Lumiverse's cap on a pattern. */
  maxPatternChars: 10_000,
  maxReplaceChars: 100_000,
  maxScripts: 2_000,
  /** One extension's share of them. */
  maxScriptsPerOwner: 500,
  maxTrimStrings: 64,
  /** A script's JSON (its metadata and actions with it). */
  maxScriptBytes: 256 * 1024,
};

const VALID_FLAGS = new Set('dgimsuvy');

const invalid = (field: string, message: string): never => fail('INVALID_INPUT', message, { path: `/input/${field}` });

/** Lumiverse's normalisation of a stable id: lowercase, spaces and hyphens to underscores, other marks dropped. */
function normalizeScriptId(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z0-9_]/g, '');
}

/** Checks the fields `input` gives (a create gives name and find_regex), normalised as Lumiverse does. */
export function checkedInput(input: RegexScriptInput, creating: boolean): RegexScriptInput {
  const out: RegexScriptInput = { ...input };
  if (creating && !input.name?.trim()) invalid('name', 'Regex script name is required');
  if (creating && typeof input.find_regex !== 'string') invalid('find_regex', 'find_regex is required');
  if (input.name !== undefined) out.name = input.name.trim() || invalid('name', 'Regex script name is required');
  if (input.find_regex !== undefined && input.find_regex.length > REGEX_LIMITS.maxPatternChars) invalid('find_regex', 'find_regex exceeds maximum length');
  if (input.replace_string !== undefined && input.replace_string.length > REGEX_LIMITS.maxReplaceChars) invalid('replace_string', 'replace_string exceeds maximum length');
  if (input.flags !== undefined && !validFlags(input.flags)) invalid('flags', 'Invalid flags — allowed: d, g, i, m, s, u, v, y');
  for (const p of input.placement ?? []) if (!(REGEX_PLACEMENTS as readonly string[]).includes(p)) invalid('placement', `Invalid placement: ${p}`);
  if (input.scope !== undefined && !(REGEX_SCOPES as readonly string[]).includes(input.scope)) invalid('scope', `Invalid scope: ${input.scope}`);
  if (creating && input.scope !== undefined && input.scope !== 'global' && !input.scope_id) invalid('scope_id', 'scope_id is required for non-global scope');
  if (input.target !== undefined) {
    const targets = Array.isArray(input.target) ? input.target : [input.target];
    if (targets.length === 0) invalid('target', 'target must be a non-empty array');
    for (const t of targets) if (!(REGEX_TARGETS as readonly string[]).includes(t)) invalid('target', `Invalid target: ${t}`);
    out.target = [...new Set(targets)];
  }
  if (input.substitute_macros !== undefined && !(REGEX_MACRO_MODES as readonly string[]).includes(input.substitute_macros)) {
    invalid('substitute_macros', `Invalid substitute_macros: ${input.substitute_macros}`);
  }
  if (input.trim_strings !== undefined && input.trim_strings.length > REGEX_LIMITS.maxTrimStrings) invalid('trim_strings', `At most ${REGEX_LIMITS.maxTrimStrings} trim strings.`);
  if (input.script_id !== undefined) {
    out.script_id = normalizeScriptId(input.script_id);
    if (out.script_id.length > 100) invalid('script_id', 'script_id exceeds maximum length (100 characters)');
  }
  return out;
}

function validFlags(flags: string): boolean {
  return [...flags].every((c) => VALID_FLAGS.has(c)) && new Set(flags).size === flags.length;
}

/** Lumiverse compiles the pattern at write time; a pattern with macros compiles with each macro as one letter. */
export function checkPattern(pattern: string, flags: string, macros: RegexMacroMode): void {
  const compiled = macros !== 'none' && /\{\{|<USER>|<BOT>|<CHAR>/.test(pattern) ? pattern.replace(/\{\{[\s\S]*?\}\}/g, 'x').replace(/<USER>|<BOT>|<CHAR>/g, 'x') : pattern;
  try {
    new RegExp(compiled, flags);
  } catch (err) {
    invalid('find_regex', `Invalid regex: ${(err as Error).message}`);
  }
}

/** A new script from a checked create input, with Lumiverse's defaults. */
export function newScript(input: RegexScriptInput, id: string, owner: string, now: number): RegexScript {
  const scope = input.scope ?? 'global';
  return {
    id,
    owner,
    name: input.name!,
    script_id: input.script_id ?? '',
    find_regex: input.find_regex!,
    replace_string: input.replace_string ?? '',
    flags: input.flags ?? 'gi',
    placement: input.placement ?? ['ai_output'],
    scope,
    scope_id: scope === 'global' ? null : (input.scope_id ?? null),
    target: (input.target as RegexTarget[] | undefined) ?? ['response'],
    min_depth: input.min_depth ?? null,
    max_depth: input.max_depth ?? null,
    trim_strings: input.trim_strings ?? [],
    run_on_edit: input.run_on_edit ?? false,
    substitute_macros: input.substitute_macros ?? 'none',
    disabled: input.disabled ?? false,
    sort_order: input.sort_order ?? 0,
    description: input.description ?? '',
    folder: input.folder ?? '',
    folder_version: input.folder ? (input.folder_version || null) : null,
    metadata: input.metadata ?? {},
    actions: input.actions ?? [],
    created_at: now,
    updated_at: now,
  };
}

/** `script` with the checked update `input` applied: a scope change to global clears scope_id, as Lumiverse does. */
export function updatedScript(script: RegexScript, input: RegexScriptInput, now: number): RegexScript {
  const next: RegexScript = { ...script, updated_at: now };
  const fields = ['name', 'script_id', 'find_regex', 'replace_string', 'flags', 'placement', 'scope', 'scope_id', 'target', 'min_depth', 'max_depth', 'trim_strings', 'run_on_edit', 'substitute_macros', 'disabled', 'sort_order', 'description', 'folder', 'folder_version', 'metadata', 'actions'] as const;
  for (const field of fields) if (input[field] !== undefined) Object.assign(next, { [field]: input[field] });
  if (input.scope !== undefined && input.scope_id === undefined) next.scope_id = input.scope === script.scope ? script.scope_id : null;
  if (next.scope === 'global') next.scope_id = null;
  else if (!next.scope_id) invalid('scope_id', 'scope_id is required for non-global scope');
  if (!next.folder) next.folder_version = null;
  else if (input.folder_version === '') next.folder_version = null;
  return next;
}
