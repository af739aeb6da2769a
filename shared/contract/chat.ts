// Workbench chat methods: sessions (list, get, create, update, rename, delete, export, import) and turns (send, stop, regenerate).
import { Type } from '@sinclair/typebox';
import {
  CharacterSchema,
  ChatSessionSchema,
  ChatSessionSummarySchema,
  PersonaSchema,
  SamplingSchema,
  SESSION_LIMITS,
  SESSION_PAGE,
  WorldInfoEntrySchema,
} from '../types/chat';
import { endpoint } from '../rpc/endpoint';
import { SESSION_EXPORT_FORMATS } from '../export-formats';

const SessionId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
const ById = Type.Object({ sessionId: SessionId }, { additionalProperties: false });
const MessageId = Type.String({ minLength: 1, maxLength: 64 });

/** chat.regenerate and chat.continue: a turn over the saved reply, with chat.send's options but the text. */
const ReworkInput = Type.Object(
  {
    sessionId: SessionId,
    council: Type.Optional(Type.Boolean()),
    /** As chat.send's toolDryRun. */
    toolDryRun: Type.Optional(Type.Boolean()),
    connectionId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** chat.regenerate: the person swiped past the last reply (extensions hear Lumiverse's generation type `swipe`). */
    swipe: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const PromptMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant'), Type.Literal('tool')]),
  content: Type.String(),
});

export const TurnStartedSchema = Type.Object({
  turnId: Type.String(),
  sessionId: Type.String(),
  /** The user's message (absent for regenerate). */
  userMessageId: Type.Optional(Type.String()),
  /** The assistant message the turn streams into (chat.delta.messageId). */
  assistantMessageId: Type.String(),
  /** dryRun only: the prompt that would be sent, and the function names offered. */
  prompt: Type.Optional(Type.Array(PromptMessageSchema)),
  tools: Type.Optional(Type.Array(Type.String())),
});

const SessionPatchSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.title })),
    character: Type.Optional(CharacterSchema),
    persona: Type.Optional(PersonaSchema),
    worldInfo: Type.Optional(Type.Array(WorldInfoEntrySchema, { maxItems: SESSION_LIMITS.worldInfoEntries })),
    /** The session's own connection and model ('' = follow the chat settings' default). */
    connectionId: Type.Optional(Type.String({ maxLength: 64 })),
    model: Type.Optional(Type.String({ maxLength: 200 })),
    /** The session's Council and Dry run switches (kept with the session; chat.send defaults to them). */
    council: Type.Optional(Type.Boolean()),
    dryRun: Type.Optional(Type.Boolean()),
    /** The session's sampling for the main model (replaces the whole set; {} follows the connection's default). */
    sampling: Type.Optional(SamplingSchema),
  },
  { additionalProperties: false },
);

/** A whole file as base64 (an import call may carry several MB: see shared/limits). */
const Base64File = Type.String({ minLength: 1 });

const ImportSummaryFields = {
  kind: Type.Union([Type.Literal('card'), Type.Literal('st-chat'), Type.Literal('session')]),
  characterName: Type.String(),
  greetings: Type.Integer(),
  worldInfoEntries: Type.Integer(),
  messages: Type.Integer(),
  /** World-info fields kept but not acted on here (position, depth, probability…). */
  ignored: Type.Array(Type.String()),
  /** The card's picture came with it. */
  avatar: Type.Boolean(),
  /** Lorebook entries that repeat ones already there (a card's own book imported beside it): kept once. */
  duplicateEntries: Type.Integer({ minimum: 0 }),
  /** The card's regex scripts that became rules of the session (of this character). */
  regexScripts: Type.Integer({ minimum: 0 }),
  /** The card's scripts left out, each with why (the card keeps them as written). */
  regexSkipped: Type.Array(Type.String()),
  /** What of a chat did not come in (swipes past the cap, fields too large), each said once. */
  notes: Type.Array(Type.String()),
};
const ImportedSessionSchema = Type.Object({ id: Type.String(), ...ImportSummaryFields });

const ExportFormatSchema = Type.Union(SESSION_EXPORT_FORMATS.map((f) => Type.Literal(f)));

export const chatMethods = {
  'chat.sessions.list': endpoint({ description: 'Every Workbench session, newest first.', params: Type.Object({}, { additionalProperties: false }), result: Type.Array(ChatSessionSummarySchema) }),
  'chat.sessions.get': endpoint({ description: 'One session with its messages.', params: ById, result: ChatSessionSchema }),
  'chat.sessions.window': endpoint({
    description: `One session with the messages from index start up to end (exclusive): without end, up to the newest; without start, the ${SESSION_PAGE} before end; with around, the page around that message. The window reads only the messages it answers.`,
    params: Type.Object(
      {
        sessionId: SessionId,
        start: Type.Optional(Type.Integer({ minimum: 0 })),
        end: Type.Optional(Type.Integer({ minimum: 0 })),
        around: Type.Optional(MessageId),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        session: ChatSessionSchema,
        start: Type.Integer({ minimum: 0 }),
        total: Type.Integer({ minimum: 0 }),
        /** A branch's origin: the session it was first branched from, its character to extensions (util/branch-root.ts). */
        origin: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
  }),
  'chat.sessions.create': endpoint({ description: 'A new session; the character, persona and world info may be given or filled in later.', params: Type.Object(
      {
        title: Type.Optional(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.title })),
        character: Type.Optional(CharacterSchema),
        persona: Type.Optional(PersonaSchema),
        worldInfo: Type.Optional(Type.Array(WorldInfoEntrySchema, { maxItems: SESSION_LIMITS.worldInfoEntries })),
      },
      { additionalProperties: false },
    ), result: ChatSessionSchema }),
  'chat.sessions.update': endpoint({ description: "Replace a session's title, character, persona or world info.", params: Type.Object({ sessionId: SessionId, patch: SessionPatchSchema }, { additionalProperties: false }), result: ChatSessionSchema }),
  'chat.sessions.rename': endpoint({ description: 'Give a session a new title.', params: Type.Object({ sessionId: SessionId, title: Type.String({ minLength: 1, maxLength: SESSION_LIMITS.title }) }, { additionalProperties: false }), result: ChatSessionSummarySchema }),
  'chat.sessions.open': endpoint({ description: 'The session the person has open (null: none); extensions hear CHAT_SWITCHED when the active chat changes.', params: Type.Object({ sessionId: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]) }, { additionalProperties: false }), result: Type.Object({ active: Type.Union([Type.String(), Type.Null()]) }) }),
  'chat.sessions.delete': endpoint({ description: 'Delete a session (stops its generation first).', params: ById, result: Type.Object({ deleted: Type.Boolean() }) }),
  'chat.sessions.export': endpoint({ description: 'A session as a JSON document to save to a file.', params: ById, result: Type.Object({ fileName: Type.String(), json: Type.String() }) }),
  'chat.sessions.import': endpoint({ description: 'Add a session from an exported JSON document; validated, errors name the field. It gets a new id when the id is taken.', params: Type.Object({ json: Type.String({ minLength: 1 }) }, { additionalProperties: false }), result: ChatSessionSummarySchema }),
  'chat.sessions.importFile': endpoint({ description: 'A new session from a file the host reads from disk (command line only): a character card (PNG with a chara/ccv3 chunk, or V1/V2/V3 JSON), a SillyTavern chat (.jsonl) or an exported session.', params: Type.Object(
      {
        path: Type.String({ minLength: 1, maxLength: 4096 }),
        greeting: Type.Optional(Type.Integer({ minimum: 0 })),
        /** SillyTavern world-info files whose entries join the session's world info. */
        lorebooks: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { maxItems: 20 })),
      },
      { additionalProperties: false },
    ), result: ImportedSessionSchema }),
  'chat.sessions.inspectData': endpoint({ description: 'What importing a file would give (kind, character, greetings to choose from, world info, messages), creating nothing.', params: Type.Object({ data: Base64File, lorebooks: Type.Optional(Type.Array(Base64File, { maxItems: 20 })) }, { additionalProperties: false }), result: Type.Object({ ...ImportSummaryFields, greetingTexts: Type.Array(Type.String()) }) }),
  'chat.sessions.importData': endpoint({ description: 'A new session from a file the window sends (base64): a character card (PNG or JSON), a SillyTavern chat (.jsonl) or an exported session; greeting picks the first message.', params: Type.Object(
      { data: Base64File, greeting: Type.Optional(Type.Integer({ minimum: 0 })), lorebooks: Type.Optional(Type.Array(Base64File, { maxItems: 20 })) },
      { additionalProperties: false },
    ), result: ImportedSessionSchema }),
  'chat.sessions.addLorebook': endpoint({ description: "Add a SillyTavern lorebook's entries (old or modern fields) to a session's world info; entries it already holds are kept once (duplicates).", params: Type.Object({ sessionId: SessionId, content: Type.String({ minLength: 1 }) }, { additionalProperties: false }), result: Type.Object({ added: Type.Integer(), duplicates: Type.Integer({ minimum: 0 }), worldInfoEntries: Type.Integer(), ignored: Type.Array(Type.String()) }) }),
  'chat.sessions.avatar': endpoint({ description: "The session's character picture as a data URL, or null.", params: ById, result: Type.Object({ dataUrl: Type.Union([Type.String(), Type.Null()]) }) }),
  'chat.sessions.exportAs': endpoint({ description: 'A session as a file: the Workbench JSON, a V2 or V3 character card (JSON, or PNG with the picture), or a SillyTavern chat (.jsonl). PNG content is base64.', params: Type.Object({ sessionId: SessionId, format: ExportFormatSchema }, { additionalProperties: false }), result: Type.Object({ fileName: Type.String(), content: Type.String(), encoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]) }) }),
  'chat.send': endpoint({ description: "Add a user message and stream the reply as chat.* events. council: run the council first (default: the session's Council switch, else the council mode setting). dryRun: build the prompt only (default: the session's Dry run switch).", params: Type.Object(
      {
        sessionId: SessionId,
        text: Type.String({ minLength: 1, maxLength: 200_000 }),
        council: Type.Optional(Type.Boolean()),
        dryRun: Type.Optional(Type.Boolean()),
        /** Simulate write tools in this turn's council run and inline calls (default: settings.safety.dryRun). Not the prompt-only dryRun. */
        toolDryRun: Type.Optional(Type.Boolean()),
        /** This turn only: another connection or model than the chat settings' (the CLI uses these). */
        connectionId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
        model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      },
      { additionalProperties: false },
    ), result: TurnStartedSchema }),
  'chat.stop': endpoint({ description: "Stop the session's running generation; the partial reply is kept and marked stopped.", params: ById, result: Type.Object({ stopped: Type.Boolean() }) }),
  'chat.regenerate': endpoint({ description: 'A new reply to the last user message, added as a swipe of the last reply (the old one is kept; reusing the council results when toolsSettings.retainResultsForRegens is on).', params: ReworkInput, result: TurnStartedSchema }),
  'chat.worldBooks.list': endpoint({ description: "The world books of their own (made by extensions: spindle.world_books), each with its entry count and whether it applies to every chat, and those attached to a session's character.", params: Type.Object({ sessionId: SessionId }, { additionalProperties: false }), result: Type.Object({ books: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), entries: Type.Integer(), global: Type.Boolean() })), attached: Type.Array(Type.String()) }) }),
  'chat.worldBooks.attach': endpoint({ description: "The world books attached to a session's character, in place of the ones it had (ids of no book are dropped); a turn reads their entries beside its own world info.", params: Type.Object({ sessionId: SessionId, bookIds: Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64 }) }, { additionalProperties: false }), result: Type.Object({ attached: Type.Array(Type.String()) }) }),
  'chat.worldBooks.setGlobal': endpoint({ description: 'The world books that apply to every chat, in place of the ones that did.', params: Type.Object({ bookIds: Type.Array(Type.String({ maxLength: 128 }), { maxItems: 256 }) }, { additionalProperties: false }), result: Type.Object({ global: Type.Array(Type.String()) }) }),
  'chat.reply': endpoint({ description: "A new reply to the session as it is, with no new message from the person (Lumiverse's Send on an empty box: 'Nudge for a fresh reply'); chat.* events as for chat.send.", params: ReworkInput, result: TurnStartedSchema }),
  'chat.continue': endpoint({ description: 'Ask the model to go on from the last reply; what it writes is added to that reply (chat.* events as for chat.send).', params: ReworkInput, result: TurnStartedSchema }),
  'chat.messages.edit': endpoint({ description: "Replace a message's text (a reply's shown swipe with it); extensions hear MESSAGE_EDITED.", params: Type.Object({ sessionId: SessionId, messageId: MessageId, content: Type.String({ maxLength: SESSION_LIMITS.messageContent }) }, { additionalProperties: false }), result: ChatSessionSchema }),
  'chat.messages.delete': endpoint({ description: 'Delete one message; extensions hear MESSAGE_DELETED.', params: Type.Object({ sessionId: SessionId, messageId: MessageId }, { additionalProperties: false }), result: ChatSessionSchema }),
  'chat.messages.swipe': endpoint({ description: "Show another of a reply's swipes: by index, or the one to the left or right (past either end nothing changes); extensions hear MESSAGE_SWIPED.", params: Type.Object(
      {
        sessionId: SessionId,
        messageId: MessageId,
        swipeId: Type.Optional(Type.Integer({ minimum: 0 })),
        direction: Type.Optional(Type.Union([Type.Literal('left'), Type.Literal('right')])),
      },
      { additionalProperties: false },
    ), result: ChatSessionSchema }),
  'chat.sessions.branch': endpoint({ description: 'A new session holding the messages up to and including this one; the original is unchanged.', params: Type.Object({ sessionId: SessionId, messageId: MessageId }, { additionalProperties: false }), result: ChatSessionSchema }),
  'chat.sessions.search': endpoint({ description: 'Find text in every session (or one): titles, character names and messages, any case and accents; newest sessions first, each hit with a snippet.', params: Type.Object(
      {
        query: Type.String({ minLength: 1, maxLength: 200 }),
        sessionId: Type.Optional(SessionId),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      },
      { additionalProperties: false },
    ), result: Type.Object({
      hits: Type.Array(
        Type.Object({
          sessionId: Type.String(),
          title: Type.String(),
          characterName: Type.String(),
          messageId: Type.Union([Type.String(), Type.Null()]),
          index: Type.Union([Type.Integer(), Type.Null()]),
          role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Null()]),
          before: Type.String(),
          match: Type.String(),
          after: Type.String(),
        }),
      ),
      /** More hits than the limit: narrow the search. */
      more: Type.Boolean(),
    }) }),
  'chat.macros': endpoint({ description: 'Every macro a turn can use, with its owner and current value (null: computed by its handler at each turn).', params: Type.Object({ sessionId: Type.Optional(SessionId) }, { additionalProperties: false }), result: Type.Array(Type.Object({ name: Type.String(), owner: Type.String(), description: Type.String(), value: Type.Union([Type.String(), Type.Null()]) })) }),
};

/** The chat.* methods for session files in other apps' formats (cards, lorebooks, SillyTavern chats): the imports' handlers answer them. */
export type SessionFileMethod = 'chat.sessions.importFile' | 'chat.sessions.inspectData' | 'chat.sessions.importData' | 'chat.sessions.addLorebook' | 'chat.sessions.exportAs';
