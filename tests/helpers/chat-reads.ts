// The host's ChatReads over a session store for unit tests: its libraries on the store's database, and the engine's,
// messages' and regex store's parts a test gives (the rest answer nothing).
import { chatReads } from '../../electron/core/chat/chat-reads';
import type { ChatEngine } from '../../electron/core/chat/chat-engine';
import type { MessageActions } from '../../electron/core/chat/message-actions';
import type { SessionStore } from '../../electron/core/chat/session-store';
import { BookLibrary } from '../../electron/core/lore/book-library';
import { PersonaLibrary } from '../../electron/core/personas/persona-library';

type Options = Parameters<typeof chatReads>[0];

export function testChatReads(sessions: SessionStore, chat: object, rest: Partial<Omit<Options, 'sessions' | 'chat'>> = {}) {
  const clock = { now: () => 0 };
  return chatReads({
    sessions,
    chat: chat as unknown as ChatEngine,
    messages: {} as MessageActions,
    regex: { forgetScope: () => 0 },
    library: new BookLibrary(sessions.db, clock),
    personas: new PersonaLibrary(sessions.db, clock),
    runningCouncilChat: () => null,
    changed: () => undefined,
    ...rest,
  });
}
