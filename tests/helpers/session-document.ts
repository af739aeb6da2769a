// A session as an exported file holds it, for tests that import or assemble one: these defaults, `partial` over them.
import { SESSION_FORMAT, SESSION_VERSION, type ChatSession } from '../../shared/types/chat';

export function sessionDocument(partial: Partial<ChatSession> = {}): ChatSession {
  return {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    id: 's1',
    title: 'Tavern night',
    createdAt: 1,
    updatedAt: 2,
    character: { name: 'Seraphina', description: 'A guardian of the glade.', personality: 'Warm.', scenario: 'A forest at dusk.' },
    persona: { name: 'Ada', description: 'A traveller.' },
    worldInfo: [],
    messages: [],
    ...partial,
  };
}
