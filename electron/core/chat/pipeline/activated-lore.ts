// The world info a turn's prompt holds, in Lumiverse's shape (ActivatedWorldInfoEntryDTO): handed to interceptors as
// the context's `activatedWorldInfo` (Prompt Viewer's World Info panel, a director reading what fired) and announced
// as WORLD_INFO_ACTIVATED (every turn, none included, so a panel clears what it showed). Entries that fired but did not
// fit the budget are not in the prompt, so not listed. Each names its book, as Lumiverse's do (World Info Visualizer
// groups by them): a world book of its own, or the session's own world info (the character's book, named by its session).
import type { ChatSession, PromptReport } from '../../../../shared/types/chat';
import type { LoreBooks } from './lore-stage';

export interface ActivatedEntry {
  id: string;
  comment: string;
  keys: string[];
  source: 'keyword';
  bookId: string;
  bookSource: string;
  bookName: string;
}

export function activatedWorldInfo(session: ChatSession, report: PromptReport, books: LoreBooks = new Map()): ActivatedEntry[] {
  if (report.worldInfo.length === 0) return [];
  const byId = new Map(session.worldInfo.map((entry) => [entry.id, entry]));
  const ownName = (typeof session.worldInfoBook?.name === 'string' && session.worldInfoBook.name) || `${session.character.name || session.title} — world info`;
  return report.worldInfo.flatMap((hit) => {
    const entry = hit.included ? byId.get(hit.id) : undefined;
    if (!entry) return [];
    const book = books.get(entry.id);
    return [{ id: entry.id, comment: entry.comment ?? '', keys: [...entry.keywords], source: 'keyword' as const, bookId: book?.bookId ?? session.id, bookSource: book?.source ?? 'character', bookName: book ? (book.bookName ?? '') : ownName }];
  });
}
