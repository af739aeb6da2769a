// Contract handlers for chat.*: sessions (create, edit, their own JSON export and import), messages and turns. Files in
// other apps' formats (cards, lorebooks, SillyTavern chats) come and go through imports/session-file-handlers.ts.
import type { PresetMethod } from '../presets/handlers';
import { listMacros } from './session-macros';
import { deleteSession } from './delete-session';
import { characterPayload, messageExtra, personaChanged } from './chat-reads';
import type { Handlers } from '../../../shared/contract';
import { HostFailure } from '../../../shared/errors';
import { summaryFields, summaryOf } from './store/session-summary';
import { searchSessions } from './session-search';
import { branchRoot, sessionHeads } from '../util/branch-root';
import { swipeIndex } from './swipes';
import type { LlmServices } from '../llm-services';
import type { SessionFileMethod } from '../../../shared/contract/chat';
import { USER_OWNER, type RegexScript } from '../../../shared/types/regex-script';
import { CHAT_TEXT_PERMISSION } from '../../../shared/spindle/event-access';

type ChatHandlerNames = Exclude<Extract<keyof Handlers, `chat.${string}`>, SessionFileMethod | PresetMethod>;

export function chatHandlers(s: Pick<LlmServices, 'sessions' | 'chat' | 'messages' | 'regex' | 'library'>, emitSessions: (sessionId: string, change: 'created' | 'updated' | 'deleted') => void): Pick<Handlers, ChatHandlerNames> {
  const { sessions, chat, messages, regex, library } = s;
  /** Calls that work on the whole session wait for it to be read in the background first (a long chat's read never holds the host). */
  const whole =
    <P extends { sessionId?: string }, R>(run: (params: P) => R) =>
    async (params: P): Promise<Awaited<R>> => {
      if (params.sessionId !== undefined) await sessions.preload(params.sessionId);
      return await run(params);
    };
  const known = (sessionId: string) => {
    sessions.assertExists(sessionId);
    return sessionId;
  };
  return {
    'chat.sessions.list': () => sessions.summaries().map((x) => summaryOf(x, chat.isBusy(x.id))),
    'chat.sessions.get': whole(({ sessionId }) => sessions.get(sessionId)),
    'chat.sessions.window': ({ sessionId, ...place }) => {
      const shown = sessions.window(sessionId, place);
      const origin = branchRoot(sessionId, sessionHeads(sessions));
      return origin === sessionId ? shown : { ...shown, origin };
    },
    'chat.sessions.create': (init) => {
      const created = sessions.create(init);
      const session = init.title ? sessions.mutate(created.id, (x) => ({ ...x, titleSet: true })) : created;
      emitSessions(session.id, 'created');
      return session;
    },
    'chat.sessions.update': whole(({ sessionId, patch }) => {
      const before = sessions.head(sessionId);
      const session = sessions.mutate(sessionId, (x) => ({ ...x, ...patch, ...(patch.title ? { titleSet: true } : {}) }));
      emitSessions(sessionId, 'updated');
      // The editor saves every part at once: extensions hear only of the ones that changed.
      const changed = (part: 'character' | 'persona') => JSON.stringify(before[part]) !== JSON.stringify(session[part]);
      if (changed('character')) chat.broadcast('CHARACTER_EDITED', characterPayload(session));
      if (changed('persona')) chat.broadcast('PERSONA_CHANGED', personaChanged(session));
      return session;
    }),
    'chat.sessions.rename': whole(({ sessionId, title }) => {
      const session = sessions.mutate(sessionId, (x) => ({ ...x, title, titleSet: true }));
      emitSessions(sessionId, 'updated');
      return summaryOf(summaryFields(session), chat.isBusy(sessionId));
    }),
    'chat.sessions.delete': async ({ sessionId }) => {
      const deleted = await deleteSession({ sessions, chat, regex: regex.store, library }, sessionId);
      if (deleted) emitSessions(sessionId, 'deleted');
      return { deleted };
    },
    'chat.sessions.export': whole(({ sessionId }) => sessions.export(sessionId)),
    'chat.sessions.import': async ({ json }) => {
      const session = await sessions.import(json);
      emitSessions(session.id, 'created');
      return summaryOf(summaryFields(session), false);
    },
    'chat.sessions.avatar': async ({ sessionId }) => {
      const png = await sessions.avatar(sessionId);
      return { dataUrl: png ? `data:image/png;base64,${png.toString('base64')}` : null };
    },
    'chat.send': whole(({ sessionId, text, ...options }) => chat.send(sessionId, text, options)),
    'chat.stop': ({ sessionId }) => ({ stopped: chat.stop(sessionId) }),
    'chat.regenerate': whole(({ sessionId, ...options }) => chat.regenerate(sessionId, options)),
    'chat.worldBooks.list': ({ sessionId }) => {
      sessions.head(sessionId);
      const global = new Set(library.globals());
      return { books: library.list().map((b) => ({ id: b.id, name: b.name, description: b.description, entries: library.entries(b.id).length, global: global.has(b.id) })), attached: library.linked(sessionId) };
    },
    'chat.worldBooks.attach': ({ sessionId, bookIds }) => {
      sessions.head(sessionId);
      const attached = library.link(sessionId, bookIds);
      emitSessions(sessionId, 'updated');
      return { attached };
    },
    'chat.worldBooks.setGlobal': ({ bookIds }) => ({ global: library.setGlobals(bookIds) }),
    'chat.reply': whole(({ sessionId, ...options }) => chat.reply(sessionId, options)!),
    'chat.continue': whole(({ sessionId, ...options }) => chat.continueReply(sessionId, options)),
    'chat.messages.edit': whole(async ({ sessionId, messageId, content }) => {
      const message = sessions.get(sessionId).messages.find((m) => m.id === messageId);
      const role = message?.role ?? 'assistant';
      // Extensions' processors see the person's edit first, as Lumiverse's message route runs them; then the edit scripts.
      const written = message
        ? await chat.processWrite({
            chatId: sessionId,
            messageId,
            content,
            isUser: role === 'user',
            extra: messageExtra(message),
            ...(message.swipes ? { origin: 'swipe_update' as const, swipeIndex: swipeIndex(message) } : { origin: 'update' as const }),
          })
        : { content };
      const reader = (s: RegexScript) => s.owner === USER_OWNER || chat.extensionAllowed(s.owner, CHAT_TEXT_PERMISSION);
      return messages.edit(sessionId, messageId, await regex.onEdit(sessionId, role, written.content, reader), written.extra);
    }),
    'chat.messages.delete': whole(({ sessionId, messageId }) => messages.delete(sessionId, messageId)),
    'chat.messages.swipe': whole(({ sessionId, messageId, swipeId, direction }) => {
      if ((swipeId === undefined) === (direction === undefined)) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Give either swipeId or direction.', path: swipeId === undefined ? '/direction' : '/swipeId' });
      return messages.swipe(sessionId, messageId, swipeId !== undefined ? { swipeId } : { direction: direction! });
    }),
    'chat.sessions.branch': whole(({ sessionId, messageId }) => messages.branch(sessionId, messageId)),
    'chat.sessions.search': ({ query, sessionId, limit }) => searchSessions(sessions, query, limit ?? 100, sessionId && known(sessionId)),
    'chat.macros': whole(({ sessionId }) => listMacros(chat.macroSources(sessionId))),
    'chat.sessions.open': ({ sessionId }) => chat.open(sessionId),
  };
}
