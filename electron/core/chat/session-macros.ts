// A session's macros outside a turn: the list the Macros view shows, and spindle.macros.resolve, which runs
// the same engine a turn runs (built-ins from the session, the council's, extensions' macros).
import { extensionMacroSources, macroDefinitions, macroResolver, type MacroSources } from './pipeline/macro-catalog';
import { patternsOf } from './pipeline/regex-stage';
import type { ChatSession } from '../../../shared/types/chat';
import type { ExtensionPipeline } from '../extensions/pipeline/pipeline-bridge';
import type { InlineTool } from './council-port';
import type { RegexScripts } from '../regex/regex-scripts';
import { sessionVariables } from './pipeline/builtin-macros';
import type { ResolvedMacros } from '../../../shared/spindle/macros';

export type { ResolvedMacros };

export interface MacroListing {
  name: string;
  owner: string;
  description: string;
  value: string | null;
}


const BLANK = { id: '', character: { name: '', description: '', personality: '', scenario: '' }, persona: { name: '', description: '' }, worldInfo: [], messages: [] };

/** What a macro in this session (or, with none, a blank one) resolves from, outside a turn. */
export function sessionMacroSources(
  session: ChatSession | undefined,
  chat: { pipeline: ExtensionPipeline | undefined; councilTools: InlineTool[]; regex: RegexScripts | undefined },
  commit: boolean,
): MacroSources {
  const read = session ?? (BLANK as unknown as ChatSession);
  return { session: read, history: read.messages, deliberation: '', councilTools: chat.councilTools, ...extensionMacroSources(chat.pipeline), commit, signal: new AbortController().signal, ...patternsOf(chat.regex) };
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
