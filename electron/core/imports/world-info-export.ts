// Session world info back to SillyTavern's shapes: a card's character_book entries or a world-info file. An
// imported entry starts from its original (converted the way SillyTavern converts, when the shape differs) and
// only what was edited since is written over it, so an unedited field leaves exactly as it came — `null`s,
// comma-separated keys, `selective` without secondary keys included. Entries made here are written whole.
import { isDeepStrictEqual } from 'node:util';
import type { ChatSession, WorldInfoEntry } from '../../../shared/types/chat';
import { LOGIC, worldInfoEntry } from './lorebook';
import { convertEntry, FILE_TO_CARD_EXTENSION, isRecord, type EntryShape, type Raw } from '../lore/world-info-shapes';

/** The fields the Workbench edits and acts on. */
const OWNED = ['keywords', 'secondaryKeywords', 'selectiveLogic', 'content', 'enabled', 'constant', 'order', 'caseSensitive', 'wholeWords', 'scanDepth'] as const;
type Owned = (typeof OWNED)[number];

/** Sets a file-named setting where the shape keeps it (a card's under `extensions`, snake_case). */
function put(target: Raw, shape: EntryShape, fileKey: string, value: unknown): void {
  if (shape === 'file') {
    target[fileKey] = value;
    return;
  }
  const extensions: Raw = isRecord(target.extensions) ? { ...target.extensions } : {};
  extensions[FILE_TO_CARD_EXTENSION[fileKey] ?? fileKey] = value;
  target.extensions = extensions;
}

function write(target: Raw, shape: EntryShape, field: Owned, entry: WorldInfoEntry): void {
  const card = shape === 'card';
  switch (field) {
    case 'keywords':
      target[card ? 'keys' : 'key'] = [...entry.keywords];
      return;
    case 'secondaryKeywords':
      target[card ? 'secondary_keys' : 'keysecondary'] = [...(entry.secondaryKeywords ?? [])];
      target.selective = (entry.secondaryKeywords?.length ?? 0) > 0;
      return;
    case 'selectiveLogic':
      put(target, shape, 'selectiveLogic', LOGIC.indexOf(entry.selectiveLogic ?? 'and_any'));
      return;
    case 'content':
      target.content = entry.content;
      return;
    case 'enabled':
      if (card) target.enabled = entry.enabled;
      else target.disable = !entry.enabled;
      return;
    case 'constant':
      // The Workbench's own entries without keywords always fire: SillyTavern says that with `constant`.
      target.constant = entry.constant ?? entry.keywords.length === 0;
      return;
    case 'order':
      target[card ? 'insertion_order' : 'order'] = entry.order ?? 100;
      return;
    case 'caseSensitive':
      put(target, shape, 'caseSensitive', entry.caseSensitive ?? null);
      if (card && entry.caseSensitive !== undefined) target.case_sensitive = entry.caseSensitive;
      return;
    case 'wholeWords':
      put(target, shape, 'matchWholeWords', entry.wholeWords ?? true);
      return;
    case 'scanDepth':
      put(target, shape, 'scanDepth', entry.scanDepth ?? null);
      return;
  }
}

/** One entry in `shape`; `id` numbers an entry that brings none. */
export function exportEntry(entry: WorldInfoEntry, shape: EntryShape, id: number): Raw {
  const source = entry.source;
  const base: Raw = source ? convertEntry(source.entry, source.shape, shape) : { ...(entry.extra ?? {}) };
  const before = source ? worldInfoEntry(source.entry, '', source.shape) : null;
  for (const field of OWNED) {
    if (before && isDeepStrictEqual(before[field], entry[field])) continue;
    write(base, shape, field, entry);
  }
  const idKey = shape === 'card' ? 'id' : 'uid';
  if (typeof base[idKey] !== 'number' && typeof base[idKey] !== 'string') base[idKey] = id;
  if (shape === 'file' && !source) base.comment ??= entry.keywords[0] ?? '';
  return base;
}

/** Ids as the entries bring them; an entry without one, or with one taken, gets the next free number. */
function numbered(entries: readonly WorldInfoEntry[], shape: EntryShape): Raw[] {
  const idKey = shape === 'card' ? 'id' : 'uid';
  const taken = new Set<string>();
  let next = 0;
  const fresh = () => {
    while (taken.has(String(next))) next++;
    return next;
  };
  return entries.map((entry) => {
    const raw = exportEntry(entry, shape, fresh());
    if (taken.has(String(raw[idKey]))) raw[idKey] = fresh();
    taken.add(String(raw[idKey]));
    return raw;
  });
}

/** A card's character_book: the book's own fields as the card had them, and the entries. */
export function toCharacterBook(session: ChatSession): Raw {
  const kept = session.card?.data.character_book;
  const book: Raw = isRecord(kept) ? { ...kept } : typeof session.worldInfoBook?.name === 'string' ? { name: session.worldInfoBook.name } : {};
  book.entries = numbered(session.worldInfo, 'card');
  return book;
}

/** A SillyTavern world-info file of the session's world info: entries keyed by uid, the first imported book's own fields. */
export function toLorebookFile(session: ChatSession): Raw {
  const entries = numbered(session.worldInfo, 'file');
  return { ...(session.worldInfoBook ?? {}), entries: Object.fromEntries(entries.map((e) => [String(e.uid), e])) };
}
