// spindle.world_books (permission world_books) in Lumiverse's shapes, over two kinds of book: the world books of their
// own (lore/book-library.ts: made by `create`, attached to characters by their world_book_ids, read live at each turn),
// and each session's own world info (a lorebook it imported, the entries the person wrote), whose id is the session's.
// An entry id names its entry in either; a new book is always one of its own, as in Lumiverse (it lands in no chat).
// getActivated answers what a turn of that chat would read, and the global books apply to every chat.
import { randomUUID } from 'node:crypto';
import type { SpindleParams } from '../../../../shared/spindle/requests';
import type { WorldInfoEntry } from '../../../../shared/types/chat';
import { CHAT_TEXT_PERMISSION } from '../../../../shared/spindle/event-access';
import { chatBookIds, type BookLibrary } from '../../lore/book-library';
import { scanWorldInfo } from '../../lore/world-info';
import { branchRoot } from '../../util/branch-root';
import type { ChatReads, ChatView } from './chat-data';
import { fail, type HandlersOf } from './handlers';
import { page, seconds, withinMetadataCap, worldInfoEntryDto as entryDto } from './lumiverse-dto';
import { keptValue, KEPT_ENTRY_FIELD_NAMES, SELECTIVE_LOGIC } from '../../../../shared/spindle/world-entry-fields';

/** Lumiverse's entry fields onto a Workbench entry (the ones it acts on or keeps). */
function entryFields(input: SpindleParams<'world_books.entries.update'>['input'], base: WorldInfoEntry): WorldInfoEntry {
  const words = (list: string[] | undefined) => list?.map((w) => w.trim()).filter(Boolean);
  withinMetadataCap(input.extensions, "An entry's extensions are", '/input/extensions');
  const entry: WorldInfoEntry = { ...base };
  const keywords = words(input.key);
  const secondary = words(input.keysecondary);
  if (keywords) entry.keywords = keywords;
  if (secondary) entry.secondaryKeywords = secondary;
  if (input.content !== undefined) entry.content = input.content;
  if (input.comment !== undefined) entry.comment = input.comment;
  if (input.disabled !== undefined) entry.enabled = !input.disabled;
  if (input.constant !== undefined) entry.constant = input.constant;
  if (input.order_value !== undefined) entry.order = input.order_value;
  if (input.case_sensitive !== undefined) entry.caseSensitive = input.case_sensitive;
  if (input.match_whole_words !== undefined) entry.wholeWords = input.match_whole_words;
  if (input.scan_depth !== undefined && input.scan_depth !== null) entry.scanDepth = Math.min(1000, Math.max(1, Math.round(input.scan_depth)));
  if (input.extensions !== undefined) entry.extensions = input.extensions;
  // The fields it keeps and does not act on, as Lumiverse takes them, under their own names; its selective_logic too,
  // kept while the entry is not selective, as Lumiverse keeps it apart.
  const fields = input as Record<string, unknown>;
  const kept = KEPT_ENTRY_FIELD_NAMES.filter((name) => fields[name] !== undefined);
  if (kept.length || input.selective_logic !== undefined) {
    entry.lumiverse = { ...entry.lumiverse, ...Object.fromEntries(kept.map((name) => [name, keptValue(name, fields[name])])), ...(input.selective_logic !== undefined ? { selective_logic: input.selective_logic } : {}) };
  }
  // Lumiverse's `selective`: the secondary keywords count, by its selective_logic (0 all, 1 none, 2 any, 3 not all).
  const selective = input.selective ?? entry.selectiveLogic !== undefined;
  const logic = input.selective_logic ?? (entry.lumiverse?.selective_logic as number | undefined) ?? Math.max(0, SELECTIVE_LOGIC.indexOf(entry.selectiveLogic ?? 'and_all'));
  if (selective) entry.selectiveLogic = SELECTIVE_LOGIC[logic]!;
  else delete entry.selectiveLogic;
  // An entry of the Workbench's own fires on every turn once it has no keywords; one an extension cleared the keywords
  // of, or made vector-only, fires by none, as Lumiverse's (a vectorized one is found by its vector there).
  if (entry.constant === undefined && entry.keywords.length === 0 && (base.keywords.length > 0 || entry.lumiverse?.vectorized === true)) entry.constant = false;
  return entry;
}

/** A session's own world info as a book. */
const sessionBookDto = (c: ChatView) => ({
  id: c.id,
  name: c.book?.name || `${c.character.name || c.name} — world info`,
  description: c.book?.description ?? '',
  metadata: {},
  created_at: seconds(c.createdAt),
  updated_at: seconds(c.updatedAt),
});

/** Where an entry is, among the sessions' books. */
const entryIn = (chats: ChatView[], entryId: string) => {
  for (const c of chats) {
    const e = c.worldInfo.find((w) => w.id === entryId);
    if (e) return { c, e };
  }
  return null;
};

export interface WorldBookContext {
  reads(): ChatReads | null;
  /** Every session, without its messages. */
  all(): ChatView[];
  find(id: string): ChatView | null;
  /** Waits for the session to be read whole; its id. */
  changing(id: string): Promise<string>;
  /** The session with its messages, read whole first. */
  read(id: string): Promise<ChatView>;
}

export function worldBookHandlers(ctx: WorldBookContext): HandlersOf<'world_books'> {
  const library = (): BookLibrary => ctx.reads()?.library ?? fail('UNSUPPORTED_HERE', 'World books are kept with the Workbench chat, which this host does not run.');
  const sessionBook = (id: string) => {
    const c = ctx.find(id);
    return c && c.worldInfo.length ? c : null;
  };
  const newEntry = (): WorldInfoEntry => ({ id: randomUUID(), keywords: [], content: '', enabled: true, constant: false });
  return {
    'world_books.list': ({ options }) => page([...(ctx.reads() ? library().list() : []), ...ctx.all().filter((c) => c.worldInfo.length).map(sessionBookDto)], options),
    'world_books.get': ({ worldBookId }) => {
      const own = ctx.reads() ? library().get(worldBookId) : null;
      if (own) return own;
      const c = sessionBook(worldBookId);
      return c ? sessionBookDto(c) : null;
    },
    'world_books.create': ({ input }) => {
      withinMetadataCap(input.metadata, "A world book's metadata is", '/input/metadata');
      return library().create(input);
    },
    'world_books.update': ({ worldBookId, input }) => {
      withinMetadataCap(input.metadata, "A world book's metadata is", '/input/metadata');
      if (!library().get(worldBookId) && sessionBook(worldBookId)) fail('UNSUPPORTED_HERE', "A chat's own world info is renamed with the chat, not through spindle.world_books.update.", '/worldBookId');
      return library().update(worldBookId, input);
    },
    // A chat's own world info goes only with the chat (characters.delete).
    'world_books.delete': ({ worldBookId }) => library().delete(worldBookId),
    'world_books.entries.list': ({ worldBookId, options }) => {
      const own = library().get(worldBookId);
      if (own) return page(library().entries(own.id).map((e) => entryDto(own.id, e)), options);
      const c = ctx.find(worldBookId);
      return page(c ? c.worldInfo.map((e) => entryDto(c.id, e)) : [], options);
    },
    'world_books.entries.get': ({ entryId }) => {
      const own = library().entry(entryId);
      if (own) return entryDto(own.bookId, own.entry);
      const found = entryIn(ctx.all(), entryId);
      return found ? entryDto(found.c.id, found.e) : null;
    },
    'world_books.entries.update': async ({ entryId, input }) => {
      const own = library().entry(entryId);
      if (own) {
        const entry = entryFields(input, own.entry);
        library().saveEntry(own.bookId, entry);
        return entryDto(own.bookId, entry);
      }
      const found = entryIn(ctx.all(), entryId) ?? fail('NOT_FOUND', `No world info entry ${entryId}.`, '/entryId');
      const entry = entryFields(input, found.e);
      ctx.reads()!.saveEntry(await ctx.changing(found.c.id), entry);
      return entryDto(found.c.id, entry);
    },
    'world_books.entries.create': async ({ worldBookId, input }) => {
      const entry = entryFields(input, newEntry());
      if (library().get(worldBookId)) {
        library().saveEntry(worldBookId, entry);
        return entryDto(worldBookId, entry);
      }
      const c = ctx.find(worldBookId) ?? fail('NOT_FOUND', `No world book ${worldBookId}.`, '/worldBookId');
      ctx.reads()!.saveEntry(await ctx.changing(c.id), entry);
      return entryDto(c.id, entry);
    },
    'world_books.entries.delete': async ({ entryId }) => {
      if (library().deleteEntry(entryId)) return true;
      const found = entryIn(ctx.all(), entryId);
      if (!found) return false;
      ctx.reads()!.removeEntry(await ctx.changing(found.c.id), entryId);
      return true;
    },
    // What a turn of that chat would read now (its own world info, then its books in Lumiverse's order) and which fire
    // over its recent messages, as the turn's scan decides.
    'world_books.getActivated': async ({ chatId }, caller) => {
      const c = await ctx.read(chatId);
      // Which keywords fire tells what the chat says: that scan needs the chat's text permission; without it, only what
      // fires without reading the chat (constant entries, and those with no keywords) is answered.
      const recent = caller.allowed(CHAT_TEXT_PERMISSION) ? c.messages.map((m) => m.content) : [];
      const books = [{ bookId: c.id, source: 'character' as const, entries: c.worldInfo }, ...library().sources([c.id, branchRoot(c.id, (id) => ctx.reads()?.head(id) ?? null)], chatBookIds(c.metadata))];
      const bookOf = new Map(books.flatMap((b) => b.entries.map((e) => [e, b] as const)));
      const fired = scanWorldInfo(books.flatMap((b) => b.entries), recent);
      return fired.map(({ entry }) => ({ id: entry.id, comment: entry.comment ?? '', keys: entry.keywords, source: 'keyword', bookId: bookOf.get(entry)!.bookId, bookSource: bookOf.get(entry)!.source }));
    },
    'world_books.getGlobal': () => (ctx.reads() ? library().globals() : []),
    'world_books.setGlobal': ({ worldBookIds }) => library().setGlobals(worldBookIds),
    'world_books.activateGlobal': ({ worldBookId }) => {
      if (!library().get(worldBookId)) fail('NOT_FOUND', `No world book ${worldBookId}.`, '/worldBookId');
      return library().setGlobals([...library().globals(), worldBookId]);
    },
    'world_books.deactivateGlobal': ({ worldBookId }) => library().setGlobals(library().globals().filter((id) => id !== worldBookId)),
  };
}
