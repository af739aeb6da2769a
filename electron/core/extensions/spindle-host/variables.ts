// spindle.variables (local, global, chat): string values by key, per extension, in its data folder.
//
// `local` and `chat` are kept per chat id, `global` once; each value at most 64 KB and the whole
// document 1 MB. Keys are 1–256 characters.
import path from 'node:path';
import { JsonDocument } from './json-document';
import { fail, type Caller, type HandlersOf } from './handlers';

type Scope = Record<string, string>;
interface Variables {
  global: Scope;
  local: Record<string, Scope>;
  chat: Record<string, Scope>;
}

export const VARIABLE_LIMITS = { maxValueChars: 64 * 1024, maxDocumentBytes: 1024 * 1024 };

const own = (record: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** A key or chat id (1–256 characters: requests.ts), never a name that reaches an object's prototype. */
function keyOf(key: string, name: string): string {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') fail('INVALID_INPUT', `${name} cannot be "${key}".`, `/${name}`);
  return key;
}

type ScopeName = 'global' | 'local' | 'chat';

export class ExtensionVariables {
  private readonly documents = new Map<string, JsonDocument<Variables>>();

  constructor(private readonly dataRoot: string) {}

  /** The chat-scoped variables of a session, for the chat pipeline's macros. */
  chatScope(extensionId: string, chatId: string): Scope {
    return { ...(this.document(extensionId).read().chat[chatId] ?? {}) };
  }

  /** The handlers of spindle.variables.global, .local and .chat. */
  handlers(): HandlersOf<'variables'> {
    const scoped = (scope: ScopeName) => ({
      get: ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => {
        const values = this.scope(caller, scope, chatId).current();
        return own(values, keyOf(key, 'key')) ? values[key] : '';
      },
      has: ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => own(this.scope(caller, scope, chatId).current(), keyOf(key, 'key')),
      list: ({ chatId }: { chatId?: string }, caller: Caller) => ({ ...this.scope(caller, scope, chatId).current() }),
      set: async ({ chatId, key, value }: { chatId?: string; key: string; value?: unknown }, caller: Caller) => {
        const text = String(value ?? '');
        if (text.length > VARIABLE_LIMITS.maxValueChars) fail('INPUT_TOO_LARGE', `A variable holds at most ${VARIABLE_LIMITS.maxValueChars} characters.`, '/value');
        const area = this.scope(caller, scope, chatId);
        await area.update((values) => {
          values[keyOf(key, 'key')] = text;
        });
        return null;
      },
      delete: async ({ chatId, key }: { chatId?: string; key: string }, caller: Caller) => {
        await this.scope(caller, scope, chatId).update((values) => {
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
  private scope(caller: Caller, scope: ScopeName, chatIdParam: string | undefined) {
    const doc = this.document(caller.extensionId);
    const chatId = scope === 'global' || chatIdParam === undefined ? null : keyOf(chatIdParam, 'chatId');
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

  private document(extensionId: string): JsonDocument<Variables> {
    let doc = this.documents.get(extensionId);
    if (!doc) {
      doc = new JsonDocument<Variables>(path.join(this.dataRoot, extensionId, 'variables.json'), () => ({ global: {}, local: {}, chat: {} }), VARIABLE_LIMITS.maxDocumentBytes);
      this.documents.set(extensionId, doc);
    }
    return doc;
  }
}
