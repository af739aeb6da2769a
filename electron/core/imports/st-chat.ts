// SillyTavern chats (.jsonl): a header line (`user_name`, `character_name`, `create_date`), then one line per
// message (`name`, `is_user`, `send_date`, `mes`, `swipes`…: st-chat-message.ts); and TavernAI's, the same objects in
// one JSON array. Read into a session's messages, and written back as SillyTavern's.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type ChatMessage, type ChatSession } from '../../../shared/types/chat';
import { messageFromSt, noLosses, stLineOf, type LineLosses } from './st-chat-message';
import { isRecord } from '../lore/world-info-shapes';

/**
 * Where what a SillyTavern chat's header kept beyond its names is kept on the chat, for export: the header's other
 * fields (its create_date…) and its chat_metadata but the variables (its author's note, scenario override…).
 */
export const ST_CHAT = 'sillytavern_chat';

export interface ParsedStChat {
  userName: string;
  characterName: string;
  messages: ChatMessage[];
  /** The chat's metadata: SillyTavern's chat_metadata.variables as its chat variables, the header's rest kept for export. */
  metadata?: Record<string, unknown>;
  /** What did not come in whole, said in the import's notes. */
  notes: string[];
}


function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

/** The header's chat_metadata.variables (what {{getvar}} reads in SillyTavern) as the chat's variables; the rest kept. */
function metadataOf(header: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const { user_name: _user, character_name: _character, chat_metadata: chatMetadata, ...others } = header;
  const metadata: Record<string, unknown> = {};
  let rest: Record<string, unknown> | undefined;
  if (isRecord(chatMetadata)) {
    const { variables, ...kept } = chatMetadata;
    // Variables that are not a record are not variables here: kept as they came.
    if (isRecord(variables)) metadata.chat_variables = variables;
    rest = isRecord(variables) ? kept : chatMetadata;
  }
  if (Object.keys(others).length || rest) metadata[ST_CHAT] = { header: others, ...(rest ? { chat_metadata: rest } : {}) };
  if (JSON.stringify(metadata).length > SESSION_LIMITS.chatMetadata) {
    notes.push(`The chat's header (chat_metadata…) is over ${SESSION_LIMITS.chatMetadata} characters as JSON and was left out.`);
    return undefined;
  }
  return Object.keys(metadata).length ? metadata : undefined;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function notesOf(losses: LineLosses): string[] {
  const notes: string[] = [];
  if (losses.swipes) notes.push(`${plural(losses.swipes, 'swipe', 'swipes')} past ${SESSION_LIMITS.swipes} on a message ${losses.swipes === 1 ? 'was' : 'were'} left out (the shown one is kept).`);
  if (losses.sources) notes.push(`${plural(losses.sources, 'message or swipe', 'messages or swipes')} kept more than ${SESSION_LIMITS.source} characters of other fields (extra…); those fields were left out.`);
  if (losses.reasoning) notes.push(`${plural(losses.reasoning, 'reply’s reasoning was', 'replies’ reasoning was')} cut at ${SESSION_LIMITS.messageContent} characters.`);
  if (losses.unmatched) notes.push(`${plural(losses.unmatched, 'message shows', 'messages show')} a text that is none of its swipes: it was kept as one more swipe, the one shown.`);
  return notes;
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

const isHeader = (v: unknown) => isRecord(v) && ('user_name' in v || 'character_name' in v) && !('mes' in v);

/** A chat's items (a header first when it has one, then one per message), each named by `where(i)` in errors. */
function fromItems(items: unknown[], now: number, where: (i: number) => string): ParsedStChat {
  const header = isHeader(items[0]) ? (items[0] as Record<string, unknown>) : {};
  const lines = isHeader(items[0]) ? items.slice(1) : items;
  const first = items.length - lines.length;
  if (lines.length > SESSION_LIMITS.messages) refuse(`The chat has ${lines.length} messages; a session keeps at most ${SESSION_LIMITS.messages}.`, '/file', 'INPUT_TOO_LARGE');
  lines.forEach((m, i) => {
    const at = where(i + first);
    const path = `/lines/${i + first}`;
    if (!isRecord(m)) refuse(`${at} is not a JSON object.`, path);
    if (typeof m.mes !== 'string') refuse(`${at} has no "mes" text.`, `${path}/mes`);
    if (m.mes.length > SESSION_LIMITS.messageContent) refuse(`${at} is too long.`, `${path}/mes`, 'INPUT_TOO_LARGE');
  });
  const checked = lines as Array<Record<string, unknown> & { mes: string }>;
  // Without a header (some TavernAI files), the names come from the messages.
  const named = (user: boolean) => checked.find((m) => (m.is_user === true) === user && typeof m.name === 'string')?.name as string | undefined;
  const userName = (typeof header.user_name === 'string' ? header.user_name : (named(true) ?? 'User')).slice(0, SESSION_LIMITS.name);
  const characterName = (typeof header.character_name === 'string' ? header.character_name : (named(false) ?? 'Assistant')).slice(0, SESSION_LIMITS.name);
  const losses = noLosses();
  const messages = checked.map((m) => messageFromSt(m, m.is_user === true ? userName : characterName, now, losses, randomUUID()));
  const notes = notesOf(losses);
  const metadata = metadataOf(header, notes);
  return { userName, characterName, messages, ...(metadata ? { metadata } : {}), notes };
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

/** A session as a SillyTavern chat file: its header and lines as they came, with what the Workbench changed. */
export function toStChat(session: ChatSession): string {
  const user = session.persona.name || 'User';
  const character = session.character.name || 'Assistant';
  const meta = session.metadata ?? {};
  const kept = isRecord(meta[ST_CHAT]) ? meta[ST_CHAT] : {};
  const header = isRecord(kept.header) ? kept.header : {};
  const chatMetadata = { ...(isRecord(kept.chat_metadata) ? kept.chat_metadata : {}), ...(isRecord(meta.chat_variables) ? { variables: meta.chat_variables } : {}) };
  const lines = [JSON.stringify({ ...header, user_name: user, character_name: character, create_date: header.create_date ?? session.createdAt, chat_metadata: chatMetadata })];
  for (const m of session.messages) lines.push(JSON.stringify(stLineOf(m, m.role === 'user' ? user : character)));
  return `${lines.join('\n')}\n`;
}
