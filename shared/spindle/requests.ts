// Every spindle.* request the host answers, declared once: its name, parameters, result, permission and errors.
// The host decodes and checks a worker's request against this table before any handler sees it
// (electron/core/extensions/spindle-host/spindle-dispatch.ts), and checks the answer against its result; a name
// not in the table is UNSUPPORTED_HERE. What the Workbench does not have (presets, memories…) never reaches the
// host: the worker answers it inert (members.ts).
import { Type, type Static } from '@sinclair/typebox';
import { LumiverseGenerateSchema, LumiverseStreamSchema, QuietGenerateSchema, RawGenerateSchema } from './generate-requests';
import { TOAST_LEVELS } from './toast';
import { SESSION_LIMITS } from '../types/chat';
import { LLM_ERROR_CODES } from '../errors';
import { FRONTEND_PART_CHARS, MAX_TO_FRONTEND_CHARS } from '../limits';
import { Any, Dto, Id, named, Opt, Options, OrNull, Page, PageOptions, positional, prefixed, request, type SpindleRequestSpec } from './request-schema';

/** A streamed generation's pieces, as Lumiverse sends them: each token, then the whole text once done. */
const StreamChunk = Type.Union([
  Type.Object({ type: Type.Literal('token'), token: Type.String() }),
  Dto({ type: Type.Literal('done'), content: Type.String(), finish_reason: Type.String() }),
]);

// ---- storage, userStorage: the extension's files (object params from the worker's storage API) ----
const Path = Type.String();
const StorageStat = Dto({ exists: Type.Boolean(), isFile: Type.Boolean(), isDirectory: Type.Boolean(), sizeBytes: Type.Number(), modifiedAt: Type.String() });
const FILE_ERRORS = ['NOT_FOUND', 'PATH_NOT_ALLOWED'];
const WRITE_ERRORS = ['PATH_NOT_ALLOWED', 'INPUT_TOO_LARGE', 'QUOTA_EXCEEDED'];
export const STORAGE_OPS = {
  read: request(named({ path: Path }), Type.String(), FILE_ERRORS),
  readBinary: request(named({ path: Path }), Type.String({ description: 'base64' }), FILE_ERRORS),
  write: request(named({ path: Path, data: Type.String() }), Type.Literal(true), WRITE_ERRORS),
  writeBinary: request(named({ path: Path, base64: Type.String() }), Type.Literal(true), WRITE_ERRORS),
  delete: request(named({ path: Path }), Type.Literal(true), ['PATH_NOT_ALLOWED']),
  list: request(named({ prefix: Opt(Path) }), Type.Array(Type.String()), ['PATH_NOT_ALLOWED']),
  exists: request(named({ path: Path }), Type.Boolean(), ['PATH_NOT_ALLOWED']),
  stat: request(named({ path: Path }), StorageStat, ['PATH_NOT_ALLOWED']),
  mkdir: request(named({ path: Path }), Type.Literal(true), ['PATH_NOT_ALLOWED']),
  move: request(named({ from: Path, to: Path }), Type.Literal(true), FILE_ERRORS),
} as const;

// ---- variables: string values by key; local and chat per chat id, global once ----
const Key = Id(256);
const Variables = Type.Record(Type.String(), Type.String());
const SCOPED_VARIABLES = {
  get: request(positional({ chatId: Key, key: Key }), Type.String()),
  has: request(positional({ chatId: Key, key: Key }), Type.Boolean()),
  list: request(positional({ chatId: Key }), Variables),
  set: request(positional({ chatId: Key, key: Key, value: Opt(Any) }), Type.Null(), ['INPUT_TOO_LARGE']),
  delete: request(positional({ chatId: Key, key: Key }), Type.Null()),
} as const;

// ---- the Workbench's sessions in Lumiverse's shapes ----
const ChatId = Id(128);
const Chat = Dto({ id: Type.String(), character_id: Type.String(), name: Type.String() });
const Message = Dto({ id: Type.String(), chat_id: Type.String(), content: Type.String(), is_user: Type.Boolean() });
const Character = Dto({ id: Type.String(), name: Type.String() });
const CardText = Type.String({ maxLength: SESSION_LIMITS.text });
const Persona = Dto({ id: Type.String(), name: Type.String() });
const WorldBook = Dto({ id: Type.String(), name: Type.String() });
const WorldBookEntry = Dto({ id: Type.String(), world_book_id: Type.String(), content: Type.String() });
/** Lumiverse's WorldBookEntryCreateDTO: the fields the Workbench acts on or keeps are checked; the rest (position, depth, probability…) pass unused. */
const Keywords = Type.Array(Type.String({ maxLength: SESSION_LIMITS.keyword }), { maxItems: SESSION_LIMITS.keywords });
const EntryInput = Type.Object({
  key: Opt(Keywords),
  keysecondary: Opt(Keywords),
  content: Opt(Type.String({ maxLength: SESSION_LIMITS.text })),
  comment: Opt(Type.String({ maxLength: SESSION_LIMITS.name })),
  disabled: Opt(Type.Boolean()),
  constant: Opt(Type.Boolean()),
  order_value: Opt(Type.Number()),
  case_sensitive: Opt(Type.Boolean()),
  match_whole_words: Opt(Type.Boolean()),
  scan_depth: Opt(Type.Union([Type.Number(), Type.Null()])),
  extensions: Opt(Type.Record(Type.String(), Any)),
});
const Connection = Dto({ id: Type.String(), name: Type.String(), provider: Type.String(), has_api_key: Type.Boolean() });
const TokenCount = Dto({ total_tokens: Type.Number(), model: Type.String(), approximate: Type.Boolean() });
const TokenOptions = Options({ model: Opt(Type.String()), modelSource: Opt(Type.String()) });
const EphemeralStat = Dto({ sizeBytes: Type.Number(), createdAt: Type.String(), expiresAt: Type.String() });
const EphemeralPath = Id(512);
const EphemeralOptions = Options({ ttlMs: Opt(Type.Number({ exclusiveMinimum: 0 })), reservationId: Opt(Type.String()) });

const DATA = {
  'chats.getActive': request(positional({}), OrNull(Chat), [], 'chats'),
  'chats.get': request(positional({ chatId: ChatId }), OrNull(Chat), [], 'chats'),
  'chats.list': request(positional({ options: Options({ characterId: Opt(Type.String()), limit: Opt(Type.Number()), offset: Opt(Type.Number()) }) }), Page(Chat), [], 'chats'),
  'chats.update': request(
    positional({ chatId: ChatId, input: Type.Object({ name: Opt(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.title })), metadata: Opt(Type.Record(Type.String(), Any)) }) }),
    Chat,
    ['NOT_FOUND', 'INPUT_TOO_LARGE'],
    'chats',
  ),
  'chats.getMemories': request(positional({}), Type.Array(Any), [], 'chats'),
  // chat.* — reads included — needs chat_mutation, as in Lumiverse.
  'chat.getMessages': request(positional({ chatId: ChatId }), Type.Array(Message), ['NOT_FOUND'], 'chat_mutation'),
  'chat.appendMessage': request(
    positional({ chatId: ChatId, message: Type.Object({ role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system')]), content: Type.String() }) }),
    Dto({ id: Type.String() }),
    ['NOT_FOUND'],
    'chat_mutation',
  ),
  'chat.updateMessage': request(
    positional({
      chatId: ChatId,
      messageId: Id(64),
      patch: Type.Object({
        content: Opt(Type.String()),
        metadata: Opt(Type.Record(Type.String(), Any)),
        swipes: Opt(Type.Array(Type.String())),
        swipe_id: Opt(Type.Integer({ minimum: 0 })),
        swipe_dates: Opt(Type.Array(Type.Number())),
        reasoning: Opt(Any),
        skipChunkRebuild: Opt(Type.Boolean()),
      }),
    }),
    Type.Null(),
    ['NOT_FOUND', 'CONFLICT', 'INPUT_TOO_LARGE'],
    'chat_mutation',
  ),
  'chat.deleteMessage': request(positional({ chatId: ChatId, messageId: Id(64) }), Type.Null(), ['NOT_FOUND', 'CONFLICT'], 'chat_mutation'),
  'chat.setMessageHidden': request(positional({ chatId: ChatId, messageId: Id(64), hidden: Type.Boolean() }), Type.Null(), ['NOT_FOUND'], 'chat_mutation'),
  'chat.setMessagesHidden': request(
    positional({ chatId: ChatId, messageIds: Type.Array(Id(64), { maxItems: 500 }), hidden: Type.Boolean() }),
    Type.Null(),
    ['NOT_FOUND'],
    'chat_mutation',
  ),
  'chat.isMessageHidden': request(positional({ chatId: ChatId, messageId: Id(64) }), Type.Boolean(), ['NOT_FOUND'], 'chat_mutation'),
  'characters.get': request(positional({ characterId: ChatId }), OrNull(Character), [], 'characters'),
  'characters.list': request(positional({ options: PageOptions }), Page(Character), [], 'characters'),
  'characters.update': request(
    positional({
      characterId: ChatId,
      input: Type.Object({
        name: Opt(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.name })),
        description: Opt(CardText),
        personality: Opt(CardText),
        scenario: Opt(CardText),
        first_mes: Opt(CardText),
        mes_example: Opt(CardText),
        creator_notes: Opt(CardText),
        system_prompt: Opt(CardText),
        post_history_instructions: Opt(CardText),
        creator: Opt(CardText),
        tags: Opt(Keywords),
        alternate_greetings: Opt(Type.Array(CardText, { maxItems: 100 })),
        extensions: Opt(Type.Record(Type.String(), Any)),
        world_book_ids: Opt(Type.Array(Type.String())),
      }),
    }),
    Character,
    ['NOT_FOUND', 'INPUT_TOO_LARGE'],
    'characters',
  ),
  'personas.getActive': request(positional({}), OrNull(Persona), [], 'personas'),
  'personas.getDefault': request(positional({}), OrNull(Persona), [], 'personas'),
  'personas.get': request(positional({ personaId: Id(256) }), OrNull(Persona), [], 'personas'),
  'personas.list': request(positional({ options: PageOptions }), Page(Persona), [], 'personas'),
  'personas.getWorldBook': request(positional({}), Type.Null(), [], 'personas'),
  'world_books.list': request(positional({ options: PageOptions }), Page(WorldBook), [], 'world_books'),
  'world_books.get': request(positional({ worldBookId: ChatId }), OrNull(WorldBook), [], 'world_books'),
  'world_books.entries.list': request(positional({ worldBookId: ChatId, options: PageOptions }), Page(WorldBookEntry), [], 'world_books'),
  'world_books.entries.get': request(positional({ entryId: Id(256) }), OrNull(WorldBookEntry), [], 'world_books'),
  'world_books.entries.update': request(positional({ entryId: Id(256), input: EntryInput }), WorldBookEntry, ['NOT_FOUND', 'INPUT_TOO_LARGE'], 'world_books'),
  'world_books.entries.create': request(positional({ worldBookId: ChatId, input: EntryInput }), WorldBookEntry, ['NOT_FOUND', 'INPUT_TOO_LARGE'], 'world_books'),
  'world_books.getActivated': request(positional({}), Type.Array(Any), [], 'world_books'),
  'world_books.getGlobal': request(positional({}), Type.Array(Any), [], 'world_books'),
  'macros.resolve': request(
    positional({ template: Type.String(), options: Options({ chatId: Opt(Type.String()), characterId: Opt(Type.String()), commit: Opt(Type.Boolean()) }) }),
    Dto({ text: Type.String(), diagnostics: Type.Array(Dto({ message: Type.String(), offset: Type.Number(), length: Type.Number() })) }),
    ['INPUT_TOO_LARGE'],
  ),
  'council.getSettings': request(positional({}), Any),
  'council.getMembers': request(positional({}), Type.Array(Dto({ memberId: Type.String(), name: Type.String() }))),
  'council.getAvailableLumiaItems': request(positional({}), Type.Array(Any)),
  // Profiles in Lumiverse's shape, never a key (`generation`, as in Lumiverse).
  'connections.list': request(positional({}), Type.Array(Connection), [], 'generation'),
  'connections.get': request(positional({ connectionId: Id(64) }), OrNull(Connection), [], 'generation'),
  'connections.resolveDispatch': request(positional({}), Type.Null(), [], 'generation'),
  'tokens.countText': request(positional({ text: Type.String(), options: TokenOptions }), TokenCount),
  'tokens.countMessages': request(positional({ messages: Type.Array(Any), options: TokenOptions }), TokenCount),
  'tokens.countChat': request(positional({ chatId: Key, options: TokenOptions }), TokenCount, ['NOT_FOUND']),
} as const;

// ---- the extension's own keeping: secrets, expiring files, variables ----
const EnclaveKey = Type.String({ pattern: '^[a-zA-Z0-9_\\-.]{1,128}$' });
const KEEPING = {
  'enclave.put': request(positional({ key: EnclaveKey, value: Type.String() }), Type.Null(), ['INPUT_TOO_LARGE', 'UNSUPPORTED_HERE']),
  'enclave.get': request(positional({ key: EnclaveKey }), OrNull(Type.String()), ['UNSUPPORTED_HERE']),
  'enclave.has': request(positional({ key: EnclaveKey }), Type.Boolean(), ['UNSUPPORTED_HERE']),
  'enclave.delete': request(positional({ key: EnclaveKey }), Type.Boolean(), ['UNSUPPORTED_HERE']),
  'enclave.list': request(positional({}), Type.Array(Type.String()), ['UNSUPPORTED_HERE']),
  'ephemeral.read': request(positional({ path: EphemeralPath }), Type.String(), FILE_ERRORS, 'ephemeral_storage'),
  'ephemeral.readBinary': request(positional({ path: EphemeralPath }), Type.String({ description: 'base64' }), FILE_ERRORS, 'ephemeral_storage'),
  'ephemeral.write': request(positional({ path: EphemeralPath, data: Type.String(), options: EphemeralOptions }), Type.Null(), [...WRITE_ERRORS, 'NOT_FOUND'], 'ephemeral_storage'),
  'ephemeral.writeBinary': request(positional({ path: EphemeralPath, data: Type.String({ description: 'base64' }), options: EphemeralOptions }), Type.Null(), [...WRITE_ERRORS, 'NOT_FOUND'], 'ephemeral_storage'),
  'ephemeral.delete': request(positional({ path: EphemeralPath }), Type.Null(), ['PATH_NOT_ALLOWED'], 'ephemeral_storage'),
  'ephemeral.list': request(positional({ prefix: Opt(Type.String()) }), Type.Array(Type.String()), [], 'ephemeral_storage'),
  'ephemeral.stat': request(positional({ path: EphemeralPath }), EphemeralStat, ['NOT_FOUND'], 'ephemeral_storage'),
  'ephemeral.clearExpired': request(positional({}), Type.Number(), [], 'ephemeral_storage'),
  'ephemeral.getPoolStatus': request(positional({}), Dto({ extensionMaxBytes: Type.Number(), extensionUsedBytes: Type.Number(), fileCount: Type.Number() }), [], 'ephemeral_storage'),
  'ephemeral.requestBlock': request(
    positional({ sizeBytes: Type.Integer({ minimum: 1 }), options: EphemeralOptions }),
    Dto({ reservationId: Type.String(), sizeBytes: Type.Number(), expiresAt: Type.String() }),
    ['QUOTA_EXCEEDED'],
    'ephemeral_storage',
  ),
  'ephemeral.releaseBlock': request(positional({ reservationId: Id(64) }), Type.Null(), [], 'ephemeral_storage'),
  'variables.global.get': request(positional({ key: Key }), Type.String()),
  'variables.global.has': request(positional({ key: Key }), Type.Boolean()),
  'variables.global.list': request(positional({}), Variables),
  'variables.global.set': request(positional({ key: Key, value: Opt(Any) }), Type.Null(), ['INPUT_TOO_LARGE']),
  'variables.global.delete': request(positional({ key: Key }), Type.Null()),
  ...prefixed('variables.local', SCOPED_VARIABLES),
  ...prefixed('variables.chat', SCOPED_VARIABLES),
  ...prefixed('storage', STORAGE_OPS),
  ...prefixed('userStorage', STORAGE_OPS),
} as const;

// ---- the prompt pipeline, the window, the network, generation ----
const RegistrationKind = Type.Union([
  Type.Literal('interceptor'),
  Type.Literal('context_handler'),
  Type.Literal('macro_interceptor'),
  Type.Literal('world_info_interceptor'),
  Type.Literal('message_content_processor'),
]);
const MacroName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_:.-]{0,63}$' });
const TOAST = request(positional({ message: Opt(Any), options: Options({ title: Opt(Any), duration: Opt(Any) }) }), Type.Null(), ['RATE_LIMITED']);
const GENERATION_ERRORS = [
  'PERMISSION_DENIED',
  'GENERATION_UNAVAILABLE',
  'SIDECAR_NOT_CONFIGURED',
  'RATE_LIMITED',
  'DUPLICATE_CALL_ID',
  'CANCELLED',
  'TOOL_TIMEOUT',
  'RESULT_TOO_LARGE',
  // The connection it names: gone, or held after a backup restore.
  'NOT_FOUND',
  'CONNECTION_HELD',
  ...LLM_ERROR_CODES,
];
const HOST = {
  'pipeline.registerMacro': request(
    named({ definition: Type.Object({ name: MacroName, description: Opt(Type.String()), category: Opt(Type.String()) }), hasHandler: Opt(Type.Boolean()) }),
    Type.Null(),
  ),
  'pipeline.unregisterMacro': request(named({ name: Id(64) }), Type.Null()),
  'pipeline.updateMacroValue': request(named({ name: Id(64), value: Opt(Any) }), Type.Null(), ['NOT_FOUND']),
  // The permission depends on the kind (registrations.ts KIND_PERMISSION): checked by its handler.
  'pipeline.register': request(named({ kind: RegistrationKind, id: Id(64), options: Options({ priority: Opt(Type.Number()), timeoutMs: Opt(Type.Number()) }) }), Type.Null(), ['PERMISSION_DENIED']),
  'pipeline.unregister': request(named({ id: Id(64) }), Type.Null()),
  'pipeline.sendToFrontend': request(named({ payload: Opt(Any) }), Type.Null()),
  // A message too large for one request: its JSON in parts, in order, put together by the host.
  'pipeline.sendToFrontendPart': request(
    named({
      id: Type.Integer({ minimum: 1 }),
      index: Type.Integer({ minimum: 0 }),
      count: Type.Integer({ minimum: 2, maximum: Math.ceil(MAX_TO_FRONTEND_CHARS / FRONTEND_PART_CHARS) }),
      part: Type.String({ maxLength: FRONTEND_PART_CHARS }),
    }),
    Type.Null(),
    ['INPUT_TOO_LARGE'],
  ),
  ...prefixed('toast', Object.fromEntries(TOAST_LEVELS.map((level) => [level, TOAST])) as Record<(typeof TOAST_LEVELS)[number], typeof TOAST>),
  'cors.fetch': request(
    named({ url: Id(8192), init: Options({ method: Opt(Type.String()), headers: Opt(Type.Record(Type.String(), Any)), body: Opt(Any), responseType: Opt(Type.String()) }) }),
    Dto({ status: Type.Number(), statusText: Type.String(), headers: Type.Record(Type.String(), Type.String()), body: Type.String() }),
    ['PATH_NOT_ALLOWED', 'RESULT_TOO_LARGE', 'TOOL_TIMEOUT', 'LLM_UNREACHABLE'],
    'cors_proxy',
  ),
  // Generation (generate-requests.ts): the gate checks the `generation` permission itself, naming the call as the
  // extension made it (generate.batch, generate.rawStream…), again for each chunk, and answers it.
  'generate.quiet': request({ params: QuietGenerateSchema }, Type.String(), GENERATION_ERRORS),
  'generate.raw': request({ params: RawGenerateSchema }, Dto({ text: Type.String(), finishReason: Type.String() }), GENERATION_ERRORS),
  'generate.lumiverse': request({ params: LumiverseGenerateSchema }, Any, GENERATION_ERRORS),
  'generate.stream': { ...request({ params: LumiverseStreamSchema }, Any, GENERATION_ERRORS), chunk: StreamChunk },
  /** The extension used a Lumiverse member the Workbench does not have (listed once on its card). */
  'runtime.inert': request(named({ member: Type.String() }), Type.Null()),
} as const;

export const SPINDLE_REQUESTS = { ...DATA, ...KEEPING, ...HOST } as const;

export type SpindleMethod = keyof typeof SPINDLE_REQUESTS;
export type StorageOp = keyof typeof STORAGE_OPS;
export type StorageParams<K extends StorageOp> = Static<(typeof STORAGE_OPS)[K]['params']>;
export type SpindleParams<M extends SpindleMethod> = Static<(typeof SPINDLE_REQUESTS)[M]['params']>;

/** The declaration of `method`, own names only ("constructor" is not a method). */
export function spindleRequest(method: string): SpindleRequestSpec | undefined {
  return Object.hasOwn(SPINDLE_REQUESTS, method) ? (SPINDLE_REQUESTS as Record<string, SpindleRequestSpec>)[method] : undefined;
}
