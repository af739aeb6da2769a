// spindle.variables (local, global, chat): string values by key, per extension, in its data folder; a Workbench
// session's `chat` variables are the session's own (metadata.chat_variables), shared as in Lumiverse with every
// extension and the {{getchatvar}} macros.
//
// `local` and `chat` are kept per chat id, `global` once; each value at most 1 M characters and the whole
// document 8 MB. Keys are 1–256 characters.
import path from 'node:path';
import { JsonDocument } from './json-document';
import { fail, type Caller, type HandlersOf } from './handlers';
import type { ChatReads, ChatView } from './chat-data';
import { withinMetadataCap } from './lumiverse-dto';
import { variablesAsText } from '../../../../shared/spindle/macros';
import { SESSION_LIMITS } from '../../../../shared/types/chat';

type Scope = Record<string, string>;
interface Variables {
  global: Scope;
  local: Record<string, Scope>;
  chat: Record<string, Scope>;
}

/** A local or global value, and an extension's document of them; a chat's own are bounded by its metadata's cap. */
export const VARIABLE_LIMITS = { maxValueChars: 1024 * 1024, maxDocumentBytes: 8 * 1024 * 1024 };

const own = (record: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** A key or chat id (1–256 characters: requests.ts), never a name that reaches an object's prototype. */
function keyOf(key: string, name: string): string {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') fail('INVALID_INPUT', `${name} cannot be "${key}".`, `/${name}`);
  return key;
}

type ScopeName = 'global' | 'local' | 'chat';

/**
 * A Workbench session's chat variables, where Lumiverse keeps them (metadata.chat_variables), shared by every extension
 * and the {{getchatvar}} macros; null for a chat that is not a session.
 */
export interface SessionVariables {
  read(chatId: string): Scope | null;
  write(chatId: string, values: Scope): void;
}

/** The sessions' chat variables over the host's chats (none without them). */
export function sessionVariables(chats: () => ChatReads | null): SessionVariables {
  const head = (chatId: string) => {
    const reads = chats();
    return reads?.saved(chatId) ? { reads, chat: reads.head(chatId) } : null;
  };
  const stored = (chat: ChatView): Record<string, unknown> => {
    const values = chat.metadata?.chat_variables;
    return values && typeof values === 'object' && !Array.isArray(values) ? (values as Record<string, unknown>) : {};
  };
  return {
    read(chatId) {
      const found = head(chatId);
      return found?.chat ? variablesAsText(stored(found.chat)) : null;
    },
    write(chatId, values) {
      const found = head(chatId);
      if (!found?.chat) fail('NOT_FOUND', `No Workbench session ${chatId}.`, '/chatId');
      // Only what changed in the text view is written: a number left alone stays a number, and a value the view does
      // not show (a list, a record a SillyTavern chat kept) stays as it was.
      const raw = stored(found.chat);
      const view = variablesAsText(raw);
      const next: Record<string, unknown> = { ...raw };
      for (const [key, value] of Object.entries(values)) if (view[key] !== value) next[key] = value;
      for (const key of Object.keys(view)) if (!Object.hasOwn(values, key)) delete next[key];
      const metadata = { ...(found.chat.metadata ?? {}), chat_variables: next };
      withinMetadataCap(metadata, "A chat's metadata (its variables included) is", '/value', SESSION_LIMITS.chatMetadata);
      found.reads.updateChat(chatId, { metadata });
    },
  };
}

export class ExtensionVariables {
  private readonly documents = new Map<string, JsonDocument<Variables>>();

  constructor(
    private readonly dataRoot: string,
    private readonly sessions: SessionVariables | null = null,
  ) {}

  /** The handlers of spindle.variables.global, .local and .chat. */
  handlers(): HandlersOf<'variables'> {
    const scoped = (scope: ScopeName) => ({
      get: async ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => {
        const values = (await this.scope(caller, scope, chatId)).current();
        return own(values, keyOf(key, 'key')) ? values[key] : '';
      },
      has: async ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => own((await this.scope(caller, scope, chatId)).current(), keyOf(key, 'key')),
      list: async ({ chatId }: { chatId?: string }, caller: Caller) => ({ ...(await this.scope(caller, scope, chatId)).current() }),
      set: async ({ chatId, key, value }: { chatId?: string; key: string; value?: unknown }, caller: Caller) => {
        const text = String(value ?? '');
        // A chat's own may take what its metadata holds (ChatRoom keeps a room's whole history in one).
        const most = scope === 'chat' ? SESSION_LIMITS.chatMetadata : VARIABLE_LIMITS.maxValueChars;
        if (text.length > most) fail('INPUT_TOO_LARGE', `A variable holds at most ${most} characters${scope === 'chat' ? " (a chat's metadata, its variables included)" : ''}.`, '/value');
        const area = await this.scope(caller, scope, chatId);
        await area.update((values) => {
          values[keyOf(key, 'key')] = text;
        });
        return null;
      },
      delete: async ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => {
        await (await this.scope(caller, scope, chatId)).update((values) => {
          delete values[keyOf(key, 'key')];
        });
        return null;
      },
    });
    const [global, local, chat] = [scoped('global'), scoped('local'), scoped('chat')];
    return {
      'variables.global.get': global.get,
      'variables.global.has': global.has,
      'variables.global.list': global.list,
      'variables.global.set': global.set,
      'variables.global.delete': global.delete,
      'variables.local.get': local.get,
      'variables.local.has': local.has,
      'variables.local.list': local.list,
      'variables.local.set': local.set,
      'variables.local.delete': local.delete,
      'variables.chat.get': chat.get,
      'variables.chat.has': chat.has,
      'variables.chat.list': chat.list,
      'variables.chat.set': chat.set,
      'variables.chat.delete': chat.delete,
    };
  }

  /** One scope of an extension's variables: global, or local/chat for one chat id. */
  private async scope(caller: Caller, scope: ScopeName, chatIdParam: string | undefined) {
    const doc = this.document(caller.extensionId);
    const chatId = scope === 'global' || chatIdParam === undefined ? null : keyOf(chatIdParam, 'chatId');
    if (scope === 'chat' && chatId !== null) {
      const shared = await this.sessionScope(doc, chatId);
      if (shared) return shared;
    }
    const byChat = (v: Variables) => v[scope as 'local' | 'chat'];
    return {
      current: (): Scope => {
        const v = doc.read();
        return chatId === null ? v.global : (byChat(v)[chatId] ?? {});
      },
      update: (change: (values: Scope) => void) =>
        doc.update((draft) => {
          if (chatId === null) return change(draft.global);
          if (!own(byChat(draft), chatId)) byChat(draft)[chatId] = Object.create(null) as Scope;
          change(byChat(draft)[chatId]!);
        }),
    };
  }

  /**
   * A session's chat variables, shared; what this extension kept for the session in its own document before moves
   * there at its first use (keys the session already has keep their value).
   */
  private async sessionScope(doc: JsonDocument<Variables>, chatId: string) {
    const sessions = this.sessions;
    if (!sessions || sessions.read(chatId) === null) return null;
    const earlier = doc.read().chat[chatId];
    if (earlier && Object.keys(earlier).length) {
      sessions.write(chatId, { ...earlier, ...sessions.read(chatId) });
      await doc.update((draft) => {
        delete draft.chat[chatId];
      });
    }
    return {
      current: (): Scope => sessions.read(chatId) ?? {},
      update: async (change: (values: Scope) => void) => {
        const values: Scope = Object.assign(Object.create(null) as Scope, sessions.read(chatId) ?? {});
        change(values);
        sessions.write(chatId, { ...values });
      },
    };
  }

  private document(extensionId: string): JsonDocument<Variables> {
    let doc = this.documents.get(extensionId);
    if (!doc) {
      doc = new JsonDocument<Variables>(path.join(this.dataRoot, extensionId, 'variables.json'), () => ({ global: {}, local: {}, chat: {} }), VARIABLE_LIMITS.maxDocumentBytes);
      this.documents.set(extensionId, doc);
    }
    return doc;
  }
}
