// A session's macros outside a turn: the list the Macros view shows, and spindle.macros.resolve, which runs
// the same engine a turn runs (built-ins from the session, the council's, extensions' macros).
import { macroDefinitions, macroResolver, type MacroSources } from './pipeline/macro-catalog';
import { sessionVariables } from './pipeline/builtin-macros';
import type { ResolvedMacros } from '../../../shared/spindle/macros';

export type { ResolvedMacros };

export interface MacroListing {
  name: string;
  owner: string;
  description: string;
  value: string | null;
}


export function listMacros(sources: MacroSources): MacroListing[] {
  return macroDefinitions(sources).map((d) => ({ name: d.name, owner: d.owner, description: d.description, value: d.value ?? null }));
}

/** `saveChatVariables`: where a committing resolve keeps the chat variables its macros changed (none: not kept). */
export async function resolveMacros(sources: MacroSources, text: string, saveChatVariables?: (changes: ReadonlyMap<string, string | null>) => void): Promise<ResolvedMacros> {
  const variables = sources.variables ?? sessionVariables(sources.session);
  const resolver = macroResolver({ ...sources, variables });
  // The extension's own template: whatever chat text it holds, it read with its own permissions.
  const resolved = await resolver.resolve(text, { chatText: false });
  if (sources.commit && variables.chatChanges.size) saveChatVariables?.(variables.chatChanges);
  return { text: resolved, diagnostics: resolver.notes.map((n) => ({ message: n.text, offset: 0, length: 0 })) };
}
