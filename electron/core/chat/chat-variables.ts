// A chat's variables where Lumiverse keeps them: its metadata.chat_variables, which the {{getchatvar}} macros and
// spindle.variables.chat both read. What a committed turn's macros changed is merged onto them as they are when saved,
// so what an extension wrote meanwhile stays.
import { SESSION_LIMITS } from '../../../shared/types/chat';
import type { Logger } from '../ports';
import type { SessionStore } from './session-store';


/** Merges the changes (a value set, or null: deleted) onto the session's variables; false when nothing was kept. */
export function keepChatVariables(sessions: SessionStore, sessionId: string, changes: ReadonlyMap<string, string | null>, log: Logger): boolean {
  if (!sessions.has(sessionId)) return false;
  const current = sessions.head(sessionId).metadata?.chat_variables;
  const variables: Record<string, unknown> = { ...(current && typeof current === 'object' && !Array.isArray(current) ? current : {}) };
  for (const [key, value] of changes) {
    if (value === null) delete variables[key];
    else variables[key] = value;
  }
  if (JSON.stringify(variables).length > SESSION_LIMITS.chatMetadata) {
    log.warn(`chat ${sessionId}: its macro variables are over ${SESSION_LIMITS.chatMetadata} characters as JSON; not kept`);
    return false;
  }
  sessions.mutate(sessionId, (s) => {
    s.metadata = { ...(s.metadata ?? {}), chat_variables: variables };
  });
  return true;
}
