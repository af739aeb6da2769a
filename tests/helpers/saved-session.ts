// A session as the database holds it, read by a store of its own (not the one that wrote it and keeps it in memory).
import { SessionStore } from '../../electron/core/chat/session-store';
import type { ChatSession } from '../../shared/types/chat';

export function savedSession(dataDir: string, id: string): ChatSession {
  const reader = new SessionStore({ dataDir });
  try {
    return reader.get(id);
  } finally {
    reader.close();
  }
}
