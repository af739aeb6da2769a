// The chat data namespaces (chat, chats, characters, personas, world_books) over the Workbench's sessions, in
// Lumiverse's shapes and with its permissions. A session is a chat with one character (same id) and the user's
// persona; its world info is one world book. Without a session (or the host's chat), they answer as Lumiverse
// does between chats: nothing active, empty lists.
import type { ResolvedMacros } from '../../../../shared/spindle/macros';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { messageDto, type MessageOwner, type MessageView } from './message-dto';
import { fail, text, unknownMethod, type NamespaceHandler } from './namespace';

export interface ChatView {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  character: { name: string; description: string; personality: string; scenario: string };
  persona: { name: string; description: string };
  worldInfo: Array<{ id: string; keywords: string[]; content: string; enabled: boolean }>;
  messages: MessageView[];
  /** The imported character card's data, as it was (first_mes, mes_example, tags, extensions…). */
  card?: Record<string, unknown>;
}

/** What the host lends: its sessions (and, during a council run, the chat it runs for). */
export interface ChatReads {
  activeId(): string | null;
  get(id: string): ChatView | null;
  list(): ChatView[];
  /** chat_mutation: adds a message to the session, shown live in the Workbench. */
  append(id: string, message: { role: 'user' | 'assistant' | 'system'; content: string }): { id: string };
  /** spindle.macros.resolve: the turn's macro engine over a session (the chat's, the character's, else the active one). */
  resolveMacros(text: string, options: { chatId?: string; characterId?: string; commit?: boolean }): Promise<ResolvedMacros>;
}

/** Lumiverse's permission per namespace (chat.* — reads included — needs chat_mutation there too). */
const PERMISSIONS: Record<string, ExtensionPermission> = {
  chat: 'chat_mutation',
  chats: 'chats',
  characters: 'characters',
  personas: 'personas',
  world_books: 'world_books',
};

const seconds = (ms: number) => Math.floor(ms / 1000);

const chatDto = (c: ChatView) => ({ id: c.id, character_id: c.id, name: c.name, metadata: {}, created_at: seconds(c.createdAt), updated_at: seconds(c.updatedAt) });

const cardText = (c: ChatView, field: string): string => (typeof c.card?.[field] === 'string' ? c.card[field] : '');
const cardStrings = (c: ChatView, field: string): string[] => {
  const value = c.card?.[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

const characterDto = (c: ChatView) => ({
  id: c.id,
  name: c.character.name,
  description: c.character.description,
  personality: c.character.personality,
  scenario: c.character.scenario,
  first_mes: cardText(c, 'first_mes'),
  mes_example: cardText(c, 'mes_example'),
  creator_notes: cardText(c, 'creator_notes'),
  system_prompt: cardText(c, 'system_prompt'),
  post_history_instructions: cardText(c, 'post_history_instructions'),
  tags: cardStrings(c, 'tags'),
  alternate_greetings: cardStrings(c, 'alternate_greetings'),
  creator: cardText(c, 'creator'),
  image_id: null,
  world_book_ids: c.worldInfo.length ? [c.id] : [],
  extensions: typeof c.card?.extensions === 'object' && c.card.extensions !== null && !Array.isArray(c.card.extensions) ? c.card.extensions : {},
  created_at: seconds(c.createdAt),
  updated_at: seconds(c.updatedAt),
});

const personaDto = (c: ChatView) => ({ id: `persona-${c.id}`, name: c.persona.name, description: c.persona.description, is_default: true });

const ownerOf = (c: ChatView): MessageOwner => ({ chatId: c.id, userName: c.persona.name, characterName: c.character.name });

const entryDto = (c: ChatView, e: ChatView['worldInfo'][number]) => ({ id: e.id, world_book_id: c.id, key: e.keywords, content: e.content, disabled: !e.enabled });
const bookDto = (c: ChatView) => ({ id: c.id, name: `${c.character.name || c.name} — world info`, description: '', created_at: seconds(c.createdAt), updated_at: seconds(c.updatedAt) });

function page<T>(items: T[], options: unknown): { data: T[]; total: number } {
  const o = (typeof options === 'object' && options !== null ? options : {}) as { limit?: unknown; offset?: unknown };
  const offset = typeof o.offset === 'number' && o.offset > 0 ? Math.floor(o.offset) : 0;
  const limit = typeof o.limit === 'number' && o.limit > 0 ? Math.floor(o.limit) : items.length;
  return { data: items.slice(offset, offset + limit), total: items.length };
}

type Methods = Record<string, (reads: ChatReads | null, args: unknown[]) => unknown>;

const find = (reads: ChatReads | null, id: unknown, name = 'chatId') => (reads ? reads.get(text(id, name, 128)) : null);
const active = (reads: ChatReads | null) => {
  const id = reads?.activeId();
  return id ? (reads!.get(id) ?? null) : null;
};

const METHODS: Record<string, Methods> = {
  chats: {
    getActive: (r) => {
      const c = active(r);
      return c ? chatDto(c) : null;
    },
    get: (r, [id]) => {
      const c = find(r, id);
      return c ? chatDto(c) : null;
    },
    list: (r, [options]) => page((r?.list() ?? []).map(chatDto), options),
    getMemories: () => [],
  },
  chat: {
    getMessages: (r, [id]) => {
      const c = find(r, id);
      if (!c) fail('NOT_FOUND', `No chat ${String(id)}.`, '/chatId');
      return c.messages.map((m, i) => messageDto(ownerOf(c), m, i));
    },
    appendMessage: (r, [id, message]) => {
      const c = find(r, id);
      if (!c) fail('NOT_FOUND', `No chat ${String(id)}.`, '/chatId');
      const m = (typeof message === 'object' && message !== null ? message : {}) as { role?: unknown; content?: unknown };
      if (!['user', 'assistant', 'system'].includes(m.role as string)) fail('INVALID_INPUT', 'role is system, user or assistant.', '/message/role');
      if (typeof m.content !== 'string') fail('INVALID_INPUT', 'content is a string.', '/message/content');
      return r!.append(c.id, { role: m.role as 'user' | 'assistant' | 'system', content: m.content });
    },
    isMessageHidden: () => false,
  },
  characters: {
    get: (r, [id]) => {
      const c = find(r, id, 'characterId');
      return c ? characterDto(c) : null;
    },
    list: (r, [options]) => page((r?.list() ?? []).map(characterDto), options),
  },
  personas: {
    getActive: (r) => {
      const c = active(r);
      return c ? personaDto(c) : null;
    },
    getDefault: (r) => {
      const c = active(r);
      return c ? personaDto(c) : null;
    },
    get: (r, [id]) => {
      const c = (r?.list() ?? []).find((v) => `persona-${v.id}` === id);
      return c ? personaDto(c) : null;
    },
    list: (r, [options]) => page((r?.list() ?? []).map(personaDto), options),
    getWorldBook: () => null,
  },
  world_books: {
    list: (r, [options]) => page((r?.list() ?? []).filter((c) => c.worldInfo.length).map(bookDto), options),
    get: (r, [id]) => {
      const c = find(r, id, 'worldBookId');
      return c && c.worldInfo.length ? bookDto(c) : null;
    },
    'entries.list': (r, [id, options]) => {
      const c = find(r, id, 'worldBookId');
      return page(c ? c.worldInfo.map((e) => entryDto(c, e)) : [], options);
    },
    'entries.get': (r, [id]) => {
      for (const c of r?.list() ?? []) {
        const e = c.worldInfo.find((w) => w.id === id);
        if (e) return entryDto(c, e);
      }
      return null;
    },
    getActivated: () => [],
    getGlobal: () => [],
  },
};

export function chatDataNamespace(namespace: keyof typeof PERMISSIONS, reads: () => ChatReads | null = () => null): NamespaceHandler {
  return {
    permission: () => PERMISSIONS[namespace],
    handle(_caller, method, args) {
      const run = METHODS[namespace]?.[method];
      if (!run) return unknownMethod(namespace, method);
      return run(reads(), args);
    },
  };
}

export const CHAT_DATA_NAMESPACES = Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>;

/** spindle.macros.resolve(template, { chatId?, characterId?, userId?, commit? }): no permission, as in Lumiverse. */
export function macrosNamespace(reads: () => ChatReads | null): NamespaceHandler {
  return {
    handle(_caller, method, args) {
      if (method !== 'resolve') return unknownMethod('macros', method);
      const template = typeof args[0] === 'string' ? args[0] : fail('INVALID_INPUT', 'spindle.macros.resolve takes the text to resolve.', '/template');
      if (template.length > 2_000_000) fail('INPUT_TOO_LARGE', 'spindle.macros.resolve takes at most 2,000,000 characters.', '/template');
      const raw = (typeof args[1] === 'object' && args[1] !== null ? args[1] : {}) as Record<string, unknown>;
      const chats = reads();
      if (!chats) return { text: template, diagnostics: [{ message: 'No chat is available to resolve macros against.', offset: 0, length: 0 }] };
      return chats.resolveMacros(template, {
        ...(typeof raw.chatId === 'string' ? { chatId: raw.chatId } : {}),
        ...(typeof raw.characterId === 'string' ? { characterId: raw.characterId } : {}),
        ...(typeof raw.commit === 'boolean' ? { commit: raw.commit } : {}),
      });
    },
  };
}
