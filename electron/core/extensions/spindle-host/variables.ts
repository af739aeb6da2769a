// spindle.variables (local, global, chat): string values by key, per extension, in its data folder.
//
// `local` and `chat` are kept per chat id, `global` once; each value at most 64 KB and the whole
// document 1 MB. Keys are 1–256 characters.
import path from 'node:path';
import { JsonDocument } from './json-document';
import { fail, text, unknownMethod, type Caller, type NamespaceHandler } from './namespace';

type Scope = Record<string, string>;
interface Variables {
  global: Scope;
  local: Record<string, Scope>;
  chat: Record<string, Scope>;
}

export const VARIABLE_LIMITS = { maxValueChars: 64 * 1024, maxDocumentBytes: 1024 * 1024 };

const own = (record: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(record, key);

/** A key or chat id: 1–256 characters, and never a name that reaches an object's prototype. */
function keyOf(value: unknown, name: string): string {
  const key = text(value, name, 256);
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') fail('INVALID_INPUT', `${name} cannot be "${key}".`, `/${name}`);
  return key;
}

export class ExtensionVariables implements NamespaceHandler {
  private readonly documents = new Map<string, JsonDocument<Variables>>();

  constructor(private readonly dataRoot: string) {}

  /** The chat-scoped variables of a session, for the chat pipeline's macros. */
  chatScope(extensionId: string, chatId: string): Scope {
    return { ...(this.document(extensionId).read().chat[chatId] ?? {}) };
  }

  async handle(caller: Caller, method: string, args: unknown[]): Promise<unknown> {
    const [scope, name] = method.split('.') as [string, string];
    if (scope !== 'global' && scope !== 'local' && scope !== 'chat') unknownMethod('variables', method);
    const doc = this.document(caller.extensionId);
    // global(key, …); local/chat(chatId, key, …)
    const chatId = scope === 'global' ? null : keyOf(args[0], 'chatId');
    const rest = scope === 'global' ? args : args.slice(1);
    const pick = (v: Variables): Scope => {
      if (chatId === null) return v.global;
      const byChat = v[scope as 'local' | 'chat'];
      if (!own(byChat, chatId)) byChat[chatId] = Object.create(null) as Scope;
      return byChat[chatId]!;
    };
    const current = () => {
      const v = doc.read();
      return chatId === null ? v.global : (v[scope as 'local' | 'chat'][chatId] ?? {});
    };
    switch (name) {
      case 'get': {
        const key = keyOf(rest[0], 'key');
        const values = current();
        return own(values, key) ? values[key] : '';
      }
      case 'has':
        return own(current(), keyOf(rest[0], 'key'));
      case 'list':
        return { ...current() };
      case 'set': {
        const key = keyOf(rest[0], 'key');
        const value = String(rest[1] ?? '');
        if (value.length > VARIABLE_LIMITS.maxValueChars) fail('INPUT_TOO_LARGE', `A variable holds at most ${VARIABLE_LIMITS.maxValueChars} characters.`, '/value');
        await doc.update((draft) => {
          pick(draft)[key] = value;
        });
        return null;
      }
      case 'delete': {
        const key = keyOf(rest[0], 'key');
        await doc.update((draft) => {
          delete pick(draft)[key];
        });
        return null;
      }
      default:
        return unknownMethod('variables', method);
    }
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
