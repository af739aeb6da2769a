// The Workbench's chats as extensions read them (spindle.chats, chat, characters, personas, world_books): the
// sessions, the active one (the last a turn ran in, or the chat a council run is for while it runs), and
// messages an extension with chat_mutation appends, saved and shown live.
import { randomUUID } from 'node:crypto';
import { HostFailure } from '../../../shared/errors';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { messageWire, type MessageView } from '../extensions/spindle-host/message-dto';
import type { CouncilChat } from '../../../shared/types/council';
import { characterDto, type ChatReads, type ChatView } from '../extensions/spindle-host/chat-data';
import { personaDto } from '../extensions/spindle-host/personas';
import type { PersonaLibrary } from '../personas/persona-library';
import { personaIdOf } from '../../../shared/spindle/lumiverse-ids';
import { chatDto, worldBookEvent } from '../extensions/spindle-host/lumiverse-dto';
import { branchRoot, lineOf, sessionHeads, withoutLine } from '../util/branch-root';
import type { ChatEngine } from './chat-engine';
import type { MessageActions } from './message-actions';
import type { SessionStore } from './session-store';
import { resolveMacros } from './session-macros';
import { idleInterceptors } from './pipeline/macro-interceptors';
import { deleteSession } from './delete-session';
import type { BookLibrary } from '../lore/book-library';
import type { RegexStore } from '../regex/regex-store';
import type { SpindleParams } from '../../../shared/spindle/requests';

/** The id a council run's chat goes by when it did not name one (the CLI's --chat file). */
const COUNCIL_CHAT_ID = 'council-run';

const defined = <T extends object>(value: T): Partial<T> => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** A message's extra as extensions read it: what an imported file kept, then what processors added; undefined: none. */
export function messageExtra(m: ChatMessage): Record<string, unknown> | undefined {
  const imported = m.source?.extra;
  const kept = typeof imported === 'object' && imported !== null && !Array.isArray(imported) ? (imported as Record<string, unknown>) : undefined;
  return kept || m.extra ? { ...kept, ...m.extra } : undefined;
}

/** A saved message as extensions read it (its swipes' texts included). */
export function messageView(m: ChatMessage): MessageView {
  return {
    id: m.id,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    ...(m.swipes ? { swipes: m.swipes.map((x) => ({ content: x.content, createdAt: x.createdAt })), swipeId: m.swipeId ?? 0 } : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.hidden ? { hidden: true } : {}),
    ...(m.reasoning ? { reasoning: m.reasoning } : {}),
    ...(m.reasoningMs !== undefined ? { reasoningMs: m.reasoningMs } : {}),
    ...defined({ extra: messageExtra(m) }),
  };
}

/** The session's message at `index` (or `message`, to be put there) as Lumiverse's events carry it. */
export function messageWireIn(s: ChatSession, index: number, message: ChatMessage = s.messages[index]!) {
  return messageWire({ chatId: s.id, userName: s.persona.name, characterName: s.character.name }, messageView(message), index);
}

/** Lumiverse's payload of a session's character in CHARACTER_CREATED and CHARACTER_EDITED. */
export const characterPayload = (s: ChatSession) => ({ id: s.id, character: characterDto(sessionView(s)) });
/** Lumiverse's PERSONA_CHANGED payload for a session's persona. */
export const personaChanged = (s: ChatSession) => ({ id: personaIdOf(s.id), persona: personaDto(sessionView(s)) });

function sessionView(s: ChatSession): ChatView {
  return {
    id: s.id,
    name: s.title,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    character: { name: s.character.name, description: s.character.description, personality: s.character.personality, scenario: s.character.scenario },
    persona: { name: s.persona.name, description: s.persona.description },
    worldInfo: s.worldInfo.map((e) => ({ ...e, keywords: [...e.keywords] })),
    messages: s.messages.map(messageView),
    ...(s.metadata ? { metadata: s.metadata } : {}),
    ...(s.card ? { card: s.card.data } : {}),
    ...(s.worldInfoBook ? { book: bookOf(s.worldInfoBook) } : {}),
    ...(s.avatar ? { hasAvatar: true } : {}),
  };
}

/** The name and description a lorebook's top level (or an extension's world_books.create) gave the world info. */
function bookOf(top: Record<string, unknown>): { name?: string; description?: string } {
  return { ...(typeof top.name === 'string' ? { name: top.name } : {}), ...(typeof top.description === 'string' ? { description: top.description } : {}) };
}

function councilView(chat: CouncilChat): ChatView {
  const id = chat.chatId ?? COUNCIL_CHAT_ID;
  return {
    id,
    name: chat.character?.name ?? 'Council run',
    createdAt: 0,
    updatedAt: 0,
    character: { name: chat.character?.name ?? '', description: chat.character?.description ?? '', personality: chat.character?.personality ?? '', scenario: chat.character?.scenario ?? '' },
    persona: { name: chat.persona?.name ?? '', description: chat.persona?.description ?? '' },
    worldInfo: (chat.worldInfo ?? []).map((e, i) => ({ id: `${id}-wi-${i}`, keywords: [...e.keywords], content: e.content, enabled: true })),
    messages: chat.messages.map((m, i) => ({ id: `${id}-m${i}`, role: m.role, content: m.content, createdAt: 0 })),
  };
}

export function chatReads(options: {
  sessions: SessionStore;
  chat: ChatEngine;
  messages: MessageActions;
  regex: Pick<RegexStore, 'forgetScope'>;
  /** The world books of their own: attached to sessions by characters' world_book_ids. */
  library: BookLibrary;
  /** The personas of their own (spindle.personas.create). */
  personas: PersonaLibrary;
  /** characters.create: a new session made as a card of these fields is imported (imports/card-session.ts); its id. Absent: refused. */
  sessionFromCharacter?: (input: SpindleParams<'characters.create'>['input']) => string;
  runningCouncilChat: () => CouncilChat | null;
  changed: (sessionId: string, change?: 'created' | 'updated' | 'deleted') => void;
}): ChatReads {
  const { sessions } = options;
  /** Only a session can change (a council run's chat from elsewhere is read-only). */
  const mutable = (id: string) => {
    if (!sessions.has(id)) throw new HostFailure({ code: 'NOT_FOUND', message: `Chat ${id} cannot be changed: it is not a Workbench session.`, path: '/chatId' });
  };
  const running = () => {
    const chat = options.runningCouncilChat();
    // A council run for a session is that session; a run for a chat from elsewhere shows that chat.
    return chat && !(chat.chatId && sessions.has(chat.chatId)) ? councilView(chat) : null;
  };
  return {
    library: options.library,
    personas: options.personas,
    activeId: () => options.runningCouncilChat()?.chatId ?? running()?.id ?? options.chat.activeSessionId,
    get: (id) => (sessions.has(id) ? sessionView(sessions.get(id)) : running()?.id === id ? running() : null),
    head: (id) => (sessions.has(id) ? sessionView(sessions.head(id)) : running()?.id === id ? running() : null),
    list: () => sessions.heads().map(sessionView),
    saved: (id) => sessions.has(id),
    busy: (id) => options.chat.isBusy(id),
    avatarFile: (id) => sessions.avatarFile(id),
    whole: (id) => sessions.preload(id),
    async resolveMacros(text, { chatId, characterId, commit }) {
      // A character is a session here; with neither named, the active session, else a blank one.
      const named = chatId ?? characterId;
      if (named !== undefined && !sessions.has(named)) throw new HostFailure({ code: 'NOT_FOUND', message: `No Workbench session ${named}.`, path: chatId !== undefined ? '/chatId' : '/characterId' });
      const active = options.chat.activeSessionId;
      const id = named ?? (active && sessions.has(active) ? active : undefined);
      if (id !== undefined) await sessions.preload(id);
      const sources = options.chat.macroSources(id, commit !== false);
      // Asked by an extension, maybe from inside its own interceptor: those running now are not entered again.
      const idle = { ...sources, interceptors: idleInterceptors(sources.interceptors ?? []) };
      return resolveMacros(idle, text, id === undefined ? undefined : (changes) => options.chat.saveChatVariables(id, changes));
    },
    append(id, message) {
      mutable(id);
      // Sessions hold user and assistant turns; a system line joins as the assistant's.
      const created: ChatMessage = { id: randomUUID(), role: message.role === 'system' ? ('assistant' as const) : message.role, content: message.content, createdAt: Date.now(), ...(message.metadata ? { metadata: message.metadata } : {}) };
      const session = sessions.mutate(id, (s) => {
        s.messages.push(created);
      });
      options.changed(id);
      // As Lumiverse creates any message: every extension hears it was sent.
      options.chat.broadcast('MESSAGE_SENT', { chatId: id, message: messageWireIn(session, session.messages.length - 1) });
      return { id: created.id };
    },
    async preview(id, input) {
      if (!sessions.has(id)) throw new HostFailure({ code: 'NOT_FOUND', message: `No Workbench session ${id}.`, path: '/chatId' });
      const { profile, messages, ...built } = await options.chat.previewPrompt(id, input);
      return { ...built, messages: messages.map((m) => ({ role: m.role, content: m.content })), provider: profile.provider };
    },
    reply(id, check) {
      mutable(id);
      const started = options.chat.reply(id, {}, check);
      return started ? { turnId: started.turnId, settled: options.chat.settled(id) } : null;
    },
    update(id, messageId, patch) {
      mutable(id);
      options.messages.patch(id, messageId, patch);
    },
    hide(id, messageIds, hidden) {
      mutable(id);
      sessions.mutate(id, (s) => {
        const wanted = new Set(messageIds);
        const missing = messageIds.find((m) => !s.messages.some((x) => x.id === m));
        if (missing !== undefined) throw new HostFailure({ code: 'NOT_FOUND', message: `The session has no message ${missing}.`, path: '/messageIds' });
        s.messages = s.messages.map((m) => {
          if (!wanted.has(m.id)) return m;
          const { hidden: _was, ...rest } = m;
          return hidden ? { ...rest, hidden: true } : rest;
        });
      });
      options.changed(id);
    },
    remove(id, messageId) {
      mutable(id);
      options.messages.delete(id, messageId);
    },
    updateCharacter(id, patch) {
      mutable(id);
      const { name, description, personality, scenario, ...cardFields } = patch;
      const session = sessions.mutate(id, (s) => {
        s.character = { ...s.character, ...defined({ name, description, personality, scenario }) };
        if (Object.keys(cardFields).length) s.card = { spec: 'chara_card_v2', ...s.card, data: { ...s.card?.data, ...cardFields } };
      });
      options.changed(id);
      options.chat.broadcast('CHARACTER_EDITED', characterPayload(session));
    },
    updatePersona(id, patch) {
      mutable(id);
      const session = sessions.mutate(id, (s) => {
        s.persona = { ...s.persona, ...defined(patch) };
      });
      options.changed(id);
      options.chat.broadcast('PERSONA_CHANGED', personaChanged(session));
    },
    createCharacter(input) {
      if (!options.sessionFromCharacter) throw new HostFailure({ code: 'UNSUPPORTED_HERE', message: 'This host makes no sessions for extensions.' });
      const id = options.sessionFromCharacter(input);
      options.changed(id, 'created');
      return id;
    },
    async deleteCharacter(id) {
      // As Lumiverse answers for a character it has not: false (a council run's chat from elsewhere is not one).
      if (!sessions.has(id)) return false;
      const deleted = await deleteSession({ sessions, chat: options.chat, regex: options.regex, library: options.library }, id);
      if (deleted) options.changed(id, 'deleted');
      return deleted;
    },
    saveEntry(id, entry) {
      mutable(id);
      sessions.mutate(id, (s) => {
        const at = s.worldInfo.findIndex((e) => e.id === entry.id);
        if (at >= 0) s.worldInfo[at] = entry;
        else s.worldInfo.push(entry);
      });
      options.changed(id);
      options.chat.broadcast(...worldBookEvent({ kind: 'entry', bookId: id, entry }));
    },
    async setAvatar(id, png) {
      mutable(id);
      await sessions.setAvatar(id, png);
      options.changed(id);
    },
    attachBooks(id, bookIds) {
      mutable(id);
      const attached = options.library.link(id, bookIds);
      options.changed(id);
      return attached;
    },
    removeEntry(id, entryId) {
      mutable(id);
      sessions.mutate(id, (s) => {
        s.worldInfo = s.worldInfo.filter((e) => e.id !== entryId);
      });
      options.changed(id);
      options.chat.broadcast(...worldBookEvent({ kind: 'entry-deleted', bookId: id, entryId }));
    },
    async branch(id, messageId) {
      mutable(id);
      // A long chat is read in the background first, as the person's Branch reads it.
      await sessions.preload(id);
      return (await options.messages.branch(id, messageId)).id;
    },
    updateChat(id, { name, metadata }) {
      mutable(id);
      const updated = sessions.mutate(id, (s) => {
        if (name !== undefined) Object.assign(s, { title: name, titleSet: true });
        if (metadata !== undefined) {
          const { metadata: previous, ...rest } = s;
          // Where a branch came from is the host's to say (it decides whose books the branch reads): kept as it was.
          const kept = { ...withoutLine(metadata), ...lineOf(previous) };
          return Object.keys(kept).length ? { ...rest, metadata: kept } : rest;
        }
      });
      options.changed(id);
      // As Lumiverse tells a chat's record changed (an extension's cache of its metadata is stale).
      const changedFields = [...(name !== undefined ? ['name'] : []), ...(metadata !== undefined ? ['metadata'] : [])];
      const chat = chatDto({ id, name: updated.title, metadata: updated.metadata, createdAt: updated.createdAt, updatedAt: updated.updatedAt }, branchRoot(id, sessionHeads(sessions)));
      options.chat.broadcast('CHAT_CHANGED', { chatId: id, chat, changedFields });
    },
  };
}
