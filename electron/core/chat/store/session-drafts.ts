// How the store hands sessions out and takes changes in: frozen values shared by every reader, drafts to change,
// and a new session's defaults.
import { SESSION_FORMAT, SESSION_VERSION, type ChatMessage, type ChatSession } from '../../../../shared/types/chat';

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A draft to change: the session's fields copied (in their order), its frozen messages shared in a new array. */
export function draftOf(session: ChatSession): ChatSession {
  const draft: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(session)) draft[key] = key === 'messages' ? (value as ChatMessage[]).slice() : structuredClone(value);
  return draft as ChatSession;
}

/** A new session: the fields given, the defaults for the rest. */
export function newSession(id: string, now: number, init: Partial<ChatSession>): ChatSession {
  const { title = 'New chat', character = { name: 'Assistant', description: '', personality: '', scenario: '' }, persona = { name: 'User', description: '' }, worldInfo = [], messages = [], ...rest } = init;
  return { format: SESSION_FORMAT, version: SESSION_VERSION, id, title, createdAt: now, updatedAt: now, character, persona, worldInfo, messages, ...rest };
}
