// What an extension hears of a host event: the chat's text only when it holds the permission that reading that
// text through the API needs (chat.* asks for chat_mutation, as in Lumiverse). Without it a message or generation
// event arrives with ids and counts, and a stream token not at all. One rule for backends and their frames.
import type { ExtensionPermission } from '../types/spindle';
import { mayChange, scriptDto, type RegexScript } from '../types/regex-script';

/** The permission that reading a chat's text needs, through the API or in an event. */
export const CHAT_TEXT_PERMISSION: ExtensionPermission = 'chat_mutation';

type Payload = Record<string, unknown>;

/** A message DTO without what was said: its ids, place, author and how many swipes it has. */
function messageWithoutText(message: unknown): unknown {
  if (!message || typeof message !== 'object') return message;
  const { content: _content, swipes, swipe_dates: _dates, metadata: _metadata, extra: _extra, ...rest } = message as Payload;
  return { ...rest, ...(Array.isArray(swipes) ? { swipe_count: swipes.length } : {}) };
}

const withoutMessageText = (payload: Payload): Payload => ({ ...payload, message: messageWithoutText(payload.message) });

function generationWithoutText(payload: Payload): Payload {
  const { content, ...rest } = payload;
  return { ...rest, ...(typeof content === 'string' ? { contentLength: content.length } : {}) };
}

/** Each event that carries chat text, and what it becomes without the permission (null: not sent). */
const TEXT_EVENTS: Record<string, (payload: Payload) => Payload | null> = {
  MESSAGE_SENT: withoutMessageText,
  MESSAGE_EDITED: withoutMessageText,
  MESSAGE_SWIPED: withoutMessageText,
  SWIPE_EDITED: withoutMessageText,
  GENERATION_ENDED: generationWithoutText,
  GENERATION_STOPPED: generationWithoutText,
  STREAM_TOKEN_RECEIVED: () => null,
  // Which keywords fired tells what the chat says.
  WORLD_INFO_ACTIVATED: () => null,
  // A tag a frontend took from a reply: its text (the extension whose frontend sent it hears it whatever it holds).
  MESSAGE_TAG_INTERCEPTED: () => null,
};

/** The events whose text needs CHAT_TEXT_PERMISSION (README's permission table lists them). */
export const CHAT_TEXT_EVENTS: readonly string[] = Object.keys(TEXT_EVENTS);
/** Of those, the ones not sent at all without it (the others come without their text). */
export const WITHHELD_EVENTS: readonly string[] = CHAT_TEXT_EVENTS.filter((event) => TEXT_EVENTS[event]!({}) === null);

/**
 * Regex script events go only to extensions granted `regex_scripts`, the script as that extension reads it through the
 * API: its can_mutate says whether this extension may change it (its own, or any with regex_scripts_unrestricted).
 */
const REGEX_EVENTS = new Set(['REGEX_SCRIPT_CHANGED', 'REGEX_SCRIPT_DELETED']);

function regexPayloadFor(payload: Payload, has: (p: ExtensionPermission) => boolean, receiver: string): Payload | null {
  if (!has('regex_scripts')) return null;
  const script = payload.script as RegexScript | undefined;
  const { owner: _owner, ...rest } = payload;
  return script ? { ...rest, script: scriptDto(script, mayChange(script, receiver, has('regex_scripts_unrestricted'))) } : rest;
}

/**
 * A character's, persona's or preset's fields go only to extensions that may read them through the API (characters,
 * personas, presets); the others hear which one changed.
 */
const RECORD_EVENTS: Record<string, ExtensionPermission> = { CHARACTER_CREATED: 'characters', CHARACTER_EDITED: 'characters', PERSONA_CHANGED: 'personas', PRESET_CHANGED: 'presets' };

/** A world book's or entry's body goes only to extensions that may read world books; the others hear the ids. */
const WORLD_BOOK_BODIES: Record<string, string> = { WORLD_BOOK_CHANGED: 'worldBook', WORLD_BOOK_ENTRY_CHANGED: 'entry' };

/**
 * A chat's record (its name and metadata) goes only to extensions that may read chats: in a branch (CHAT_FORKED) and
 * when it changed (CHAT_CHANGED, as Lumiverse sends it after an update). The others hear the ids.
 */
const CHAT_RECORD_EVENTS = new Set(['CHAT_FORKED', 'CHAT_CHANGED']);
function chatRecordPayloadFor(payload: Payload, has: (p: ExtensionPermission) => boolean): Payload {
  if (has('chats')) return payload;
  const { chat: _chat, ...ids } = payload;
  return ids;
}

/** The active persona's setting goes only to extensions that may read personas, as its page route does. */
const isPersonaSetting = (event: string, payload: unknown) => event === 'SETTINGS_UPDATED' && (payload as Payload | null)?.key === 'activePersonaId';

/** The payload extension `receiver`, holding `granted`, receives for `event`, or null when it receives nothing. */
export function eventPayloadFor(event: string, payload: unknown, granted: ReadonlySet<ExtensionPermission> | readonly ExtensionPermission[], receiver: string): unknown {
  const has = (p: ExtensionPermission) => (Array.isArray(granted) ? granted.includes(p) : (granted as ReadonlySet<ExtensionPermission>).has(p));
  if (isPersonaSetting(event, payload)) return has('personas') ? payload : null;
  if (REGEX_EVENTS.has(event)) return payload && typeof payload === 'object' ? regexPayloadFor(payload as Payload, has, receiver) : null;
  if (CHAT_RECORD_EVENTS.has(event)) return payload && typeof payload === 'object' ? chatRecordPayloadFor(payload as Payload, has) : null;
  if (Object.hasOwn(WORLD_BOOK_BODIES, event) && !has('world_books')) {
    if (!payload || typeof payload !== 'object') return null;
    const { [WORLD_BOOK_BODIES[event]!]: _body, ...ids } = payload as Payload;
    return ids;
  }
  const needs = Object.hasOwn(RECORD_EVENTS, event) ? RECORD_EVENTS[event]! : null;
  if (needs && !has(needs)) return payload && typeof payload === 'object' ? { id: (payload as Payload).id } : null;
  const redact = Object.hasOwn(TEXT_EVENTS, event) ? TEXT_EVENTS[event] : undefined;
  if (!redact) return payload;
  if (event === 'MESSAGE_TAG_INTERCEPTED' && (payload as Payload | null)?.extensionId === receiver) return payload;
  if (has(CHAT_TEXT_PERMISSION)) return payload;
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
  return redact(payload as Payload);
}
