// A session as the lists show it: its summary row, and the title its first message gives it.
import type { ChatSession, ChatSessionSummary } from '../../../../shared/types/chat';
import type { SessionRow } from './session-rows';

/** What a session's summary says of it (its row in the database holds the same). */
export function summaryFields(s: ChatSession): SessionRow {
  return { id: s.id, title: s.title, characterName: s.character.name, messageCount: s.messages.length, createdAt: s.createdAt, updatedAt: s.updatedAt };
}

export function summaryOf(row: SessionRow, busy: boolean): ChatSessionSummary {
  return { ...row, busy };
}

/** A session title from its first message: the first line, cut at a word near 48 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0]!.replace(/\s+/g, ' ');
  if (line.length <= 48) return line;
  const cut = line.slice(0, 48);
  const space = cut.lastIndexOf(' ');
  return `${space > 24 ? cut.slice(0, space) : cut}…`;
}
