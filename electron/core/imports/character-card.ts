// Character cards as people have them: JSON (V1 fields at the root, V2 `chara_card_v2`, V3 `chara_card_v3`) or a
// PNG whose `chara` / `ccv3` tEXt chunk holds the JSON as base64. The `spec` field decides the version, never the
// chunk name (SillyTavern writes V3 into `chara` too). Every field the Workbench does not use is kept for export.
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import { parseLorebook, type ParsedLorebook } from './lorebook';
import { pngTextChunks } from './png-text';

export interface ParsedCard {
  spec: 'v1' | 'chara_card_v2' | 'chara_card_v3';
  name: string;
  description: string;
  personality: string;
  scenario: string;
  /** first_mes, then the alternate greetings. */
  greetings: string[];
  /** The card's data object as it was (system_prompt, mes_example, creator_notes, tags, extensions…). */
  data: Record<string, unknown>;
  /** Its fields outside `data` as they were (create_date, avatar, the V1 copies…); a V1 card's are all of it. */
  top: Record<string, unknown>;
  book: ParsedLorebook | null;
}

/** Larger files are refused before parsing (PNG cards of several MB are common: the avatar is the image). */
export const CARD_LIMITS = { maxFileBytes: 64 * 1024 * 1024, maxJsonChars: 32 * 1024 * 1024 } as const;

function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(data: Record<string, unknown>, field: string, max: number, where: string): string {
  const value = data[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') refuse(`${field} must be text.`, `${where}/${field}`);
  if (value.length > max) refuse(`${field} is ${value.length} characters; the Workbench keeps at most ${max}.`, `${where}/${field}`, 'INPUT_TOO_LARGE');
  return value;
}

function parseBook(raw: unknown, where: string): ParsedCard['book'] {
  if (raw === undefined || raw === null) return null;
  if (!isRecord(raw)) refuse('character_book must be an object with an entries array.', where);
  return parseLorebook(raw, where, 'card');
}

/** A card from its parsed JSON. */
export function parseCardJson(doc: unknown): ParsedCard {
  if (Array.isArray(doc)) refuse(`This JSON is a list of ${doc.length} items, not a character card. Accepted here: a character card (PNG, or JSON with "spec" and "data", or V1 "name" and "description"), a SillyTavern or TavernAI chat, a Workbench session.`, '/');
  if (!isRecord(doc)) refuse('A character card is a JSON object.', '/');
  const spec = doc.spec;
  let data: Record<string, unknown>;
  let where: string;
  let version: ParsedCard['spec'];
  if (spec === 'chara_card_v2' || spec === 'chara_card_v3') {
    if (!isRecord(doc.data)) refuse(`A ${spec} card keeps its fields in "data".`, '/data');
    data = doc.data;
    where = '/data';
    version = spec;
  } else if (spec !== undefined) {
    refuse(`Unknown card spec ${JSON.stringify(String(spec).slice(0, 40))}; expected chara_card_v2 or chara_card_v3.`, '/spec');
  } else if (typeof doc.name === 'string' && ('description' in doc || 'first_mes' in doc || 'personality' in doc)) {
    data = doc;
    where = '';
    version = 'v1';
  } else {
    refuse('This JSON is not a character card (no spec, and no V1 name/description/first_mes).', '/spec');
  }
  const name = text(data, 'name', SESSION_LIMITS.name, where);
  if (!name.trim()) refuse('The card has no name.', `${where}/name`);
  const alternates = Array.isArray(data.alternate_greetings) ? data.alternate_greetings.filter((g): g is string => typeof g === 'string') : [];
  const greetings = [text(data, 'first_mes', SESSION_LIMITS.messageContent, where), ...alternates].filter((g) => g.trim() !== '');
  return {
    spec: version,
    name,
    description: text(data, 'description', SESSION_LIMITS.text, where),
    personality: text(data, 'personality', SESSION_LIMITS.text, where),
    scenario: text(data, 'scenario', SESSION_LIMITS.text, where),
    greetings,
    data,
    top: version === 'v1' ? doc : Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'data')),
    book: parseBook(data.character_book, `${where}/character_book`),
  };
}

function decodeBase64Json(value: string, chunk: string): unknown {
  const trimmed = value.trim();
  if (!/^[A-Za-z0-9+/=\s_-]+$/.test(trimmed)) refuse(`The ${chunk} chunk is not base64.`, `/png/${chunk}`);
  const json = Buffer.from(trimmed, 'base64').toString('utf8');
  if (json.length > CARD_LIMITS.maxJsonChars) refuse(`The ${chunk} chunk holds ${json.length} characters of JSON; the limit is ${CARD_LIMITS.maxJsonChars}.`, `/png/${chunk}`, 'INPUT_TOO_LARGE');
  try {
    return JSON.parse(json);
  } catch {
    return refuse(`The ${chunk} chunk is not base64 of JSON.`, `/png/${chunk}`);
  }
}

/** A card from a file's bytes: PNG (prefers the `ccv3` chunk, then `chara`) or JSON. */
export function parseCardFile(bytes: Buffer): ParsedCard {
  if (bytes.length > CARD_LIMITS.maxFileBytes) refuse(`The file is ${bytes.length} bytes; cards are read up to ${CARD_LIMITS.maxFileBytes}.`, '/file', 'INPUT_TOO_LARGE');
  if (bytes[0] === 0x89) {
    const chunks = pngTextChunks(bytes);
    const chosen = chunks.has('ccv3') ? 'ccv3' : chunks.has('chara') ? 'chara' : null;
    if (!chosen) refuse('This PNG has no character card in it (no chara or ccv3 text chunk).', '/png');
    return parseCardJson(decodeBase64Json(chunks.get(chosen)!, chosen));
  }
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    refuse(`The file is neither a PNG nor JSON (${(err as Error).message}).`, '/file');
  }
  return parseCardJson(doc);
}
