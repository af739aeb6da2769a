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

/** Why an entry fires: always on, or the keyword found and the message it was found in (an index into `recent`). */
export type WorldInfoTrigger = { kind: 'constant' } | { kind: 'always' } | { kind: 'keyword'; keyword: string; message: number | null };

function trigger(entry: WorldInfoEntry, recent: string[]): WorldInfoTrigger | null {
  if (!entry.enabled || entry.content.trim() === '') return null;
  if (entry.constant) return { kind: 'constant' };
  if (entry.keywords.length === 0) return entry.constant === undefined ? { kind: 'always' } : null;
  const depth = Math.min(recent.length, entry.scanDepth ?? WORLD_INFO_SCAN_DEPTH);
  const haystack = recent.slice(recent.length - depth).join('\n');
  const keyword = entry.keywords.find((k) => appears(k, haystack, entry));
  if (keyword === undefined) return null;
  const secondary = entry.secondaryKeywords ?? [];
  if (secondary.length > 0 && entry.selectiveLogic && !secondaryHolds(entry, secondary, haystack)) return null;
  // The newest message it is found in (the log says where); a keyword spanning two messages names none.
  let message: number | null = null;
  for (let i = recent.length - 1; i >= recent.length - depth && message === null; i--) if (appears(keyword, recent[i]!, entry)) message = i;
  return { kind: 'keyword', keyword, message };
}

function secondaryHolds(entry: WorldInfoEntry, secondary: string[], haystack: string): boolean {
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
    default:
      return true;
  }
}

/** The entries that fire and why, in insertion order (lower `order` first, then as listed). `recent` is oldest first. */
export function scanWorldInfo(entries: WorldInfoEntry[], recent: string[]): Array<{ entry: WorldInfoEntry; trigger: WorldInfoTrigger }> {
  return entries
    .map((entry, index) => ({ entry, index, trigger: trigger(entry, recent) }))
    .filter((x): x is { entry: WorldInfoEntry; index: number; trigger: WorldInfoTrigger } => x.trigger !== null)
    .sort((a, b) => (a.entry.order ?? 100) - (b.entry.order ?? 100) || a.index - b.index)
    .map(({ entry, trigger }) => ({ entry, trigger }));
}

/** The entries that fire, in insertion order. */
export function activeWorldInfo(entries: WorldInfoEntry[], recent: string[]): WorldInfoEntry[] {
  return scanWorldInfo(entries, recent).map(({ entry }) => entry);
}
