// Lumiverse's macro env (MacroEnv, src/macros/MacroEnv.ts), as a macro interceptor and a macro's handler are given it:
// the names, the character's card fields, the chat's counts and last texts, the model and the generation, the turn's
// variables and Lumiverse's `extra`. A structured copy, so nothing an extension does to it reaches the turn. A solo chat
// (the Workbench's are) has Lumiverse's solo values in the group fields. What the API would not give an extension is
// blank in its env: the chat's text (its last messages, extra.messages) without chat_mutation, the card's own fields
// (examples, system prompt, notes…) without `characters`, the persona's description without `personas`. The name,
// description, personality, scenario and greetings the chat's macros show to any extension stay.
import type { ChatMessage } from '../../../../shared/types/chat';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { MacroVariables } from './builtin-macros';

/** A chat message as a macro's env carries it (Lumiverse's env.extra.messages). */
export interface EnvMessage {
  content: string;
  name: string;
  is_user: boolean;
}

/**
 * At most this many of the chat's latest messages, and this many characters of them, ride in one env: each call
 * carries them to the worker, in one frame (a chat of long messages must not make one no worker takes).
 */
export const ENV_MESSAGES_MAX = 1000;
export const ENV_MESSAGES_CHARS = 1_000_000;

export interface MacroEnvSources {
  session: {
    id: string;
    character: { name: string; description: string; personality: string; scenario: string };
    persona: { name: string; description?: string };
    card?: { data: Record<string, unknown> };
    metadata?: Record<string, unknown>;
  };
  /** The chat's messages the resolve reads (absent: none). */
  history?: readonly ChatMessage[];
  /** The character the chat is to extensions: its line's origin (util/branch-root.ts); absent: the session. */
  characterId?: string;
  /** The chat's latest messages for env.extra.messages, made once when first asked (absent: none). */
  chatMessages?: () => EnvMessage[];
  variables: MacroVariables;
  commit: boolean;
  /** The turn's model and generation type (absent: a resolve outside a turn). */
  turn?: { model: string; generationType: string };
}

/** What one extension may read of the env (the API's permissions). */
export interface EnvAccess {
  chat: boolean;
  characters: boolean;
  personas: boolean;
}

/** Extension `id`'s access, from whether it reads chat text and what else it holds. */
export const envAccess = (id: string, readsChat: (id: string) => boolean, mayRead: (id: string, permission: ExtensionPermission) => boolean): EnvAccess => ({
  chat: readsChat(id),
  characters: mayRead(id, 'characters'),
  personas: mayRead(id, 'personas'),
});

const NONE: EnvAccess = { chat: false, characters: false, personas: false };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A card's depth prompt: SillyTavern's `{ prompt, depth, role }`, or the text itself. */
const depthPrompt = (value: unknown): string => (typeof value === 'string' ? value : text((value as { prompt?: unknown } | null)?.prompt));

export function macroEnv(s: MacroEnvSources, access: EnvAccess = NONE) {
  const { character, persona } = s.session;
  const card = s.session.card?.data ?? {};
  const readsChat = access.chat;
  const cardText = (field: string) => (access.characters ? text(card[field]) : '');
  const extensions = (typeof card.extensions === 'object' && card.extensions !== null ? card.extensions : {}) as Record<string, unknown>;
  const greetings = Array.isArray(card.alternate_greetings) ? card.alternate_greetings.filter((g): g is string => typeof g === 'string') : [];
  // Which greeting opened the chat, where the import (and Lumiverse's greeting picker) keeps it.
  const opened = s.session.metadata?.activeGreetingIndex;
  const greetingIndex = typeof opened === 'number' && Number.isInteger(opened) && opened >= 0 ? opened : 0;
  const history = s.history ?? [];
  const last = history.at(-1);
  const said = (m: ChatMessage | undefined) => (readsChat ? (m?.content ?? '') : '');
  const lastOf = (role: ChatMessage['role']) => history.findLast((m) => m.role === role);
  const nameOf = (m: ChatMessage | undefined) => (m ? (m.role === 'user' ? persona.name : character.name) : '');
  const examples = cardText('mes_example');
  return {
    commit: s.commit,
    names: {
      char: character.name,
      user: persona.name,
      notChar: persona.name,
      group: '',
      groupNotMuted: '',
      charGroupFocused: '',
      groupOthers: '',
      groupMemberCount: '0',
      isGroupChat: 'no',
      isNarrator: 'no',
      groupLastSpeaker: '',
      groupCardMode: 'solo',
    },
    character: {
      ...character,
      persona: access.personas ? (persona.description ?? '') : '',
      // The Workbench's personas keep no pronouns: Lumiverse's defaults.
      personaSubjectivePronoun: 'they',
      personaObjectivePronoun: 'them',
      personaPossessivePronoun: 'their',
      mesExamples: examples,
      mesExamplesRaw: examples,
      systemPrompt: cardText('system_prompt'),
      postHistoryInstructions: cardText('post_history_instructions'),
      depthPrompt: access.characters ? depthPrompt(extensions.depth_prompt) : '',
      creatorNotes: cardText('creator_notes'),
      version: access.characters ? text(card.character_version) || text(extensions.version) : '',
      creator: cardText('creator'),
      firstMessage: (greetingIndex > 0 && Array.isArray(card.alternate_greetings) ? text(card.alternate_greetings[greetingIndex - 1]) : '') || text(card.first_mes),
      alternateGreetings: greetings,
    },
    chat: {
      id: s.session.id,
      greetingIndex,
      messageCount: history.length,
      lastMessage: said(last),
      lastMessageName: nameOf(last),
      lastUserMessage: said(lastOf('user')),
      lastCharMessage: said(lastOf('assistant')),
      lastMessageId: history.length - 1,
      firstIncludedMessageId: history.length > 0 ? 0 : -1,
      lastSwipeId: last?.swipes ? last.swipes.length - 1 : 0,
      currentSwipeId: last?.swipeId ?? 0,
      rejectedSwipe: '',
    },
    system: { model: s.turn?.model ?? '', maxPrompt: 0, maxContext: 0, maxResponse: 0, lastGenerationType: s.turn?.generationType ?? 'normal', isMobile: false },
    variables: { local: Object.fromEntries(s.variables.local), global: Object.fromEntries(s.variables.global), chat: Object.fromEntries(s.variables.chat) },
    dynamicMacros: {},
    // What Lumiverse's env.extra says of the person and the chat (Waypoints keys its settings by extra.userId).
    extra: {
      userId: 'local',
      characterId: s.characterId ?? s.session.id,
      characterTags: [],
      userInput: '',
      ...(readsChat && s.chatMessages ? { messages: s.chatMessages() } : {}),
    },
  };
}

/** The env's messages from a chat's history: its latest, within ENV_MESSAGES_MAX and ENV_MESSAGES_CHARS, named as the turn names them. */
export function envMessages(history: readonly { role: string; content: string }[], names: { char: string; user: string }): EnvMessage[] {
  let first = history.length;
  for (let chars = 0; first > 0 && history.length - first < ENV_MESSAGES_MAX; first--) {
    chars += history[first - 1]!.content.length;
    if (chars > ENV_MESSAGES_CHARS) break;
  }
  return history.slice(first).map((m) => ({ content: m.content, name: m.role === 'user' ? names.user : names.char, is_user: m.role === 'user' }));
}
