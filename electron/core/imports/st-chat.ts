// SillyTavern chats (.jsonl): a header line (`user_name`, `character_name`, `create_date`), then one line per
// message (`name`, `is_user`, `send_date`, `mes`, `swipes`…: st-chat-message.ts); and TavernAI's, the same objects in
// one JSON array. Read into a session's messages, and written back as SillyTavern's.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import { SESSION_LIMITS, type ChatMessage, type ChatSession } from '../../../shared/types/chat';
import { messageFromSt, stLineOf, type LineLosses } from './st-chat-message';

/** Where the rest of SillyTavern's chat_metadata (its author's note, scenario override…) is kept on the chat, for export. */
export const ST_CHAT_METADATA = 'sillytavern_chat_metadata';

export interface ParsedStChat {
  userName: string;
  characterName: string;
  messages: ChatMessage[];
  /** The chat's metadata: SillyTavern's chat_metadata.variables as its chat variables, the rest kept for export. */
  metadata?: Record<string, unknown>;
  /** What did not come in, said in the import's notes. */
  notes: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function refuse(message: string, path: string, code = 'INVALID_INPUT'): never {
  throw new HostFailure({ code, message, path });
}

/** The header's chat_metadata: `variables` (what {{getvar}} reads in SillyTavern) are the chat's variables here. */
function metadataOf(header: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const chatMetadata = header.chat_metadata;
  if (!isRecord(chatMetadata)) return undefined;
  const { variables, ...rest } = chatMetadata;
  const metadata: Record<string, unknown> = {};
  if (isRecord(variables) && Object.keys(variables).length) metadata.chat_variables = variables;
  if (Object.keys(rest).length) metadata[ST_CHAT_METADATA] = rest;
  if (JSON.stringify(metadata).length > SESSION_LIMITS.chatMetadata) {
    notes.push(`The chat's metadata (chat_metadata) is over ${SESSION_LIMITS.chatMetadata} characters as JSON and was left out.`);
    return undefined;
  }
  return Object.keys(metadata).length ? metadata : undefined;
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
  const losses: LineLosses = { swipes: 0, sources: 0 };
  const messages = lines.map((m, i) => messageFromSt(m, where(i + first), `/lines/${i + first}`, now, losses, randomUUID));
  const notes: string[] = [];
  if (losses.swipes) notes.push(`${losses.swipes} swipe${losses.swipes === 1 ? '' : 's'} past ${SESSION_LIMITS.swipes} on a message ${losses.swipes === 1 ? 'was' : 'were'} left out (the shown one is kept).`);
  if (losses.sources) notes.push(`${losses.sources} message${losses.sources === 1 ? '' : 's'} kept more than ${SESSION_LIMITS.source} characters of other fields (extra…); those fields were left out.`);
  const metadata = metadataOf(header, notes);
  // Without a header (some TavernAI files), the names come from the messages.
  const named = (user: boolean) => lines.find((m): m is Record<string, unknown> => isRecord(m) && (m.is_user === true) === user && typeof m.name === 'string')?.name as string | undefined;
  const userName = typeof header.user_name === 'string' ? header.user_name : (named(true) ?? 'User');
  const characterName = typeof header.character_name === 'string' ? header.character_name : (named(false) ?? 'Assistant');
  return { userName: userName.slice(0, SESSION_LIMITS.name), characterName: characterName.slice(0, SESSION_LIMITS.name), messages, ...(metadata ? { metadata } : {}), notes };
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

/** A session as a SillyTavern chat file: its messages' swipes, reasoning and imported fields as they came. */
export function toStChat(session: ChatSession): string {
  const names = { user: session.persona.name || 'User', character: session.character.name || 'Assistant' };
  const meta = session.metadata ?? {};
  const kept = isRecord(meta[ST_CHAT_METADATA]) ? meta[ST_CHAT_METADATA] : {};
  const chatMetadata = { ...kept, ...(isRecord(meta.chat_variables) ? { variables: meta.chat_variables } : {}) };
  const lines = [JSON.stringify({ user_name: names.user, character_name: names.character, create_date: session.createdAt, chat_metadata: chatMetadata })];
  for (const m of session.messages) lines.push(JSON.stringify(stLineOf(m, names)));
  return `${lines.join('\n')}\n`;
}
