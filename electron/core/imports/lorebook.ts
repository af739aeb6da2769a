// SillyTavern world info (a lorebook file, or a card's character_book) → session world-info entries. Each entry
// keeps its original verbatim (`source`), so an export writes back what nobody edited exactly as it came; the
// fields the Workbench acts on are read from wherever the entry's shape keeps them (world-info-shapes.ts).
// Settings left unset (`null`) mean SillyTavern's global defaults: whole words off, case-insensitive.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type WorldInfoEntry } from '../../../shared/types/chat';
import { isRecord, setting, FILE_TO_CARD_EXTENSION, type EntryShape, type Raw } from '../lore/world-info-shapes';

export interface ParsedLorebook {
  name: string;
  /** The book's own fields (name, description, extensions…), without its entries: kept for export. */
  top: Raw;
  shape: EntryShape;
  entries: WorldInfoEntry[];
  /** Field names present in the entries that the Workbench keeps but does not act on. */
  ignored: string[];
}

/** SillyTavern's selectiveLogic numbers. */
export const LOGIC = ['and_any', 'not_all', 'not_any', 'and_all'] as const;
/** Fields the Workbench acts on, in either shape (the rest are kept and listed). */
const USED = new Set(['uid', 'id', 'key', 'keys', 'keysecondary', 'secondary_keys', 'content', 'constant', 'selective', 'selectiveLogic', 'order', 'insertion_order', 'disable', 'enabled', 'caseSensitive', 'case_sensitive', 'matchWholeWords', 'match_whole_words', 'scanDepth', 'scan_depth', 'extensions']);
/** Bookkeeping fields with nothing to act on (not listed as ignored). */
const QUIET = new Set(['comment', 'name', 'displayIndex', 'display_index', 'addMemo', 'use_regex']);

function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

function keywords(value: unknown, where: string): string[] {
  if (typeof value === 'string') value = value.split(',');
  if (!Array.isArray(value)) return [];
  const list = value.filter((k): k is string => typeof k === 'string' && k.trim() !== '').map((k) => k.trim());
  if (list.length > SESSION_LIMITS.keywords) refuse(`The entry has ${list.length} keywords; the limit is ${SESSION_LIMITS.keywords}.`, where, 'INPUT_TOO_LARGE');
  const long = list.find((k) => k.length > SESSION_LIMITS.keyword);
  if (long !== undefined) refuse(`A keyword is ${long.length} characters; the limit is ${SESSION_LIMITS.keyword}.`, where, 'INPUT_TOO_LARGE');
  return list;
}

/** The shape of one entry: a card book's uses `keys`/`enabled`/`insertion_order`, a file's `key`/`disable`/`order`. */
function shapeOf(raw: Raw, fallback: EntryShape): EntryShape {
  if ('keys' in raw || 'insertion_order' in raw || 'enabled' in raw || 'secondary_keys' in raw) return 'card';
  if ('key' in raw || 'uid' in raw || 'disable' in raw || 'keysecondary' in raw) return 'file';
  return fallback;
}

const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined);

/** One entry, as its shape has it. */
export function worldInfoEntry(raw: unknown, where: string, fallback: EntryShape = 'file'): WorldInfoEntry {
  if (!isRecord(raw)) refuse('A world-info entry must be an object.', where);
  const shape = shapeOf(raw, fallback);
  const content = raw.content ?? '';
  if (typeof content !== 'string') refuse('content must be text.', `${where}/content`);
  if (content.length > SESSION_LIMITS.text) refuse(`content is ${content.length} characters; the limit is ${SESSION_LIMITS.text}.`, `${where}/content`, 'INPUT_TOO_LARGE');
  const card = shape === 'card';
  const primary = keywords(card ? raw.keys : raw.key, `${where}/${card ? 'keys' : 'key'}`);
  const secondary = keywords(card ? raw.secondary_keys : raw.keysecondary, `${where}/${card ? 'secondary_keys' : 'keysecondary'}`);
  const logicNumber = setting(raw, shape, 'selectiveLogic') ?? (card ? raw.selectiveLogic : undefined);
  const logic = typeof logicNumber === 'number' ? LOGIC[logicNumber] : undefined;
  const selective = raw.selective === true || (raw.selective === undefined && secondary.length > 0);
  const caseSensitive = bool(setting(raw, shape, 'caseSensitive')) ?? (card ? bool(raw.case_sensitive) : undefined);
  const wholeWords = bool(setting(raw, shape, 'matchWholeWords'));
  const scanDepth = setting(raw, shape, 'scanDepth');
  const order = card ? raw.insertion_order : raw.order;
  return {
    id: randomUUID().slice(0, 12),
    keywords: primary,
    content,
    enabled: card ? raw.enabled !== false : raw.disable !== true,
    constant: raw.constant === true,
    ...(selective && secondary.length ? { secondaryKeywords: secondary, selectiveLogic: logic ?? 'and_any' } : {}),
    ...(caseSensitive !== undefined ? { caseSensitive } : {}),
    // Unset means SillyTavern's global setting, whose default is off.
    wholeWords: wholeWords ?? false,
    ...(typeof order === 'number' && Number.isFinite(order) ? { order } : {}),
    ...(typeof scanDepth === 'number' && Number.isInteger(scanDepth) && scanDepth >= 1 ? { scanDepth: Math.min(1000, scanDepth) } : {}),
    source: { shape, entry: raw },
  };
}

/** What an entry keeps but the Workbench does not act on (a card's settings under `extensions` by their file names). */
function ignoredFields(entry: WorldInfoEntry): string[] {
  const source = entry.source;
  if (!source) return Object.keys(entry.extra ?? {});
  const top = Object.keys(source.entry).filter((k) => !USED.has(k));
  if (source.shape === 'file') return top;
  const extensions = isRecord(source.entry.extensions) ? Object.keys(source.entry.extensions) : [];
  const byFileName = Object.fromEntries(Object.entries(FILE_TO_CARD_EXTENSION).map(([file, ext]) => [ext, file]));
  return [...top, ...extensions.map((k) => byFileName[k] ?? k).filter((k) => !USED.has(k))];
}

/** A lorebook document: `entries` as an object keyed by uid (SillyTavern's file) or an array (a card's book). */
export function parseLorebook(doc: unknown, where = '', shape: EntryShape = 'file'): ParsedLorebook {
  if (!isRecord(doc) || (!isRecord(doc.entries) && !Array.isArray(doc.entries))) refuse('A lorebook is an object with entries.', `${where}/entries`);
  const list = Array.isArray(doc.entries) ? doc.entries : Object.values(doc.entries);
  if (list.length > SESSION_LIMITS.worldInfoEntries) refuse(`The lorebook has ${list.length} entries; a session keeps at most ${SESSION_LIMITS.worldInfoEntries}.`, `${where}/entries`, 'INPUT_TOO_LARGE');
  const keys = Array.isArray(doc.entries) ? list.map((_, i) => String(i)) : Object.keys(doc.entries);
  const entries = list.map((raw, i) => worldInfoEntry(raw, `${where}/entries/${keys[i]}`, shape));
  const ignored = [...new Set(entries.flatMap(ignoredFields).filter((k) => !QUIET.has(k)))].sort();
  const { entries: _entries, ...top } = doc;
  return { name: typeof doc.name === 'string' ? doc.name : '', top, shape, entries, ignored };
}
