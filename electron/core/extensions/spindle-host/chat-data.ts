// The chat data namespaces (chat, chats, characters, personas, world_books) over the Workbench's sessions, in
// Lumiverse's shapes and with its permissions. A session is a chat with one character (same id) and the user's
// persona; its world info is one world book. Without a session (or the host's chat), they answer as Lumiverse
// does between chats: nothing active, empty lists.
import { RecentWindow, UnderWay } from '../per-extension-limits';
import type { ResolvedMacros } from '../../../../shared/spindle/macros';
import type { SpindleParams } from '../../../../shared/spindle/requests';
import { SESSION_LIMITS, type PromptReport, type WorldInfoEntry } from '../../../../shared/types/chat';
import { characterImageId } from '../../../../shared/spindle/lumiverse-ids';
import type { BookLibrary } from '../../lore/book-library';
import { page, seconds, withinMetadataCap, chatDto } from './lumiverse-dto';
import { branchRoot } from '../../util/branch-root';
import { imageMime } from './extension-images';
import { messageDto, type MessageOwner, type MessageView } from './message-dto';
import { worldBookHandlers } from './world-books';
import { personaHandlers } from './personas';
import type { PersonaLibrary } from '../../personas/persona-library';
import { fail, type HandlersOf } from './handlers';
import { DEFAULT_GENERATION_LIMITS } from './generation-gate';

export interface ChatView {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  character: { name: string; description: string; personality: string; scenario: string };
  persona: { name: string; description: string };
  worldInfo: WorldInfoEntry[];
  messages: MessageView[];
  /** What extensions keep on the chat. */
  metadata?: Record<string, unknown>;
  /** The imported character card's data, as it was (first_mes, mes_example, tags, extensions…). */
  card?: Record<string, unknown>;
  /** Its world info's own name and description, when a lorebook or an extension gave them. */
  book?: { name?: string; description?: string };
  /** It has a picture (a card's): its image_id is characterImageId(id). */
  hasAvatar?: boolean;
}

/** What a dry run is asked for (Lumiverse's DryRunRequestDTO, in the Workbench's names). */
export interface PreviewRequest {
  connectionId?: string;
  presetId?: string;
  generationType?: 'normal' | 'regenerate' | 'swipe' | 'continue';
  signal: AbortSignal;
  /** spindle.assemble: the prompt of the extension's blocks, only assembled. */
  assembly?: { owner: string; blocks: Record<string, unknown>[]; promptVariables: Record<string, unknown> };
}

/** The prompt a dry run built: its messages, the prompt by part, what the request would carry, and for what. */
export interface PreviewView {
  messages: Array<{ role: string; content: string }>;
  report?: PromptReport;
  parameters: Record<string, unknown>;
  model: string;
  /** The connection's provider (openai, anthropic, local…). */
  provider: string;
  cancelledBy?: string;
}

/** What an extension may change on a saved message (spindle.chat.updateMessage, in the Workbench's names). */
export interface MessagePatch {
  content?: string;
  swipes?: string[];
  swipeId?: number;
  metadata?: Record<string, unknown>;
  /** The shown reply's reasoning and its time in ms; null clears either. */
  reasoning?: { text?: string | null; duration?: number | null };
}

/** A character's fields an extension may change (Lumiverse's CharacterUpdateDTO; its world_book_ids go to the library). */
export type CharacterPatch = Omit<SpindleParams<'characters.update'>['input'], 'world_book_ids'>;

/** What the host lends: its sessions (and, during a council run, the chat it runs for). */
export interface ChatReads {
  activeId(): string | null;
  /** The chat with its messages: read whole first with whole() (a long chat is read in the background). */
  get(id: string): ChatView | null;
  /** The chat without its messages (none are read): for cards, lists and world info. */
  head(id: string): ChatView | null;
  /** Every chat without its messages. */
  list(): ChatView[];
  /** Whether the chat is a saved session (a council run's chat from elsewhere is not). */
  saved(id: string): boolean;
  /** Whether a reply is being written in it. */
  busy(id: string): boolean;
  /** Its character's picture file, or null when it has none. */
  avatarFile(id: string): string | null;
  /** Resolves once the chat is in memory whole, read a chunk at a time (the host's thread free between). */
  whole(id: string): Promise<void>;
  /** chat_mutation: adds a message to the session (with an extension's metadata), shown live in the Workbench. */
  append(id: string, message: { role: 'user' | 'assistant' | 'system'; content: string; metadata?: Record<string, unknown> }): { id: string };
  /**
   * generation: starts a reply to the session as it now is, as the person's send would (its turn id, and when it has
   * ended); with `check`, only throws why it could not (a reply being written, no connection) and starts nothing.
   */
  reply(id: string, check?: boolean): { turnId: string; settled: Promise<void> } | null;
  /** generation: the prompt a turn would send now, built and not sent (spindle.generate.dryRun). */
  preview(id: string, input: PreviewRequest): Promise<PreviewView>;
  /** chat_mutation: changes a saved message (its text, swipes, metadata), saved and shown live. */
  update(id: string, messageId: string, patch: MessagePatch): void;
  /** chat_mutation: sets the hidden flag of these messages (every id must be the session's). */
  hide(id: string, messageIds: string[], hidden: boolean): void;
  /** chat_mutation: removes a saved message. */
  remove(id: string, messageId: string): void;
  /** characters: the session's character (name, description, personality, scenario) and its card's other fields. */
  updateCharacter(id: string, patch: CharacterPatch): void;
  /** personas: the session's own persona (its name and description), saved and told as PERSONA_CHANGED. */
  updatePersona(id: string, patch: { name?: string; description?: string }): void;
  /** The personas of their own (spindle.personas.create), beside the sessions' own. */
  readonly personas: PersonaLibrary;
  /** characters.create: a new session from a card's fields (its first_mes the first reply); its id. */
  createCharacter(input: SpindleParams<'characters.create'>['input']): string;
  /** characters.setAvatar: the session's character picture (a PNG), saved and shown. */
  setAvatar(id: string, png: Buffer): Promise<void>;
  /** characters.delete: the session and its chat (a reply being written is stopped first); false when there was none. */
  deleteCharacter(id: string): Promise<boolean>;
  /** world_books: adds the entry to the session's world info, or replaces the one with its id. */
  saveEntry(id: string, entry: WorldInfoEntry): void;
  /** world_books.entries.delete: takes the entry out of the session's world info. */
  removeEntry(id: string, entryId: string): void;
  /** The world books of their own (spindle.world_books), attached to sessions by characters' world_book_ids. */
  readonly library: BookLibrary;
  /** characters' world_book_ids: these books attached to the session in place of its others (the ones applied). */
  attachBooks(id: string, bookIds: string[]): string[];
  /** chat_mutation: a new session branched from the chat at this message, as the person's Branch makes one; its id. */
  branch(id: string, messageId: string): Promise<string>;
  /** chats: renames the chat or replaces its metadata (empty: none). */
  updateChat(id: string, patch: { name?: string; metadata?: Record<string, unknown> }): void;
  /** spindle.macros.resolve: the turn's macro engine over a session (the chat's, the character's, else the active one). */
  resolveMacros(text: string, options: { chatId?: string; characterId?: string; commit?: boolean }): Promise<ResolvedMacros>;
}



const cardText = (c: ChatView, field: string): string => (typeof c.card?.[field] === 'string' ? c.card[field] : '');
const cardStrings = (c: ChatView, field: string): string[] => {
  const value = c.card?.[field];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** A character in Lumiverse's shape; `linked`: the world books attached to it (its own world info is listed after them). */
export const characterDto = (c: ChatView, linked: readonly string[] = []) => ({
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
  image_id: c.hasAvatar ? characterImageId(c.id) : null,
  world_book_ids: [...linked, ...(c.worldInfo.length ? [c.id] : [])],
  extensions: typeof c.card?.extensions === 'object' && c.card.extensions !== null && !Array.isArray(c.card.extensions) ? c.card.extensions : {},
  created_at: seconds(c.createdAt),
  updated_at: seconds(c.updatedAt),
});


const ownerOf = (c: ChatView): MessageOwner => ({ chatId: c.id, userName: c.persona.name, characterName: c.character.name });

type ChatDataHandlers = Omit<HandlersOf<'chats'>, 'chats.getMemories'> & HandlersOf<'chat'> & HandlersOf<'characters'> & HandlersOf<'personas'> & HandlersOf<'world_books'> & HandlersOf<'macros'>;

/**
 * The replies one extension starts (appendMessage's triggerGeneration), held to its generations' share: two at a time and
 * 30 a minute (generation-gate.ts's defaults), so no extension can keep every session answering.
 */
class TriggeredReplies {
  private readonly running = new UnderWay(DEFAULT_GENERATION_LIMITS.maxConcurrent);
  private readonly recent: RecentWindow;

  constructor(now: () => number) {
    this.recent = new RecentWindow(DEFAULT_GENERATION_LIMITS.maxPerMinute, 60_000, now);
  }

  admit(extensionId: string): void {
    if (this.running.full(extensionId) || this.recent.full(extensionId)) {
      fail('RATE_LIMITED', `An extension starts at most ${DEFAULT_GENERATION_LIMITS.maxConcurrent} replies at a time and ${DEFAULT_GENERATION_LIMITS.maxPerMinute} a minute; this one was not started.`, '/options');
    }
  }

  started(extensionId: string, settled: Promise<void>): void {
    this.recent.add(extensionId);
    this.running.begin(extensionId);
    void settled.finally(() => this.running.end(extensionId));
  }
}

/** chats, chat, characters, personas, world_books (their permissions: requests.ts) and macros.resolve (none, as in Lumiverse). */
export function chatDataHandlers(reads: () => ChatReads | null, now: () => number = Date.now): ChatDataHandlers {
  const all = () => reads()?.list() ?? [];
  const find = (id: string) => reads()?.head(id) ?? null;
  const active = () => {
    const r = reads();
    const id = r?.activeId();
    return id ? (r!.head(id) ?? null) : null;
  };
  const existing = (id: string) => find(id) ?? fail('NOT_FOUND', `No chat ${id}.`, '/chatId');
  /** A call that reads or changes the chat's messages waits for it to be read whole in the background first. */
  const wholeChat = async (id: string) => {
    await reads()?.whole(id);
    return reads()?.get(id) ?? fail('NOT_FOUND', `No chat ${id}.`, '/chatId');
  };
  const changing = async (id: string) => (await wholeChat(id)).id;
  const dto = <T>(c: ChatView | null, to: (c: ChatView) => T) => (c ? to(c) : null);
  // A branch is its origin's character's chat, as in Lumiverse (Tapestry draws a character's chats as one tree).
  const rootOf = (id: string) => branchRoot(id, find);
  const lineDto = (c: ChatView) => chatDto(c, rootOf(c.id));
  /** Every chat with its character (its line's origin), from one read of the list. */
  const lines = () => {
    const chats = all();
    const byId = new Map(chats.map((c) => [c.id, c]));
    const root = (id: string) => branchRoot(id, (chat) => byId.get(chat) ?? null);
    return { listed: chats.map((c) => ({ c, character: root(c.id) })), root };
  };
  const character = (c: ChatView) => characterDto(c, reads()?.library.linked(c.id) ?? []);
  // The session's own world info (its id) is always its own: an id list written back with it leaves it as it is.
  const attach = (id: string, books: string[]) => reads()!.attachBooks(id, books.filter((book) => book !== id));
  const replies = new TriggeredReplies(now);
  return {
    'chats.getActive': () => dto(active(), lineDto),
    'chats.get': ({ chatId }) => dto(find(chatId), lineDto),
    // A character's chats: the session that is its character and the branches made from it (any of them names the line).
    'chats.list': ({ options }) => {
      const { listed, root } = lines();
      const character = options?.characterId === undefined ? undefined : root(options.characterId);
      return page(listed.filter((line) => character === undefined || line.character === character).map((line) => chatDto(line.c, line.character)), options);
    },
    'chats.update': async ({ chatId, input }) => {
      withinMetadataCap(input.metadata, "A chat's metadata is", '/input/metadata', SESSION_LIMITS.chatMetadata);
      reads()!.updateChat(await changing(chatId), input);
      return lineDto(existing(chatId));
    },
    'chat.getMessages': async ({ chatId }) => {
      const c = await wholeChat(chatId);
      return c.messages.map((m, i) => messageDto(ownerOf(c), m, i));
    },
    'chat.appendMessage': async ({ chatId, message, options }, caller) => {
      withinMetadataCap(message.metadata, "A message's metadata is", '/message/metadata');
      const generate = options === true || (typeof options === 'object' && options.triggerGeneration === true);
      if (generate && !caller.allowed('generation')) fail('PERMISSION_DENIED', 'generation — chat.appendMessage with triggerGeneration needs the generation permission.', '/options');
      const id = await changing(chatId);
      // Whether the reply can start (none being written, a connection, within the extension's share) is asked before
      // anything is appended: a refusal leaves the chat as it was.
      if (generate) {
        replies.admit(caller.extensionId);
        reads()!.reply(id, true);
      }
      const appended = reads()!.append(id, { role: message.role, content: message.content, ...(message.metadata ? { metadata: message.metadata } : {}) });
      if (!generate) return appended;
      const started = reads()!.reply(id)!;
      replies.started(caller.extensionId, started.settled);
      return { ...appended, generationId: started.turnId };
    },
    'chat.updateMessage': async ({ chatId, messageId, patch }) => {
      // skipChunkRebuild has nothing to act on here: the Workbench keeps no chat memory chunks.
      withinMetadataCap(patch.metadata, "A message's metadata is", '/patch/metadata');
      reads()!.update(await changing(chatId), messageId, {
        ...(patch.content !== undefined ? { content: patch.content } : {}),
        ...(patch.swipes !== undefined ? { swipes: patch.swipes } : {}),
        ...(patch.swipe_id !== undefined ? { swipeId: patch.swipe_id } : {}),
        ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        ...(patch.reasoning !== undefined ? { reasoning: patch.reasoning } : {}),
      });
      return null;
    },
    'chat.deleteMessage': async ({ chatId, messageId }) => {
      reads()!.remove(await changing(chatId), messageId);
      return null;
    },
    'chat.setMessageHidden': async ({ chatId, messageId, hidden }) => {
      reads()!.hide(await changing(chatId), [messageId], hidden);
      return null;
    },
    'chat.setMessagesHidden': async ({ chatId, messageIds, hidden }) => {
      reads()!.hide(await changing(chatId), messageIds, hidden);
      return null;
    },
    // Accepted as Lumiverse accepts it, and nothing to do: a message's HTML is drawn in an island of its own, as tall as
    // it draws, which may never reach over the app (README, HTML in messages), in either mode.
    'chat.setStyleMode': () => null,
    'chat.isMessageHidden': async ({ chatId, messageId }) => {
      const message = (await wholeChat(chatId)).messages.find((m) => m.id === messageId) ?? fail('NOT_FOUND', `The chat has no message ${messageId}.`, '/messageId');
      return message.hidden === true;
    },
    'characters.get': ({ characterId }) => dto(find(characterId), character),
    // A branch is its origin's character's chat, not a character of its own.
    'characters.list': ({ options }) => page(lines().listed.filter((line) => line.character === line.c.id).map((line) => character(line.c)), options),
    'characters.create': ({ input }) => {
      const r = reads() ?? fail('UNSUPPORTED_HERE', 'Characters are sessions of the Workbench chat, which this host does not run.');
      const { world_book_ids: books, ...fields } = input;
      const id = r.createCharacter(fields);
      if (books) attach(id, books);
      return character(existing(id));
    },
    'characters.setAvatar': async ({ characterId, avatar }) => {
      const bytes = Buffer.from(avatar.data, 'base64');
      // A session keeps its character's picture as a PNG (a card's); another kind would not go back out in a card.
      if (imageMime(bytes) !== 'image/png') fail('INVALID_INPUT', "A character's picture is kept here as a PNG; convert it first.", '/avatar/data');
      await reads()!.setAvatar(await changing(characterId), bytes);
      return character(existing(characterId));
    },
    'characters.delete': async ({ characterId }) => (await reads()?.deleteCharacter(characterId)) ?? false,
    'characters.update': async ({ characterId, input }) => {
      const { world_book_ids: books, ...patch } = input;
      withinMetadataCap(patch.extensions, "A character's extensions are", '/input/extensions');
      const id = await changing(characterId);
      if (Object.keys(patch).length) reads()!.updateCharacter(id, patch);
      // Lumiverse's rule: the list replaces the one it had; [] detaches all; absent leaves it.
      if (books) attach(id, books);
      return character(existing(characterId));
    },
    ...personaHandlers({ reads, all, active }),
    ...worldBookHandlers({ reads, all, find, changing, read: wholeChat }),
    'macros.resolve': ({ template, options }) => {
      if (template.length > 2_000_000) fail('INPUT_TOO_LARGE', 'spindle.macros.resolve takes at most 2,000,000 characters.', '/template');
      const chats = reads();
      if (!chats) return { text: template, diagnostics: [{ message: 'No chat is available to resolve macros against.', offset: 0, length: 0 }] };
      return chats.resolveMacros(template, {
        ...(options?.chatId !== undefined ? { chatId: options.chatId } : {}),
        ...(options?.characterId !== undefined ? { characterId: options.characterId } : {}),
        ...(options?.commit !== undefined ? { commit: options.commit } : {}),
      });
    },
  };
}
