// World info from several sources into one list, each entry once: a card usually embeds its own lorebook, and people
// import the card together with that book's file (or add the file later), which would fire every entry twice.
import type { WorldInfoEntry } from '../../../shared/types/chat';

/** What makes two entries the same: their keywords (in any order), secondary keywords and content. */
function identity(entry: WorldInfoEntry): string {
  // A previewed session file is not validated yet: read its entries without trusting their shape.
  const sorted = (words: unknown) => (Array.isArray(words) ? words.map(String).sort() : []);
  return JSON.stringify([sorted(entry.keywords), sorted(entry.secondaryKeywords), String(entry.content ?? '').trim()]);
}

/**
 * `existing` followed by the entries of each later source that are not already there. Entries repeated within one
 * source stay as its author made them; only a source repeating an earlier one is dropped (and counted).
 */
export function mergeWorldInfo(existing: readonly WorldInfoEntry[], ...sources: ReadonlyArray<readonly WorldInfoEntry[]>): { entries: WorldInfoEntry[]; duplicates: number } {
  const entries = [...existing];
  const seen = new Set(existing.map(identity));
  let duplicates = 0;
  for (const source of sources) {
    const fresh = source.filter((entry) => !seen.has(identity(entry)));
    duplicates += source.length - fresh.length;
    for (const entry of fresh) seen.add(identity(entry));
    entries.push(...fresh);
  }
  return { entries, duplicates };
}
