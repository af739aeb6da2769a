// Workbench chat: sessions (character, persona, world info, messages), their tool-call records and prompt reports, and the chat settings. Live events: chat-events.ts.
import { Type, type Static } from '@sinclair/typebox';

export const SESSION_FORMAT = 'council-workbench/session';
export const SESSION_VERSION = 1;

/**
 * Sized for the files people publish, with margin: the largest cards' fields run to a few hundred thousand
 * characters, the largest lorebooks to a few thousand entries, long chats to tens of thousands of messages.
 * The caps protect memory; a file past one is refused whole, with the field named (README, "Caps").
 */
export const SESSION_LIMITS = {
  title: 200,
  name: 1000,
  text: 1_000_000,
  worldInfoEntries: 5000,
  keywords: 500,
  keyword: 1000,
  messages: 50_000,
  messageContent: 4 * 1024 * 1024,
  toolCalls: 64,
  swipes: 100,
  /** A reply's `source` or a message's `line` (an imported line's other fields), as JSON. */
  source: 64 * 1024,
  /**
   * A chat's metadata as JSON (its variables, what extensions keep on it): Lumiverse sets no cap, and a story
   * tracker's state kept in one chat variable grows past hundreds of KB (Story Engine).
   */
  chatMetadata: 4 * 1024 * 1024,
} as const;

/** Messages the window reads at a time: a chat opens with its newest page, and older ones come a page at a time. */
export const SESSION_PAGE = 60;

const Short = (max: number) => Type.String({ maxLength: max });

export const CharacterSchema = Type.Object(
  {
    name: Short(SESSION_LIMITS.name),
    description: Short(SESSION_LIMITS.text),
    personality: Short(SESSION_LIMITS.text),
    scenario: Short(SESSION_LIMITS.text),
  },
  { additionalProperties: false },
);

export const PersonaSchema = Type.Object(
  {
    name: Short(SESSION_LIMITS.name),
    description: Short(SESSION_LIMITS.text),
  },
  { additionalProperties: false },
);

export const WorldInfoEntrySchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.keyword }), { maxItems: SESSION_LIMITS.keywords }),
    content: Short(SESSION_LIMITS.text),
    enabled: Type.Boolean(),
    /**
     * Set on entries imported from SillyTavern or a card book, which follow its rules: `constant` entries always
     * fire, and an entry with no keywords that is not constant never does. Entries without it (the Workbench's
     * own) fire always when they have no keywords.
     */
    constant: Type.Optional(Type.Boolean()),
    /** With `selectiveLogic`, a second set of keywords that must (or must not) appear too. */
    secondaryKeywords: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.keyword }), { maxItems: SESSION_LIMITS.keywords })),
    selectiveLogic: Type.Optional(Type.Union([Type.Literal('and_any'), Type.Literal('and_all'), Type.Literal('not_any'), Type.Literal('not_all')])),
    caseSensitive: Type.Optional(Type.Boolean()),
    /** A keyword matches whole words only (SillyTavern's rule: bounded by non-word characters). Unset: on for the Workbench's own entries; imported ones say. */
    wholeWords: Type.Optional(Type.Boolean()),
    /** Lower first, as SillyTavern orders insertions. */
    order: Type.Optional(Type.Number()),
    /** How many recent messages its keywords are looked for in (default 4). */
    scanDepth: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    /** Sessions from before `source`: the fields the Workbench did not act on, kept for export. */
    extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** What extensions keep on the entry (spindle.world_books.entries: its comment and extensions), handed back as they left them. */
    comment: Type.Optional(Type.String({ maxLength: SESSION_LIMITS.name })),
    extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /**
     * Lumiverse's entry fields an extension wrote that the Workbench does not act on (position, depth, groups…), under
     * Lumiverse's names: handed back to extensions, never exported (shared/spindle/world-entry-fields.ts).
     */
    lumiverse: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /**
     * The entry as its file had it, verbatim, and that file's shape (SillyTavern's world-info file or a card's
     * book): an export writes back every field nobody edited exactly as it came.
     */
    source: Type.Optional(
      Type.Object({ shape: Type.Union([Type.Literal('file'), Type.Literal('card')]), entry: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

/** One tool call the assistant made in inline mode, with its result as the model saw it. */
export const ChatToolCallRecordSchema = Type.Object(
  {
    id: Type.String({ maxLength: 200 }),
    /** The function name the model used (provider-safe). */
    name: Type.String({ maxLength: 200 }),
    /** The registry tool it maps to, when known. */
    qualifiedName: Type.Union([Type.String({ maxLength: 300 }), Type.Null()]),
    argsText: Type.String({ maxLength: 1024 * 1024 }),
    ok: Type.Boolean(),
    /** The tool's output, or the error text returned to the model. */
    result: Type.String({ maxLength: 1024 * 1024 }),
    errorCode: Type.Optional(Type.String({ maxLength: 64 })),
    round: Type.Integer({ minimum: 1 }),
    /** How much of the reply's text came before the call (where its card sits); how long it ran; the member it was offered for. */
    textOffset: Type.Optional(Type.Integer({ minimum: 0 })),
    durationMs: Type.Optional(Type.Number({ minimum: 0 })),
    memberName: Type.Optional(Type.String({ maxLength: 200 })),
    /** Dry run: simulated write (unvalidated = the placeholder); cached = from the tool's result cache. */
    simulated: Type.Optional(Type.Boolean()),
    unvalidated: Type.Optional(Type.Boolean()),
    cached: Type.Optional(Type.Boolean()),
    /** The model called a tool when none was offered: nothing ran (shown quietly unless chat.showUnofferedToolCalls). */
    unoffered: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** One stage of a turn's prompt breakdown: what ran, for how long, and what it changed (the messages before and after). */
export const TurnStageSchema = Type.Object(
  {
    stage: Type.String({ maxLength: 64 }),
    /** 'host', or the extension that did it. */
    by: Type.String({ maxLength: 200 }),
    ms: Type.Number(),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    before: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
    after: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
  },
  { additionalProperties: false },
);
export type TurnStage = Static<typeof TurnStageSchema>;

/**
 * Sampling for the main model: per session, over the connection's default (chat settings). contextSize is the
 * prompt budget in tokens (the reply's maxTokens are kept free within it); stop: strings that end the reply.
 */
export const SAMPLING_RANGES = {
  temperature: { min: 0, max: 2 },
  topP: { min: 0, max: 1 },
  maxTokens: { min: 1, max: 1_000_000 },
  contextSize: { min: 256, max: 10_000_000 },
  stop: { items: 16, length: 200 },
} as const;

export const SamplingSchema = Type.Object(
  {
    temperature: Type.Optional(Type.Number({ minimum: SAMPLING_RANGES.temperature.min, maximum: SAMPLING_RANGES.temperature.max })),
    topP: Type.Optional(Type.Number({ minimum: SAMPLING_RANGES.topP.min, maximum: SAMPLING_RANGES.topP.max })),
    maxTokens: Type.Optional(Type.Integer({ minimum: SAMPLING_RANGES.maxTokens.min, maximum: SAMPLING_RANGES.maxTokens.max })),
    contextSize: Type.Optional(Type.Integer({ minimum: SAMPLING_RANGES.contextSize.min, maximum: SAMPLING_RANGES.contextSize.max })),
    stop: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: SAMPLING_RANGES.stop.length }), { maxItems: SAMPLING_RANGES.stop.items })),
  },
  { additionalProperties: false },
);
export type Sampling = Static<typeof SamplingSchema>;

/** Why a world-info entry is in a turn's prompt: always on, or a keyword found in a message of the history. */
export const WorldInfoHitSchema = Type.Object(
  {
    id: Type.String({ maxLength: 64 }),
    /** The entry's first keyword, or the start of its text. */
    label: Type.String({ maxLength: 120 }),
    trigger: Type.Union([Type.Literal('constant'), Type.Literal('always'), Type.Literal('keyword')]),
    keyword: Type.Optional(Type.String({ maxLength: 1000 })),
    /** The history message (index, role) the keyword was found in. */
    messageIndex: Type.Optional(Type.Integer({ minimum: 0 })),
    role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('assistant')])),
    /** false: it fired but did not fit the world-info budget, so it was left out. */
    included: Type.Boolean(),
    tokens: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** A turn's prompt by part, in estimated tokens, with what the context budget left out (prompt-budget.ts). */
export const PromptReportSchema = Type.Object(
  {
    parts: Type.Object(
      {
        system: Type.Integer({ minimum: 0 }),
        character: Type.Integer({ minimum: 0 }),
        worldInfo: Type.Integer({ minimum: 0 }),
        deliberation: Type.Integer({ minimum: 0 }),
        history: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    total: Type.Integer({ minimum: 0 }),
    /** The budget, when the session or connection sets a context size: contextSize minus the reply's maxTokens. */
    budget: Type.Optional(Type.Integer({ minimum: 0 })),
    contextSize: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The oldest history messages left out to fit. */
    cutMessages: Type.Integer({ minimum: 0 }),
    worldInfo: Type.Array(WorldInfoHitSchema, { maxItems: SESSION_LIMITS.worldInfoEntries }),
  },
  { additionalProperties: false },
);
export type PromptReport = Static<typeof PromptReportSchema>;
export type WorldInfoHit = Static<typeof WorldInfoHitSchema>;

/** What one reply holds: a message's own fields, and each of its swipes (the alternatives regenerate adds). */
const ReplyFields = {
  content: Type.String({ maxLength: SESSION_LIMITS.messageContent }),
  createdAt: Type.Number(),
  /** assistant: stopped by the user (content is what streamed before Stop). */
  stopped: Type.Optional(Type.Boolean()),
  /** assistant: the generation failed; content is what streamed before the error. */
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
  finishReason: Type.Optional(Type.String({ maxLength: 32 })),
  /** assistant: inline tool calls made while producing this message. */
  toolCalls: Type.Optional(Type.Array(ChatToolCallRecordSchema, { maxItems: SESSION_LIMITS.toolCalls })),
  /** assistant: the council run whose deliberation informed this message. */
  councilRunId: Type.Optional(Type.String({ maxLength: 200 })),
  /** assistant: the connection and model that produced it. */
  connectionId: Type.Optional(Type.String({ maxLength: 64 })),
  model: Type.Optional(Type.String({ maxLength: 200 })),
  /** assistant: the turn's stages in order (the prompt breakdown). */
  trace: Type.Optional(Type.Array(TurnStageSchema, { maxItems: 200 })),
  /** assistant: the prompt by part, the context budget and the world-info activation log. */
  prompt: Type.Optional(PromptReportSchema),
  /** assistant: what a reasoning model thought before it answered (never part of a prompt), and for how long, in ms. */
  reasoning: Type.Optional(Type.String({ maxLength: SESSION_LIMITS.messageContent })),
  reasoningMs: Type.Optional(Type.Number({ minimum: 0 })),
  /**
   * What the imported file kept for this reply besides its text, time and reasoning (SillyTavern's per-swipe `extra`,
   * `gen_started`…), at most SESSION_LIMITS.source characters as JSON: written back on export; its `extra` is the
   * message's extra for extensions.
   */
  source: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};

/** One alternative of a reply, as complete as the reply itself (its tool calls and breakdown stay with it). */
export const ChatSwipeSchema = Type.Object(ReplyFields, { additionalProperties: false });

export const ChatMessageSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
    ...ReplyFields,
    /**
     * assistant: every alternative of the reply, the shown one included (its fields are the message's own).
     * Absent until a regenerate adds the second; swipeId is the shown one's index.
     */
    swipes: Type.Optional(Type.Array(ChatSwipeSchema, { maxItems: SESSION_LIMITS.swipes })),
    swipeId: Type.Optional(Type.Integer({ minimum: 0 })),
    /** What extensions keep on the message (spindle.chat.updateMessage's metadata), handed back as they left it. */
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /**
     * What extensions' message content processors added to the message (Lumiverse's `extra`, which they read back
     * there): its swipes share it. At most 256 KB as JSON (content-processors.ts).
     */
    extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /**
     * Hidden by an extension (spindle.chat.setMessageHidden). As in Lumiverse (extra.hidden), the prompt's history
     * skips it and chat memory does not recall it; it stays in the chat.
     */
    hidden: Type.Optional(Type.Boolean()),
    /**
     * What the imported line kept for the message as a whole (SillyTavern's `force_avatar`, `title`, a speaker's `name`
     * other than the chat's…), at most SESSION_LIMITS.source characters as JSON: no swipe change moves it; written back.
     */
    line: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const ChatSessionSchema = Type.Object(
  {
    format: Type.Literal(SESSION_FORMAT),
    version: Type.Literal(SESSION_VERSION),
    id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    title: Short(SESSION_LIMITS.title),
    createdAt: Type.Number(),
    updatedAt: Type.Number(),
    character: CharacterSchema,
    persona: PersonaSchema,
    worldInfo: Type.Array(WorldInfoEntrySchema, { maxItems: SESSION_LIMITS.worldInfoEntries }),
    messages: Type.Array(ChatMessageSchema, { maxItems: SESSION_LIMITS.messages }),
    /** The connection and model that answer in this session (else the chat settings' default, pinned at the first turn). */
    connectionId: Type.Optional(Type.String({ maxLength: 64 })),
    model: Type.Optional(Type.String({ maxLength: 200 })),
    /** The title was given or edited by the person; otherwise the first message names the session. */
    titleSet: Type.Optional(Type.Boolean()),
    /** The session's Council switch: run the council before each reply (absent: the council mode setting). */
    council: Type.Optional(Type.Boolean()),
    /** The session's Dry run switch: each message builds the prompt and shows it instead of calling the model. */
    dryRun: Type.Optional(Type.Boolean()),
    /** The session's sampling (over its connection's default). */
    sampling: Type.Optional(SamplingSchema),
    /** What extensions keep on the chat (spindle.chats.update's metadata), handed back as they left it. */
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** The character card this session came from, as it was (its spec and data): kept so an export back to a card loses nothing. */
    card: Type.Optional(
      Type.Object(
        {
          spec: Type.String({ maxLength: 32 }),
          data: Type.Record(Type.String(), Type.Unknown()),
          /** The card's fields outside `data` (create_date, avatar, chat, the V1 copies SillyTavern writes…); a V1 card's are all of it. */
          top: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * The book-level fields of the lorebook files imported into it (its name, description, extensions…; the first's
     * win), for export. An extension's world_books.create names it when nothing has.
     */
    worldInfoBook: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** The character's picture (a PNG card's image), kept beside the session file; read with chat.sessions.avatar. */
    avatar: Type.Optional(Type.Object({ type: Type.Literal('image/png'), bytes: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export type Character = Static<typeof CharacterSchema>;
export type Persona = Static<typeof PersonaSchema>;
export type WorldInfoEntry = Static<typeof WorldInfoEntrySchema>;
export type ChatToolCallRecord = Static<typeof ChatToolCallRecordSchema>;
export type ChatMessage = Static<typeof ChatMessageSchema>;
export type ChatSwipe = Static<typeof ChatSwipeSchema>;
export type ChatSession = Static<typeof ChatSessionSchema>;

export const ChatSessionSummarySchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  characterName: Type.String(),
  messageCount: Type.Integer(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
  /** A generation is running for this session right now. */
  busy: Type.Boolean(),
});
export type ChatSessionSummary = Static<typeof ChatSessionSummarySchema>;

// ---------------------------------------------------------------------------------------------
// Settings section

export const CHAT_DEFAULTS = { inlineMaxRounds: 3 } as const;
export const INLINE_MAX_ROUNDS_LIMIT = 10;

export const ChatSettingsSchema = Type.Object(
  {
    /** The main generation's connection profile id ('' = none chosen yet). */
    mainConnectionId: Type.String({ maxLength: 64 }),
    /** Model override ('' = the connection's default model). */
    model: Type.String({ maxLength: 200 }),
    /** Inline mode: most tool rounds per reply. */
    inlineMaxRounds: Type.Integer({ minimum: 1, maximum: INLINE_MAX_ROUNDS_LIMIT }),
    /** Build the prompt and emit it instead of calling the model. */
    dryRun: Type.Optional(Type.Boolean()),
    /** Show in full the calls a model makes to tools nobody offered (otherwise one quiet line, as SillyTavern hides them). */
    showUnofferedToolCalls: Type.Optional(Type.Boolean()),
    /** Show HTML blocks in messages as their text (otherwise drawn, sanitized, in sandbox frames). */
    htmlAsText: Type.Optional(Type.Boolean()),
    /** The Lumiverse preset the chat's prompt is built from (Lumiverse's active Loom preset); absent or '': the Workbench's own prompt. */
    presetId: Type.Optional(Type.String({ maxLength: 64 })),
    /** Each connection's default sampling for the chat, by connection id (a session's own sampling goes over it). */
    connectionSampling: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), SamplingSchema)),
  },
  { additionalProperties: false },
);
export type ChatSettings = Static<typeof ChatSettingsSchema>;

export function defaultChatSettings(): ChatSettings {
  return { mainConnectionId: '', model: '', inlineMaxRounds: CHAT_DEFAULTS.inlineMaxRounds, dryRun: false };
}

// ---------------------------------------------------------------------------------------------
