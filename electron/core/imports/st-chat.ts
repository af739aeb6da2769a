// SillyTavern chats (.jsonl): a header line (`user_name`, `character_name`, `create_date`), then one line per
// message (`name`, `is_user`, `send_date`, `mes`, `swipes`). Read into a session's messages, and written back.
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

export function parseStChat(text: string, now: number): ParsedStChat {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) refuse('The chat file is empty.', '/file');
  if (lines.length - 1 > SESSION_LIMITS.messages) refuse(`The chat has ${lines.length - 1} messages; a session keeps at most ${SESSION_LIMITS.messages}.`, '/file', 'INPUT_TOO_LARGE');
  const parse = (line: string, i: number): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    return refuse(`Line ${i + 1} is not a JSON object.`, `/lines/${i}`);
  };
  const header = parse(lines[0]!, 0);
  const messages = lines.slice(1).map((line, i): ChatMessage => {
    const m = parse(line, i + 1);
    if (typeof m.mes !== 'string') refuse(`Line ${i + 2} has no "mes" text.`, `/lines/${i + 1}/mes`);
    if (m.mes.length > SESSION_LIMITS.messageContent) refuse(`Line ${i + 2} is too long.`, `/lines/${i + 1}/mes`, 'INPUT_TOO_LARGE');
    return { id: randomUUID(), role: m.is_user === true ? 'user' : 'assistant', content: m.mes, createdAt: time(m.send_date, now) };
  });
  return {
    userName: typeof header.user_name === 'string' ? header.user_name.slice(0, SESSION_LIMITS.name) : 'User',
    characterName: typeof header.character_name === 'string' ? header.character_name.slice(0, SESSION_LIMITS.name) : 'Assistant',
    messages,
  };
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
