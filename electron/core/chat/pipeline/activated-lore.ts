// The world info a turn's prompt holds, in Lumiverse's shape (ActivatedWorldInfoEntryDTO): handed to interceptors as
// the context's `activatedWorldInfo` (Prompt Viewer's World Info panel, a director reading what fired) and announced
// as WORLD_INFO_ACTIVATED. Entries that fired but did not fit the budget are not in the prompt, so not listed.
import type { ChatSession, PromptReport } from '../../../../shared/types/chat';

export interface ActivatedEntry {
  id: string;
  comment: string;
  keys: string[];
  source: 'keyword';
}

export function activatedWorldInfo(session: ChatSession, report: PromptReport): ActivatedEntry[] {
  if (report.worldInfo.length === 0) return [];
  const byId = new Map(session.worldInfo.map((entry) => [entry.id, entry]));
  return report.worldInfo.flatMap((hit) => {
    const entry = hit.included ? byId.get(hit.id) : undefined;
    return entry ? [{ id: entry.id, comment: entry.comment ?? '', keys: [...entry.keywords], source: 'keyword' as const }] : [];
  });
}
