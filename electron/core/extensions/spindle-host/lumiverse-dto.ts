// What the chat data namespaces' answers share in Lumiverse's shapes: its seconds, its pages, and the cap on what
// extensions keep on a record (metadata, extensions).
import { keptValue, KEPT_ENTRY_FIELDS, KEPT_ENTRY_FIELD_NAMES, SELECTIVE_LOGIC } from '../../../../shared/spindle/world-entry-fields';
import { setting } from '../../lore/world-info-shapes';
import type { WorldInfoEntry } from '../../../../shared/types/chat';
import type { BookChange } from '../../lore/book-library';
import { fail } from './handlers';

export const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * A chat in Lumiverse's shape. A session is a chat with its own character, so its character id is its own; a branch
 * keeps the character of the chat it was branched from (its root, given as `characterId`), as Lumiverse's branch does.
 */
export const chatDto = (c: { id: string; name: string; metadata?: Record<string, unknown>; createdAt: number; updatedAt: number }, characterId = c.id) => ({
  id: c.id,
  character_id: characterId,
  name: c.name,
  metadata: c.metadata ?? {},
  created_at: seconds(c.createdAt),
  updated_at: seconds(c.updatedAt),
});

/** Most JSON one record's extension metadata may take (a message's, a chat's, an entry's). */
const MAX_METADATA_CHARS = 256 * 1024;

/** INPUT_TOO_LARGE at `path` when `value` (what extensions keep: metadata, extensions) is over the cap as JSON. */
export function withinMetadataCap(value: unknown, what: string, path: string, max = MAX_METADATA_CHARS): void {
  if (value !== undefined && JSON.stringify(value).length > max) fail('INPUT_TOO_LARGE', `${what} at most ${max} characters as JSON.`, path);
}

/** Lumiverse's page of a list: `offset` and `limit` as given (none: the whole list), and the total. */
export function page<T>(items: T[], options: { limit?: number; offset?: number } | undefined): { data: T[]; total: number } {
  const offset = options?.offset !== undefined && options.offset > 0 ? Math.floor(options.offset) : 0;
  const limit = options?.limit !== undefined && options.limit > 0 ? Math.floor(options.limit) : items.length;
  return { data: items.slice(offset, offset + limit), total: items.length };
}

/**
 * Lumiverse's kept fields of an entry (world-entry-fields.ts): as an extension wrote them, else as its imported file
 * had them (SillyTavern's names), else Lumiverse's defaults.
 */
const keptFields = (e: WorldInfoEntry) =>
  Object.fromEntries(
    KEPT_ENTRY_FIELD_NAMES.map((name) => {
      const st = KEPT_ENTRY_FIELDS[name]!.st;
      const written = e.lumiverse && Object.hasOwn(e.lumiverse, name) ? e.lumiverse[name] : undefined;
      const imported = written === undefined && st && e.source ? setting(e.source.entry, e.source.shape, st) : undefined;
      return [name, keptValue(name, written ?? imported)];
    }),
  );

/** An entry in Lumiverse's shape: the fields the Workbench acts on, and those it keeps (position, depth, groups…). */
export const worldInfoEntryDto = (bookId: string, e: WorldInfoEntry) => ({
  ...keptFields(e),
  selective: e.selectiveLogic !== undefined,
  selective_logic: e.selectiveLogic ? SELECTIVE_LOGIC.indexOf(e.selectiveLogic) : ((e.lumiverse?.selective_logic as number | undefined) ?? 0),
  id: e.id,
  uid: e.id,
  world_book_id: bookId,
  key: e.keywords,
  keysecondary: e.secondaryKeywords ?? [],
  content: e.content,
  comment: e.comment ?? '',
  disabled: !e.enabled,
  constant: e.constant ?? false,
  order_value: e.order ?? 100,
  case_sensitive: e.caseSensitive ?? false,
  match_whole_words: e.wholeWords ?? true,
  scan_depth: e.scanDepth ?? null,
  extensions: e.extensions ?? {},
});

/** Lumiverse's WORLD_BOOK_* event for a change to a book or an entry: its name and payload. */
export function worldBookEvent(change: BookChange): [event: string, payload: Record<string, unknown>] {
  switch (change.kind) {
    case 'book':
      return ['WORLD_BOOK_CHANGED', { id: change.book.id, worldBook: change.book }];
    case 'book-deleted':
      return ['WORLD_BOOK_DELETED', { id: change.id }];
    case 'entry':
      return ['WORLD_BOOK_ENTRY_CHANGED', { id: change.entry.id, worldBookId: change.bookId, entry: worldInfoEntryDto(change.bookId, change.entry) }];
    case 'entry-deleted':
      return ['WORLD_BOOK_ENTRY_DELETED', { id: change.entryId, worldBookId: change.bookId }];
  }
}
