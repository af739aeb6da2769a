// Which world-info entries fire for a turn, by SillyTavern's rules for what the Workbench supports: keywords (whole
// words unless the entry says otherwise, any case unless it says otherwise) in the last messages, its
// secondary-keyword logic, constant and disabled entries; ordered by `order`. Imported entries follow its rule that
// one with no keywords that is not constant never fires. Regular-expression keys (/…/) are matched as text.
import type { WorldInfoEntry } from '../../../shared/types/chat';

/** How many recent messages keywords are looked for in, unless an entry says otherwise. */
export const WORLD_INFO_SCAN_DEPTH = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * SillyTavern's keyword test. Any case unless the entry is case-sensitive. With whole words, a keyword of
 * several words is found as written, and one word needs the text's edge or a non-word character on each side,
 * word characters being ASCII letters, digits and _ (JavaScript's \w): so 月影阁 is found inside a Chinese
 * sentence, and "cat" is not found in "category".
 */
function appears(keyword: string, haystack: string, entry: WorldInfoEntry): boolean {
  const k = keyword.trim();
  if (!k) return false;
  const key = entry.caseSensitive ? k : k.toLowerCase();
  const text = entry.caseSensitive ? haystack : haystack.toLowerCase();
  if (entry.wholeWords === false || /\s/.test(key)) return text.includes(key);
  return new RegExp(`(?:^|\\W)${escapeRegExp(key)}(?:$|\\W)`).test(text);
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
