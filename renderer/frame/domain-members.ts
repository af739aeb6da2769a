// Lumiverse's frontend v2 domain members (ctx.worldBooks, ctx.tokens, ctx.connections, the v2 halves of ctx.chats
// and ctx.messages) and ctx.settings. Each call is the spindle method its backend would make, asked of the host with
// the same permissions (the frame is the same extension); settings are its own, kept on the host.
import { MAX_FRONTEND_CALLS_IN_FLIGHT, type FrontendCall } from '../../shared/frames/host-state';
import { inTurns } from '../../shared/in-turn';
import { tellEach } from './tell-each';
import type { RuntimeState } from './runtime-state';

export function createDomainMembers(state: RuntimeState) {
  // The host answers MAX_FRONTEND_CALLS_IN_FLIGHT of these at once per extension; more wait their turn here.
  const inTurn = inTurns(MAX_FRONTEND_CALLS_IN_FLIGHT);
  const call = (method: FrontendCall, ...args: unknown[]) => inTurn(() => state.channel.request('host.call', { method, args: args.map((a) => (a === undefined ? null : a)) })) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- Lumiverse's DTOs, handed on as they come
  const activeChat = () => state.activeChat;
  const messagesOf = async (chatId: string | null | undefined): Promise<Array<{ id: string }>> => (chatId ? await call('chat.getMessages', chatId) : []);

  const worldBooks = {
    list: (options?: object) => call('world_books.list', options ?? {}),
    get: (id: string) => call('world_books.get', id),
    create: (input: object) => call('world_books.create', input),
    update: (id: string, input: object) => call('world_books.update', id, input),
    delete: (id: string) => call('world_books.delete', id),
    entries: {
      list: (bookId: string, options?: object) => call('world_books.entries.list', bookId, options ?? {}),
      get: (entryId: string) => call('world_books.entries.get', entryId),
      create: (bookId: string, input: object) => call('world_books.entries.create', bookId, input),
      update: (entryId: string, input: object) => call('world_books.entries.update', entryId, input),
      delete: (entryId: string) => call('world_books.entries.delete', entryId),
    },
    getActivated: (chatId: string) => call('world_books.getActivated', chatId),
    getGlobal: () => call('world_books.getGlobal'),
    setGlobal: (ids: string[]) => call('world_books.setGlobal', ids),
  };

  const tokens = {
    countText: (text: string, options?: object) => call('tokens.countText', text, options ?? {}),
    countMessages: (messages: unknown[], options?: object) => call('tokens.countMessages', messages, options ?? {}),
    countChat: (chatId: string, options?: object) => call('tokens.countChat', chatId, options ?? {}),
  };

  const connections = {
    list: () => call('connections.list'),
    get: (id: string) => call('connections.get', id),
    // The person picks the connection in the Workbench: an extension's acknowledgement changes nothing.
    setActiveAcknowledged: () => undefined,
  };

  const chats = {
    list: (options?: object) => call('chats.list', options ?? {}),
    get: (chatId: string) => call('chats.get', chatId),
    getActive: () => call('chats.getActive'),
    update: (chatId: string, input: object) => call('chats.update', chatId, input),
    // The Workbench's chats are deleted by the person, in its session list.
    delete: () => Promise.reject(state.unsupported('chats.delete')),
  };

  const messages = {
    /** A message of the open chat by its id (Lumiverse reads the app's own list), or null. */
    get: async (messageId: string) => (await messagesOf(activeChat())).find((m) => m.id === messageId) ?? null,
    list: (chatId?: string) => messagesOf(chatId ?? activeChat()),
    update: (chatId: string, messageId: string, input: { content?: string }) => call('chat.updateMessage', chatId, messageId, input ?? {}),
    delete: async (chatId: string, messageId: string) => void (await call('chat.deleteMessage', chatId, messageId)),
  };

  return { worldBooks, tokens, connections, chats, messages, settings: createSettings(call) };
}

/**
 * ctx.settings: its own keys (Lumiverse prefixes them with `spindle:<identifier>:`; here each extension has its own),
 * read from the host once and kept here; a watcher hears each change it makes. `core` is Lumiverse's own settings,
 * which the Workbench does not have: nothing is there.
 */
function createSettings(call: (method: FrontendCall, ...args: unknown[]) => Promise<any>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  let values: Promise<Record<string, unknown>> | null = null;
  const loaded = () => (values ??= call('frontendSettings.read').catch((err) => ((values = null), Promise.reject(err))));
  const watchers = new Map<string, Set<(value: unknown) => void>>();
  const put = async (key: string, value: unknown) => {
    const name = String(key);
    const copy = value === undefined ? undefined : structuredClone(value);
    await (copy === undefined ? call('frontendSettings.write', name) : call('frontendSettings.write', name, copy));
    // Kept here only once read from the host (a first read afterwards brings it anyway); watchers hear it either way.
    const all = values ? await values.catch(() => null) : null;
    if (all && copy === undefined) delete all[name];
    else if (all) Object.defineProperty(all, name, { value: copy, enumerable: true, writable: true, configurable: true });
    tellEach(watchers.get(name) ?? [], () => structuredClone(copy));
  };
  return {
    /** The value kept under `key`, or undefined. */
    get: async (key: string) => {
      const all = await loaded();
      return Object.hasOwn(all, String(key)) ? structuredClone(all[String(key)]) : undefined;
    },
    set: (key: string, value: unknown) => put(key, value),
    remove: (key: string) => put(key, undefined),
    watch(key: string, listener: (value: unknown) => void): () => void {
      const name = String(key);
      let set = watchers.get(name);
      if (!set) watchers.set(name, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    core: {
      get: () => undefined,
      watch: () => () => undefined,
      list: () => [],
      isReady: () => true,
    },
  };
}
