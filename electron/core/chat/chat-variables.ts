// A chat's variables where Lumiverse keeps them: its metadata.chat_variables, which the {{getchatvar}} macros and
// spindle.variables.chat both read. What a committed turn's macros changed is merged onto them as they are when saved,
// so what an extension wrote meanwhile stays.
import type { Logger } from '../ports';
import type { SessionStore } from './session-store';

/** What an extension may keep on a chat (lumiverse-dto.ts): variables past it are not kept. */
const MAX_VARIABLES_CHARS = 256 * 1024;

/** Merges the changes (a value set, or null: deleted) onto the session's variables; false when nothing was kept. */
export function keepChatVariables(sessions: SessionStore, sessionId: string, changes: ReadonlyMap<string, string | null>, log: Logger): boolean {
  if (!sessions.has(sessionId)) return false;
  const current = sessions.head(sessionId).metadata?.chat_variables;
  const variables: Record<string, unknown> = { ...(current && typeof current === 'object' && !Array.isArray(current) ? current : {}) };
  for (const [key, value] of changes) {
    if (value === null) delete variables[key];
    else variables[key] = value;
  }
  if (JSON.stringify(variables).length > MAX_VARIABLES_CHARS) {
    log.warn(`chat ${sessionId}: its macro variables are over ${MAX_VARIABLES_CHARS} characters as JSON; not kept`);
    return false;
  }
  sessions.mutate(sessionId, (s) => {
    s.metadata = { ...(s.metadata ?? {}), chat_variables: variables };
  });
  return true;
}
