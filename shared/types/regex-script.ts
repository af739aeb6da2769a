// A regex script as Lumiverse keeps it (RegexScriptDTO, lumiverse-spindle-types 0.6.20): the host's record, and the
// DTO an extension reads of it (in spindle calls and in the REGEX_SCRIPT_CHANGED event).
export const REGEX_PLACEMENTS = ['user_input', 'ai_output', 'world_info', 'reasoning', 'memory'] as const;
/** preset: a preset's own (its import brought them), at work while it is the chat's preset, as Lumiverse binds them. */
export const REGEX_SCOPES = ['global', 'character', 'chat', 'preset'] as const;
export const REGEX_TARGETS = ['prompt', 'response', 'display'] as const;
export const REGEX_MACRO_MODES = ['none', 'raw', 'escaped', 'after'] as const;
export type RegexPlacement = (typeof REGEX_PLACEMENTS)[number];
export type RegexScope = (typeof REGEX_SCOPES)[number];
export type RegexTarget = (typeof REGEX_TARGETS)[number];
export type RegexMacroMode = (typeof REGEX_MACRO_MODES)[number];

/** Who wrote a script: an extension's id, or USER_OWNER for the person's own (the Regex scripts view). */
export const USER_OWNER = '';

/** A script as stored: Lumiverse's fields, and the extension that created it. */
export interface RegexScript {
  id: string;
  owner: string;
  name: string;
  script_id: string;
  find_regex: string;
  replace_string: string;
  flags: string;
  placement: RegexPlacement[];
  scope: RegexScope;
  scope_id: string | null;
  target: RegexTarget[];
  min_depth: number | null;
  max_depth: number | null;
  trim_strings: string[];
  run_on_edit: boolean;
  substitute_macros: RegexMacroMode;
  disabled: boolean;
  sort_order: number;
  description: string;
  folder: string;
  folder_version: string | null;
  metadata: Record<string, unknown>;
  /** Lumiverse's associative display actions, kept as given (the Workbench draws no action buttons). */
  actions: unknown[];
  created_at: number;
  updated_at: number;
}

export type RegexScriptInput = Partial<Omit<RegexScript, 'id' | 'owner' | 'target' | 'created_at' | 'updated_at'>> & { target?: RegexTarget | RegexTarget[] };

/** The DTO an extension reads: `can_mutate` says whether it may change the script. */
export type RegexScriptDto = Omit<RegexScript, 'owner'> & { can_mutate: boolean };

/**
 * The script an extension reads. Its `target` is Lumiverse's array, as Lumiverse's host sends it (toRegexScriptDTO),
 * though the 0.6.20 types name one string: published extensions are written against the host.
 */
export function scriptDto(script: RegexScript, canMutate: boolean): RegexScriptDto {
  const { owner: _owner, ...rest } = script;
  return { ...rest, target: [...script.target], can_mutate: canMutate };
}

/** Whether `owner` may change `script`: its own, or any with regex_scripts_unrestricted (the person may change all). */
export function mayChange(script: RegexScript, owner: string, unrestricted: boolean): boolean {
  return unrestricted || script.owner === owner;
}
