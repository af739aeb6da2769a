// SillyTavern world info (a lorebook file, or a card's character_book) → session world-info entries. Both field
// sets are read: the file's (`key`, `keysecondary`, `disable`, `order`, `selectiveLogic` 0–3, `matchWholeWords`…)
// and the card spec's (`keys`, `secondary_keys`, `enabled`, `insertion_order`, `case_sensitive`…). What the
// Workbench does not act on is kept in `extra` and listed, never dropped.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type WorldInfoEntry } from '../../../shared/types/chat';

export interface ParsedLorebook {
  name: string;
  entries: WorldInfoEntry[];
  /** Field names present in the entries that the Workbench keeps but does not act on. */
  ignored: string[];
}

/** SillyTavern's selectiveLogic numbers. */
const LOGIC = ['and_any', 'not_all', 'not_any', 'and_all'] as const;
/** Fields read into the entry; everything else goes to `extra`. */
const USED = new Set(['uid', 'id', 'key', 'keys', 'keysecondary', 'secondary_keys', 'content', 'constant', 'selective', 'selectiveLogic', 'order', 'insertion_order', 'disable', 'enabled', 'caseSensitive', 'case_sensitive', 'matchWholeWords', 'scanDepth']);
/** Bookkeeping fields with nothing to act on (not listed as ignored). */
const QUIET = new Set(['comment', 'name', 'displayIndex']);

function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function keywords(value: unknown): string[] {
  if (typeof value === 'string') value = value.split(',');
  if (!Array.isArray(value)) return [];
  return value
    .filter((k): k is string => typeof k === 'string' && k.trim() !== '')
    .map((k) => k.trim().slice(0, SESSION_LIMITS.keyword))
    .slice(0, SESSION_LIMITS.keywords);
}

/** One entry in either field set. */
export function worldInfoEntry(raw: unknown, where: string): WorldInfoEntry {
  if (!isRecord(raw)) refuse('A world-info entry must be an object.', where);
  const content = raw.content ?? '';
  if (typeof content !== 'string') refuse('content must be text.', `${where}/content`);
  if (content.length > SESSION_LIMITS.text) refuse(`content is ${content.length} characters; the limit is ${SESSION_LIMITS.text}.`, `${where}/content`, 'INPUT_TOO_LARGE');
  const secondary = keywords(raw.keysecondary ?? raw.secondary_keys);
  const logic = typeof raw.selectiveLogic === 'number' ? LOGIC[raw.selectiveLogic] : undefined;
  const selective = raw.selective === true || (raw.selective === undefined && secondary.length > 0);
  const caseSensitive = raw.caseSensitive ?? raw.case_sensitive;
  const order = raw.order ?? raw.insertion_order;
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!USED.has(key)) extra[key] = value;
  return {
    id: randomUUID().slice(0, 12),
    keywords: keywords(raw.key ?? raw.keys),
    content,
    enabled: raw.disable !== true && raw.enabled !== false,
    constant: raw.constant === true,
    ...(selective && secondary.length ? { secondaryKeywords: secondary, selectiveLogic: logic ?? 'and_any' } : {}),
    ...(typeof caseSensitive === 'boolean' ? { caseSensitive } : {}),
    ...(typeof raw.matchWholeWords === 'boolean' ? { wholeWords: raw.matchWholeWords } : {}),
    ...(typeof order === 'number' && Number.isFinite(order) ? { order } : {}),
    ...(typeof raw.scanDepth === 'number' && Number.isInteger(raw.scanDepth) && raw.scanDepth >= 1 ? { scanDepth: Math.min(1000, raw.scanDepth) } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** A lorebook document: `entries` as an object keyed by number (SillyTavern's file) or an array (a card's book). */
export function parseLorebook(doc: unknown, where = ''): ParsedLorebook {
  if (!isRecord(doc) || (!isRecord(doc.entries) && !Array.isArray(doc.entries))) refuse('A lorebook is an object with entries.', `${where}/entries`);
  const list = Array.isArray(doc.entries) ? doc.entries : Object.values(doc.entries);
  if (list.length > SESSION_LIMITS.worldInfoEntries) refuse(`The lorebook has ${list.length} entries; a session keeps at most ${SESSION_LIMITS.worldInfoEntries}.`, `${where}/entries`, 'INPUT_TOO_LARGE');
  const keys = Array.isArray(doc.entries) ? list.map((_, i) => String(i)) : Object.keys(doc.entries);
  const entries = list.map((raw, i) => worldInfoEntry(raw, `${where}/entries/${keys[i]}`));
  const ignored = [...new Set(entries.flatMap((e) => Object.keys(e.extra ?? {})).filter((k) => !QUIET.has(k)))].sort();
  return { name: typeof doc.name === 'string' ? doc.name : '', entries, ignored };
}
