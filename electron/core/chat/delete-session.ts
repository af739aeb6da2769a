// Deleting a session, by the person or an extension (characters.delete): a reply being written is stopped first,
// then the session goes with its messages, and its own regex rules (a card's, an extension's for that chat) with it,
// as Lumiverse's go with a character; the world books attached to it stay, attached no more; extensions hear
// CHAT_DELETED and CHARACTER_DELETED (a session is both).
import type { BookLibrary } from '../lore/book-library';
import type { RegexStore } from '../regex/regex-store';
import type { ChatEngine } from './chat-engine';
import type { SessionStore } from './session-store';

export async function deleteSession(
  deps: { sessions: Pick<SessionStore, 'delete'>; chat: Pick<ChatEngine, 'stop' | 'settled' | 'broadcast' | 'activeSessionId' | 'open'>; regex: Pick<RegexStore, 'forgetScope'>; library: Pick<BookLibrary, 'forgetSession'> },
  sessionId: string,
): Promise<boolean> {
  if (deps.chat.stop(sessionId)) await deps.chat.settled(sessionId);
  const deleted = deps.sessions.delete(sessionId);
  if (deleted) {
    // No extension is told of a chat that is gone as the active one (it hears CHAT_SWITCHED { chatId: null }).
    if (deps.chat.activeSessionId === sessionId) deps.chat.open(null);
    deps.regex.forgetScope(sessionId);
    deps.library.forgetSession(sessionId);
    deps.chat.broadcast('CHAT_DELETED', { id: sessionId });
    deps.chat.broadcast('CHARACTER_DELETED', { id: sessionId });
  }
  return deleted;
}
