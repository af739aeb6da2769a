// The chat data namespaces (chat, chats, characters, personas, world_books) with their Lumiverse
// permissions. Until the Workbench chat pipeline provides sessions, they answer as Lumiverse does
// between chats: nothing is active, lists are empty, a chat id is not found.
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import { fail, unknownMethod, type NamespaceHandler } from './namespace';

/** Lumiverse's permission per namespace (chat.* — reads included — needs chat_mutation there too). */
const PERMISSIONS: Record<string, ExtensionPermission> = {
  chat: 'chat_mutation',
  chats: 'chats',
  characters: 'characters',
  personas: 'personas',
  world_books: 'world_books',
};

const EMPTY_PAGE = () => ({ data: [], total: 0 });

/** What each read answers with no chat open; writes say why they cannot happen. */
const BETWEEN_CHATS: Record<string, Record<string, () => unknown>> = {
  chat: { isMessageHidden: () => false },
  chats: { list: EMPTY_PAGE, get: () => null, getActive: () => null, getMemories: () => [] },
  characters: { list: EMPTY_PAGE, get: () => null },
  personas: { list: EMPTY_PAGE, get: () => null, getDefault: () => null, getActive: () => null, getWorldBook: () => null },
  world_books: { list: EMPTY_PAGE, get: () => null, getActivated: () => [], getGlobal: () => [], 'entries.list': EMPTY_PAGE, 'entries.get': () => null },
};

export function chatDataNamespace(namespace: keyof typeof PERMISSIONS): NamespaceHandler {
  return {
    permission: () => PERMISSIONS[namespace],
    handle(_caller, method) {
      const answer = BETWEEN_CHATS[namespace]?.[method];
      if (answer) return answer();
      if (/^(get|list|is)/.test(method.split('.').pop() ?? '')) return unknownMethod(namespace, method);
      return fail('NOT_FOUND', `No active chat: spindle.${namespace}.${method} needs a Workbench chat session.`);
    },
  };
}

export const CHAT_DATA_NAMESPACES = Object.keys(PERMISSIONS) as Array<keyof typeof PERMISSIONS>;
