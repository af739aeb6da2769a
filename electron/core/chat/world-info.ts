// Which world-info entries fire for a turn: keywords (whole words, any case unless the entry says otherwise) in the
// last messages, SillyTavern's secondary-keyword logic, constant entries; ordered by `order`. Imported entries follow
// SillyTavern's rule that one with no keywords that is not constant never fires.
import type { WorldInfoEntry } from '../../../shared/types/chat';

/** How many recent messages keywords are looked for in, unless an entry says otherwise. */
export const WORLD_INFO_SCAN_DEPTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function appears(keyword: string, haystack: string, entry: WorldInfoEntry): boolean {
  const k = keyword.trim();
  if (!k) return false;
  const flags = entry.caseSensitive ? 'u' : 'iu';
  if (entry.wholeWords === false) return new RegExp(escapeRegExp(k), flags).test(haystack);
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(k)}($|[^\\p{L}\\p{N}_])`, flags).test(haystack);
}

function fires(entry: WorldInfoEntry, recent: string[]): boolean {
  if (!entry.enabled || entry.content.trim() === '') return false;
  if (entry.constant) return true;
  if (entry.keywords.length === 0) return entry.constant === undefined;
  const haystack = recent.slice(-(entry.scanDepth ?? WORLD_INFO_SCAN_DEPTH)).join('\n');
  if (!entry.keywords.some((k) => appears(k, haystack, entry))) return false;
  const secondary = entry.secondaryKeywords ?? [];
  if (secondary.length === 0 || !entry.selectiveLogic) return true;
  const hits = secondary.filter((k) => appears(k, haystack, entry)).length;
  switch (entry.selectiveLogic) {
    case 'and_any':
      return hits > 0;
    case 'and_all':
      return hits === secondary.length;
    case 'not_any':
      return hits === 0;
    case 'not_all':
      return hits < secondary.length;
  }
}

/** The entries that fire, in insertion order (lower `order` first, then as listed). `recent` is oldest first. */
export function activeWorldInfo(entries: WorldInfoEntry[], recent: string[]): WorldInfoEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => fires(entry, recent))
    .sort((a, b) => (a.entry.order ?? 100) - (b.entry.order ?? 100) || a.index - b.index)
    .map(({ entry }) => entry);
}
