// SillyTavern chats (.jsonl): a header line (`user_name`, `character_name`, `create_date`), then one line per
// message (`name`, `is_user`, `send_date`, `mes`, `swipes`); and TavernAI's, the same objects in one JSON array.
// Read into a session's messages, and written back as SillyTavern's.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type ChatMessage, type ChatSession } from '../../../shared/types/chat';

export interface ParsedStChat {
  userName: string;
  characterName: string;
  messages: ChatMessage[];
}

function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

/** SillyTavern writes send_date as epoch ms or as a date string ("January 24, 2023 9:38pm"). */
function time(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const parsed = typeof value === 'string' ? Date.parse(value.replace(/(\d)(am|pm)$/i, '$1 $2')) : NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

export function isStChat(text: string): boolean {
  const first = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  try {
    const header = JSON.parse(first) as Record<string, unknown>;
    return typeof header === 'object' && header !== null && ('user_name' in header || 'character_name' in header);
  } catch {
    return false;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isHeader = (v: unknown) => isRecord(v) && ('user_name' in v || 'character_name' in v) && !('mes' in v);

/** A chat's items (a header first when it has one, then one per message), each named by `where(i)` in errors. */
function fromItems(items: unknown[], now: number, where: (i: number) => string): ParsedStChat {
  const header = isHeader(items[0]) ? (items[0] as Record<string, unknown>) : {};
  const lines = isHeader(items[0]) ? items.slice(1) : items;
  const first = items.length - lines.length;
  if (lines.length > SESSION_LIMITS.messages) refuse(`The chat has ${lines.length} messages; a session keeps at most ${SESSION_LIMITS.messages}.`, '/file', 'INPUT_TOO_LARGE');
  const messages = lines.map((m, i): ChatMessage => {
    const at = where(i + first);
    if (!isRecord(m)) refuse(`${at} is not a JSON object.`, `/lines/${i + first}`);
    if (typeof m.mes !== 'string') refuse(`${at} has no "mes" text.`, `/lines/${i + first}/mes`);
    if (m.mes.length > SESSION_LIMITS.messageContent) refuse(`${at} is too long.`, `/lines/${i + first}/mes`, 'INPUT_TOO_LARGE');
    return { id: randomUUID(), role: m.is_user === true ? 'user' : 'assistant', content: m.mes, createdAt: time(m.send_date, now) };
  });
  // Without a header (some TavernAI files), the names come from the messages.
  const named = (user: boolean) => lines.find((m): m is Record<string, unknown> => isRecord(m) && (m.is_user === true) === user && typeof m.name === 'string')?.name as string | undefined;
  const userName = typeof header.user_name === 'string' ? header.user_name : (named(true) ?? 'User');
  const characterName = typeof header.character_name === 'string' ? header.character_name : (named(false) ?? 'Assistant');
  return { userName: userName.slice(0, SESSION_LIMITS.name), characterName: characterName.slice(0, SESSION_LIMITS.name), messages };
}

export function parseStChat(text: string, now: number): ParsedStChat {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) refuse('The chat file is empty.', '/file');
  const items = lines.map((line, i): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      return refuse(`Line ${i + 1} is not a JSON object.`, `/lines/${i}`);
    }
  });
  return fromItems(items, now, (i) => `Line ${i + 1}`);
}

/** TavernAI kept a chat as one JSON array of the same objects (a header first, or messages only). */
export function isChatArray(doc: unknown): doc is unknown[] {
  return Array.isArray(doc) && doc.length > 0 && doc.some((item) => isRecord(item) && typeof item.mes === 'string') && doc.every((item) => isRecord(item) && ('mes' in item || isHeader(item)));
}

export function parseChatArray(doc: unknown[], now: number): ParsedStChat {
  return fromItems(doc, now, (i) => `Item ${i}`);
}

/** A session as a SillyTavern chat file. */
export function toStChat(session: ChatSession): string {
  const user = session.persona.name || 'User';
  const character = session.character.name || 'Assistant';
  const lines = [JSON.stringify({ user_name: user, character_name: character, create_date: session.createdAt, chat_metadata: {} })];
  for (const m of session.messages) {
    lines.push(JSON.stringify({ name: m.role === 'user' ? user : character, is_user: m.role === 'user', is_system: false, send_date: m.createdAt, mes: m.content, extra: {} }));
  }
  return `${lines.join('\n')}\n`;
}
