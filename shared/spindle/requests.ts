// Every spindle.* request the host answers, declared once: its name, parameters, result, permission and errors.
// The host decodes and checks a worker's request against this table before any handler sees it
// (electron/core/extensions/spindle-host/spindle-dispatch.ts), and checks the answer against its result; a name
// not in the table is UNSUPPORTED_HERE. What the Workbench does not have (databanks…) never reaches
// the host: the worker answers it inert (members.ts).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LumiverseGenerateSchema, LumiverseStreamSchema, QuietGenerateSchema, RawGenerateSchema } from './generate-requests';
import { TOAST_LEVELS } from './toast';
import { SESSION_LIMITS } from '../types/chat';
import { LLM_ERROR_CODES } from '../errors';
import { FRONTEND_PART_CHARS, MAX_TO_FRONTEND_CHARS } from '../limits';
import { STORAGE_PART_BYTES } from '../protocol/limits';
import { EntryFieldInputs } from './world-entry-fields';
import { endpoint } from '../rpc/endpoint';
import { FILE_REQUESTS } from './file-requests';
import { PEER_REQUESTS } from './peer-requests';
import { PROCESS_REQUESTS } from './process-requests';
import { MEMORY_REQUESTS } from './memory-requests';
import { PRESET_REQUESTS } from './preset-requests';
import { REGEX_REQUESTS } from './regex-requests';
import { DIALOG_REQUESTS } from './dialog-requests';
import { Any, Dto, Id, named, Opt, Options, OrNull, Page, PageOptions, positional, prefixed, type SpindleRequestSpec } from './request-schema';

/** A streamed generation's pieces, as Lumiverse sends them: each token and reasoning token, then the whole response once done. */
const StreamChunk = Type.Union([
  Type.Object({ type: Type.Literal('token'), token: Type.String() }),
  Type.Object({ type: Type.Literal('reasoning'), token: Type.String() }),
  Dto({ type: Type.Literal('done'), content: Type.String(), finish_reason: Type.String() }),
]);

// ---- storage, userStorage: the extension's files (object params from the worker's storage API) ----
const Path = Type.String();
const StorageStat = Dto({ exists: Type.Boolean(), isFile: Type.Boolean(), isDirectory: Type.Boolean(), sizeBytes: Type.Number(), modifiedAt: Type.String() });
const FILE_ERRORS = ['NOT_FOUND', 'PATH_NOT_ALLOWED'];
const WRITE_ERRORS = ['PATH_NOT_ALLOWED', 'INPUT_TOO_LARGE', 'QUOTA_EXCEEDED'];
export const STORAGE_OPS = {
  // RESULT_TOO_LARGE: a file over one answer is read in parts (readPart).
  read: endpoint({ ...named({ path: Path }), result: Type.String(), errors: [...FILE_ERRORS, 'RESULT_TOO_LARGE'] }),
  readBinary: endpoint({ ...named({ path: Path }), result: Type.String({ description: 'base64' }), errors: [...FILE_ERRORS, 'RESULT_TOO_LARGE'] }),
  write: endpoint({ ...named({ path: Path, data: Type.String() }), result: Type.Literal(true), errors: WRITE_ERRORS }),
  writeBinary: endpoint({ ...named({ path: Path, base64: Type.String() }), result: Type.Literal(true), errors: WRITE_ERRORS }),
  // A file larger than one request or answer carries, in parts, as the worker's storage API sends and reads it.
  readPart: endpoint({ ...named({ path: Path, offset: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), length: Type.Integer({ minimum: 1, maximum: STORAGE_PART_BYTES }) }), result: Type.String({ description: 'base64' }), errors: FILE_ERRORS }),
  writePart: endpoint({ ...named({ path: Path, upload: Id(64), index: Type.Integer({ minimum: 0 }), base64: Type.String(), last: Type.Boolean() }), result: Type.Literal(true), errors: [...WRITE_ERRORS, 'INVALID_INPUT', 'CONFLICT'] }),
  delete: endpoint({ ...named({ path: Path }), result: Type.Literal(true), errors: ['PATH_NOT_ALLOWED'] }),
  list: endpoint({ ...named({ prefix: Opt(Path) }), result: Type.Array(Type.String()), errors: ['PATH_NOT_ALLOWED'] }),
  exists: endpoint({ ...named({ path: Path }), result: Type.Boolean(), errors: ['PATH_NOT_ALLOWED'] }),
  stat: endpoint({ ...named({ path: Path }), result: StorageStat, errors: ['PATH_NOT_ALLOWED'] }),
  mkdir: endpoint({ ...named({ path: Path }), result: Type.Literal(true), errors: ['PATH_NOT_ALLOWED'] }),
  move: endpoint({ ...named({ from: Path, to: Path }), result: Type.Literal(true), errors: FILE_ERRORS }),
} as const;

// ---- variables: string values by key; local and chat per chat id, global once ----
const Key = Id(256);
const Variables = Type.Record(Type.String(), Type.String());
const SCOPED_VARIABLES = {
  get: endpoint({ ...positional({ chatId: Key, key: Key }), result: Type.String() }),
  has: endpoint({ ...positional({ chatId: Key, key: Key }), result: Type.Boolean() }),
  list: endpoint({ ...positional({ chatId: Key }), result: Variables }),
  // NOT_FOUND: a session's chat variables, when the session went meanwhile.
  set: endpoint({ ...positional({ chatId: Key, key: Key, value: Opt(Any) }), result: Type.Null(), errors: ['INPUT_TOO_LARGE', 'NOT_FOUND'] }),
  delete: endpoint({ ...positional({ chatId: Key, key: Key }), result: Type.Null(), errors: ['NOT_FOUND'] }),
} as const;

// ---- the Workbench's sessions in Lumiverse's shapes ----
const ChatId = Id(128);
const Chat = Dto({ id: Type.String(), character_id: Type.String(), name: Type.String() });
const Message = Dto({ id: Type.String(), chat_id: Type.String(), content: Type.String(), is_user: Type.Boolean() });
const Character = Dto({ id: Type.String(), name: Type.String() });
const CardText = Type.String({ maxLength: SESSION_LIMITS.text });
const Persona = Dto({ id: Type.String(), name: Type.String() });
/** Lumiverse's PersonaCreateDTO (`name` required) or PersonaUpdateDTO; the library checks the sizes. */
const PersonaInput = (create: boolean) =>
  Type.Object({
    name: create ? Type.String({ maxLength: SESSION_LIMITS.name }) : Opt(Type.String({ maxLength: SESSION_LIMITS.name })),
    title: Opt(Type.String({ maxLength: SESSION_LIMITS.name })),
    description: Opt(Type.String({ maxLength: SESSION_LIMITS.text })),
    folder: Opt(Type.String({ maxLength: SESSION_LIMITS.name })),
    is_default: Opt(Type.Boolean()),
    attached_world_book_id: Opt(Type.String({ maxLength: 256 })),
    metadata: Opt(Type.Record(Type.String(), Type.Unknown())),
  });
const WorldBook = Dto({ id: Type.String(), name: Type.String() });
/** Lumiverse's CreateWorldBookInput. */
const BookInput = Type.Object({ name: Type.String({ minLength: 1, maxLength: SESSION_LIMITS.name }), description: Opt(Type.String({ maxLength: SESSION_LIMITS.text })), metadata: Opt(Type.Record(Type.String(), Type.Unknown())) });
const WorldBookEntry = Dto({ id: Type.String(), world_book_id: Type.String(), content: Type.String() });
/** A character's world_book_ids: the books of their own attached to it, in order. */
const BookIds = Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64 });
const Keywords = Type.Array(Type.String({ maxLength: SESSION_LIMITS.keyword }), { maxItems: SESSION_LIMITS.keywords });
/** Lumiverse's CharacterCreateDTO / CharacterUpdateDTO fields but the name. */
/** A prompt built over a chat and not sent (generate.dryRun, assemble): its chat, connection, persona and generation type, and `own` fields. */
function promptOfChat<T extends Record<string, TSchema>>(own: T, errors: string[]) {
  return endpoint({
    ...positional({
      input: Type.Object({
        ...own,
        chatId: ChatId,
        connectionId: Opt(Type.String({ maxLength: 64 })),
        personaId: Opt(Type.String({ maxLength: 200 })),
        generationType: Opt(Type.String({ maxLength: 40 })),
      }),
      userId: Opt(Type.String({ maxLength: 200 })),
    }),
    result: Any,
    errors: ['NOT_FOUND', 'CHAT_NO_CONNECTION', 'INVALID_INPUT', 'CONFLICT', 'CONNECTION_HELD', ...errors],
    permission: 'generation',
  });
}

const CHARACTER_FIELDS = {
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
};

/** Lumiverse's WorldBookEntryCreateDTO: the fields the Workbench acts on, and those it keeps (world-entry-fields.ts). */
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
  ...EntryFieldInputs,
});
const Connection = Dto({ id: Type.String(), name: Type.String(), provider: Type.String(), has_api_key: Type.Boolean() });
const TokenCount = Dto({ total_tokens: Type.Number(), model: Type.String(), approximate: Type.Boolean() });
const TokenOptions = Options({ model: Opt(Type.String()), modelSource: Opt(Type.String()) });
const EphemeralStat = Dto({ sizeBytes: Type.Number(), createdAt: Type.String(), expiresAt: Type.String() });
const EphemeralPath = Id(512);
const EphemeralOptions = Options({ ttlMs: Opt(Type.Number({ exclusiveMinimum: 0 })), reservationId: Opt(Type.String()) });

const DATA = {
  'chats.getActive': endpoint({ ...positional({}), result: OrNull(Chat), permission: 'chats' }),
  'chats.get': endpoint({ ...positional({ chatId: ChatId }), result: OrNull(Chat), permission: 'chats' }),
  'chats.list': endpoint({ ...positional({ options: Options({ characterId: Opt(Type.String()), limit: Opt(Type.Number()), offset: Opt(Type.Number()) }) }), result: Page(Chat), permission: 'chats' }),
  'chats.update': endpoint({ ...positional({ chatId: ChatId, input: Type.Object({ name: Opt(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.title })), metadata: Opt(Type.Record(Type.String(), Any)) }) }), result: Chat, errors: ['NOT_FOUND', 'INPUT_TOO_LARGE'], permission: 'chats' }),
  // chat.* — reads included — needs chat_mutation, as in Lumiverse.
  'chat.getMessages': endpoint({ ...positional({ chatId: ChatId }), result: Type.Array(Message), errors: ['NOT_FOUND'], permission: 'chat_mutation' }),
  // With triggerGeneration (and the generation permission) a reply to the chat as it now is starts, as in Lumiverse.
  'chat.appendMessage': endpoint({ ...positional({
      chatId: ChatId,
      message: Type.Object({ role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system')]), content: Type.String(), metadata: Opt(Type.Record(Type.String(), Any)) }),
      options: Opt(Type.Union([Type.Boolean(), Type.Object({ triggerGeneration: Opt(Type.Boolean()) })])),
    }), result: Dto({ id: Type.String() }), errors: ['NOT_FOUND', 'INPUT_TOO_LARGE', 'PERMISSION_DENIED', 'RATE_LIMITED', 'CONFLICT', 'CHAT_NO_CONNECTION', 'CONNECTION_HELD', 'HOST_SHUTDOWN'], permission: 'chat_mutation' }),
  'chat.updateMessage': endpoint({ ...positional({
      chatId: ChatId,
      messageId: Id(64),
      patch: Type.Object({
        content: Opt(Type.String()),
        metadata: Opt(Type.Record(Type.String(), Any)),
        swipes: Opt(Type.Array(Type.String())),
        swipe_id: Opt(Type.Integer({ minimum: 0 })),
        swipe_dates: Opt(Type.Array(Type.Number())),
        // The reply's reasoning and its time in ms; null clears either (Lumiverse's extra.reasoning, extra.reasoningDuration).
        reasoning: Opt(Type.Object({ text: Opt(Type.Union([Type.String({ maxLength: SESSION_LIMITS.messageContent }), Type.Null()])), duration: Opt(Type.Union([Type.Number({ minimum: 0 }), Type.Null()])) })),
        skipChunkRebuild: Opt(Type.Boolean()),
      }),
    }), result: Type.Null(), errors: ['NOT_FOUND', 'CONFLICT', 'INPUT_TOO_LARGE'], permission: 'chat_mutation' }),
  'chat.deleteMessage': endpoint({ ...positional({ chatId: ChatId, messageId: Id(64) }), result: Type.Null(), errors: ['NOT_FOUND', 'CONFLICT'], permission: 'chat_mutation' }),
  'chat.setMessageHidden': endpoint({ ...positional({ chatId: ChatId, messageId: Id(64), hidden: Type.Boolean() }), result: Type.Null(), errors: ['NOT_FOUND'], permission: 'chat_mutation' }),
  'chat.setMessagesHidden': endpoint({ ...positional({ chatId: ChatId, messageIds: Type.Array(Id(64), { maxItems: 500 }), hidden: Type.Boolean() }), result: Type.Null(), errors: ['NOT_FOUND'], permission: 'chat_mutation' }),
  'chat.isMessageHidden': endpoint({ ...positional({ chatId: ChatId, messageId: Id(64) }), result: Type.Boolean(), errors: ['NOT_FOUND'], permission: 'chat_mutation' }),
  // Lumiverse relaxes its message bubbles' containment for a chat's card HTML; the Workbench's islands never cover the app.
  'chat.setStyleMode': endpoint({ ...positional({ chatId: ChatId, mode: Type.Union([Type.Literal('bounded'), Type.Literal('extension-relaxed')]), userId: Opt(Type.String({ maxLength: 200 })) }), result: Type.Null(), permission: 'app_manipulation' }),
  'characters.get': endpoint({ ...positional({ characterId: ChatId }), result: OrNull(Character), permission: 'characters' }),
  'characters.list': endpoint({ ...positional({ options: PageOptions }), result: Page(Character), permission: 'characters' }),
  // A character is a session here: one made is a new session (its greeting the first reply); one deleted takes its chat.
  'characters.create': endpoint({ ...positional({ input: Type.Object({ ...CHARACTER_FIELDS, name: Type.String({ minLength: 1, maxLength: SESSION_LIMITS.name }), world_book_ids: Opt(BookIds) }) }), result: Character, errors: ['INVALID_INPUT', 'INPUT_TOO_LARGE'], permission: 'characters' }),
  // Its picture, as Lumiverse's characters.setAvatar takes it (bytes, base64 across the pipe): a PNG here, as cards carry.
  'characters.setAvatar': endpoint({ ...positional({
      characterId: ChatId,
      avatar: Type.Object({ data: Type.String({ description: 'base64', maxLength: Math.ceil((8 * 1024 * 1024) / 3) * 4 }), filename: Opt(Type.String({ maxLength: 1024 })), mime_type: Opt(Type.String({ maxLength: 200 })) }),
    }), result: Character, errors: ['NOT_FOUND', 'INVALID_INPUT'], permission: 'characters' }),
  'characters.delete': endpoint({ ...positional({ characterId: ChatId }), result: Type.Boolean(), permission: 'characters' }),
  'characters.update': endpoint({ ...positional({
      characterId: ChatId,
      input: Type.Object({
        ...CHARACTER_FIELDS,
        name: Opt(Type.String({ minLength: 1, maxLength: SESSION_LIMITS.name })),
        world_book_ids: Opt(BookIds),
      }),
    }), result: Character, errors: ['NOT_FOUND', 'INPUT_TOO_LARGE'], permission: 'characters' }),
  'personas.getActive': endpoint({ ...positional({}), result: OrNull(Persona), permission: 'personas' }),
  'personas.getDefault': endpoint({ ...positional({}), result: OrNull(Persona), permission: 'personas' }),
  'personas.get': endpoint({ ...positional({ personaId: Id(256) }), result: OrNull(Persona), permission: 'personas' }),
  'personas.list': endpoint({ ...positional({ options: PageOptions }), result: Page(Persona), permission: 'personas' }),
  'personas.getWorldBook': endpoint({ ...positional({}), result: Type.Null(), permission: 'personas' }),
  'personas.create': endpoint({ ...positional({ input: PersonaInput(true) }), result: Persona, errors: ['INVALID_INPUT', 'INPUT_TOO_LARGE', 'QUOTA_EXCEEDED'], permission: 'personas' }),
  'personas.update': endpoint({ ...positional({ personaId: Id(256), input: PersonaInput(false) }), result: Persona, errors: ['NOT_FOUND', 'INVALID_INPUT', 'INPUT_TOO_LARGE'], permission: 'personas' }),
  'personas.delete': endpoint({ ...positional({ personaId: Id(256) }), result: Type.Boolean(), permission: 'personas' }),
  'personas.switchActive': endpoint({ ...positional({ personaId: Opt(Type.Union([Id(256), Type.Null()])) }), result: Type.Null(), errors: ['NOT_FOUND'], permission: 'personas' }),
  'world_books.list': endpoint({ ...positional({ options: PageOptions }), result: Page(WorldBook), permission: 'world_books' }),
  'world_books.get': endpoint({ ...positional({ worldBookId: ChatId }), result: OrNull(WorldBook), permission: 'world_books' }),
  'world_books.create': endpoint({ ...positional({ input: BookInput }), result: WorldBook, errors: ['QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'], permission: 'world_books' }),
  'world_books.update': endpoint({ ...positional({ worldBookId: ChatId, input: Type.Partial(BookInput) }), result: WorldBook, errors: ['NOT_FOUND', 'INPUT_TOO_LARGE'], permission: 'world_books' }),
  'world_books.delete': endpoint({ ...positional({ worldBookId: ChatId }), result: Type.Boolean(), permission: 'world_books' }),
  'world_books.entries.list': endpoint({ ...positional({ worldBookId: ChatId, options: PageOptions }), result: Page(WorldBookEntry), permission: 'world_books' }),
  'world_books.entries.get': endpoint({ ...positional({ entryId: Id(256) }), result: OrNull(WorldBookEntry), permission: 'world_books' }),
  'world_books.entries.update': endpoint({ ...positional({ entryId: Id(256), input: EntryInput }), result: WorldBookEntry, errors: ['NOT_FOUND', 'INPUT_TOO_LARGE'], permission: 'world_books' }),
  'world_books.entries.delete': endpoint({ ...positional({ entryId: Id(256) }), result: Type.Boolean(), permission: 'world_books' }),
  'world_books.entries.create': endpoint({ ...positional({ worldBookId: ChatId, input: EntryInput }), result: WorldBookEntry, errors: ['NOT_FOUND', 'INPUT_TOO_LARGE'], permission: 'world_books' }),
  'world_books.getActivated': endpoint({ ...positional({ chatId: ChatId }), result: Type.Array(Dto({ id: Type.String(), keys: Type.Array(Type.String()), source: Type.String() })), errors: ['NOT_FOUND'], permission: 'world_books' }),
  'world_books.getGlobal': endpoint({ ...positional({}), result: Type.Array(Type.String()), permission: 'world_books' }),
  'world_books.setGlobal': endpoint({ ...positional({ worldBookIds: BookIds }), result: Type.Array(Type.String()), permission: 'world_books' }),
  'world_books.activateGlobal': endpoint({ ...positional({ worldBookId: ChatId }), result: Type.Array(Type.String()), errors: ['NOT_FOUND'], permission: 'world_books' }),
  'world_books.deactivateGlobal': endpoint({ ...positional({ worldBookId: ChatId }), result: Type.Array(Type.String()), permission: 'world_books' }),
  'macros.resolve': endpoint({ ...positional({ template: Type.String(), options: Options({ chatId: Opt(Type.String()), characterId: Opt(Type.String()), commit: Opt(Type.Boolean()) }) }), result: Dto({ text: Type.String(), diagnostics: Type.Array(Dto({ message: Type.String(), offset: Type.Number(), length: Type.Number() })) }), errors: ['INPUT_TOO_LARGE'] }),
  'council.getSettings': endpoint({ ...positional({}), result: Any }),
  'council.getMembers': endpoint({ ...positional({}), result: Type.Array(Dto({ memberId: Type.String(), name: Type.String() })) }),
  'council.getAvailableLumiaItems': endpoint({ ...positional({}), result: Type.Array(Any) }),
  // Lumiverse's LumiaDlcCatalogDTO: the installed Lumia packs and their items (free tier, read-only).
  'dlc.getCatalog': endpoint({ ...positional({}), result: Dto({ packs: Type.Array(Any), lumiaItems: Type.Array(Any) }) }),
  // Profiles in Lumiverse's shape, never a key (`generation`, as in Lumiverse).
  'connections.list': endpoint({ ...positional({}), result: Type.Array(Connection), permission: 'generation' }),
  'connections.get': endpoint({ ...positional({ connectionId: Id(64) }), result: OrNull(Connection), permission: 'generation' }),
  'connections.resolveDispatch': endpoint({ ...positional({}), result: Type.Null(), permission: 'generation' }),
  'tokens.countText': endpoint({ ...positional({ text: Type.String(), options: TokenOptions }), result: TokenCount }),
  'tokens.countMessages': endpoint({ ...positional({ messages: Type.Array(Any), options: TokenOptions }), result: TokenCount }),
  'tokens.countChat': endpoint({ ...positional({ chatId: Key, options: TokenOptions }), result: TokenCount, errors: ['NOT_FOUND'] }),
} as const;

// ---- the extension's own keeping: secrets, expiring files, variables ----
const EnclaveKey = Type.String({ pattern: '^[a-zA-Z0-9_\\-.]{1,128}$' });
const KEEPING = {
  'enclave.put': endpoint({ ...positional({ key: EnclaveKey, value: Type.String() }), result: Type.Null(), errors: ['INPUT_TOO_LARGE', 'UNSUPPORTED_HERE'] }),
  'enclave.get': endpoint({ ...positional({ key: EnclaveKey }), result: OrNull(Type.String()), errors: ['UNSUPPORTED_HERE'] }),
  'enclave.has': endpoint({ ...positional({ key: EnclaveKey }), result: Type.Boolean(), errors: ['UNSUPPORTED_HERE'] }),
  'enclave.delete': endpoint({ ...positional({ key: EnclaveKey }), result: Type.Boolean(), errors: ['UNSUPPORTED_HERE'] }),
  'enclave.list': endpoint({ ...positional({}), result: Type.Array(Type.String()), errors: ['UNSUPPORTED_HERE'] }),
  'ephemeral.read': endpoint({ ...positional({ path: EphemeralPath }), result: Type.String(), errors: FILE_ERRORS, permission: 'ephemeral_storage' }),
  'ephemeral.readBinary': endpoint({ ...positional({ path: EphemeralPath }), result: Type.String({ description: 'base64' }), errors: FILE_ERRORS, permission: 'ephemeral_storage' }),
  'ephemeral.write': endpoint({ ...positional({ path: EphemeralPath, data: Type.String(), options: EphemeralOptions }), result: Type.Null(), errors: [...WRITE_ERRORS, 'NOT_FOUND'], permission: 'ephemeral_storage' }),
  'ephemeral.writeBinary': endpoint({ ...positional({ path: EphemeralPath, data: Type.String({ description: 'base64' }), options: EphemeralOptions }), result: Type.Null(), errors: [...WRITE_ERRORS, 'NOT_FOUND'], permission: 'ephemeral_storage' }),
  'ephemeral.delete': endpoint({ ...positional({ path: EphemeralPath }), result: Type.Null(), errors: ['PATH_NOT_ALLOWED'], permission: 'ephemeral_storage' }),
  'ephemeral.list': endpoint({ ...positional({ prefix: Opt(Type.String()) }), result: Type.Array(Type.String()), permission: 'ephemeral_storage' }),
  'ephemeral.stat': endpoint({ ...positional({ path: EphemeralPath }), result: EphemeralStat, errors: ['NOT_FOUND'], permission: 'ephemeral_storage' }),
  'ephemeral.clearExpired': endpoint({ ...positional({}), result: Type.Number(), permission: 'ephemeral_storage' }),
  'ephemeral.getPoolStatus': endpoint({ ...positional({}), result: Dto({ extensionMaxBytes: Type.Number(), extensionUsedBytes: Type.Number(), fileCount: Type.Number() }), permission: 'ephemeral_storage' }),
  'ephemeral.requestBlock': endpoint({ ...positional({ sizeBytes: Type.Integer({ minimum: 1 }), options: EphemeralOptions }), result: Dto({ reservationId: Type.String(), sizeBytes: Type.Number(), expiresAt: Type.String() }), errors: ['QUOTA_EXCEEDED'], permission: 'ephemeral_storage' }),
  'ephemeral.releaseBlock': endpoint({ ...positional({ reservationId: Id(64) }), result: Type.Null(), permission: 'ephemeral_storage' }),
  'variables.global.get': endpoint({ ...positional({ key: Key }), result: Type.String() }),
  'variables.global.has': endpoint({ ...positional({ key: Key }), result: Type.Boolean() }),
  'variables.global.list': endpoint({ ...positional({}), result: Variables }),
  'variables.global.set': endpoint({ ...positional({ key: Key, value: Opt(Any) }), result: Type.Null(), errors: ['INPUT_TOO_LARGE'] }),
  'variables.global.delete': endpoint({ ...positional({ key: Key }), result: Type.Null() }),
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
const TOAST = endpoint({ ...positional({ message: Opt(Any), options: Options({ title: Opt(Any), duration: Opt(Any) }) }), result: Type.Null(), errors: ['RATE_LIMITED'] });
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
  /**
   * promptRegex.setOwnedChats: the chats whose prompt regex scripts the extension applies itself (replaces its list).
   * Lumiverse asks no permission; here `regex_scripts`, as it switches off the person's prompt rules for those chats.
   */
  'pipeline.setPromptRegexChats': endpoint({ ...named({ chatIds: Type.Array(Id(128), { maxItems: 10_000 }) }), result: Type.Null(), permission: 'regex_scripts' }),
  'pipeline.registerMacro': endpoint({ ...named({ definition: Type.Object({ name: MacroName, description: Opt(Type.String()), category: Opt(Type.String()) }), hasHandler: Opt(Type.Boolean()) }), result: Type.Null() }),
  'pipeline.unregisterMacro': endpoint({ ...named({ name: Id(64) }), result: Type.Null() }),
  'pipeline.updateMacroValue': endpoint({ ...named({ name: Id(64), value: Opt(Any) }), result: Type.Null(), errors: ['NOT_FOUND'] }),
  // The permission depends on the kind (registrations.ts KIND_PERMISSION): checked by its handler.
  'pipeline.register': endpoint({ ...named({ kind: RegistrationKind, id: Id(64), options: Options({ priority: Opt(Type.Number()), timeoutMs: Opt(Type.Number()) }) }), result: Type.Null(), errors: ['PERMISSION_DENIED'] }),
  'pipeline.unregister': endpoint({ ...named({ id: Id(64) }), result: Type.Null() }),
  'pipeline.sendToFrontend': endpoint({ ...named({ payload: Opt(Any) }), result: Type.Null() }),
  // A message too large for one request: its JSON in parts, in order, put together by the host.
  'pipeline.sendToFrontendPart': endpoint({ ...named({
      id: Type.Integer({ minimum: 1 }),
      index: Type.Integer({ minimum: 0 }),
      count: Type.Integer({ minimum: 2, maximum: Math.ceil(MAX_TO_FRONTEND_CHARS / FRONTEND_PART_CHARS) }),
      part: Type.String({ maxLength: FRONTEND_PART_CHARS }),
    }), result: Type.Null(), errors: ['INPUT_TOO_LARGE'] }),
  ...prefixed('toast', Object.fromEntries(TOAST_LEVELS.map((level) => [level, TOAST])) as Record<(typeof TOAST_LEVELS)[number], typeof TOAST>),
  // Notifications (permission push_notification): the system's, from the desktop app's window (spindle-host/toasts.ts).
  'push.send': endpoint({ ...positional({
      input: Type.Object({ title: Type.String({ maxLength: 1000 }), body: Type.String({ maxLength: 10_000 }), tag: Opt(Type.String({ maxLength: 200 })), url: Opt(Type.String({ maxLength: 2048 })), icon: Opt(Type.String({ maxLength: 2048 })), rawTitle: Opt(Type.Boolean()), image: Opt(Type.String({ maxLength: 2048 })) }),
      userId: Opt(Type.String({ maxLength: 200 })),
    }), result: Type.Object({ sent: Type.Number() }), errors: ['RATE_LIMITED'], permission: 'push_notification' }),
  'push.getStatus': endpoint({ ...positional({ userId: Opt(Type.String({ maxLength: 200 })) }), result: Type.Object({ available: Type.Boolean(), subscriptionCount: Type.Number() }), permission: 'push_notification' }),
  // Whether a Workbench window is in view (window-presence.ts); the person here is the operator of their own app.
  'users.isVisible': endpoint({ ...positional({ userId: Opt(Type.String({ maxLength: 200 })) }), result: Type.Boolean() }),
  'users.getRole': endpoint({ ...positional({ userId: Opt(Type.String({ maxLength: 200 })) }), result: Type.Union([Type.Literal('operator'), Type.Literal('admin'), Type.Literal('user')]) }),
  // UI automation (Lumiverse's free tier): the window takes the person there (spindle-host/ui-navigation.ts).
  'ui.getDrawerTabs': endpoint({ ...positional({}), result: Type.Array(Dto({ id: Type.String(), tabName: Type.String() })) }),
  'ui.getSettingsTabs': endpoint({ ...positional({}), result: Type.Array(Any) }),
  'ui.openDrawerTab': endpoint({ ...positional({ tabId: Type.String({ minLength: 1, maxLength: 200 }) }), result: Type.Null(), errors: ['RATE_LIMITED'] }),
  'ui.closeDrawer': endpoint({ ...positional({}), result: Type.Null(), errors: ['RATE_LIMITED'] }),
  'ui.openSettings': endpoint({ ...positional({ viewId: Opt(Type.String({ maxLength: 200 })) }), result: Type.Null(), errors: ['RATE_LIMITED'] }),
  'ui.closeSettings': endpoint({ ...positional({}), result: Type.Null() }),
  'ui.openCommandPalette': endpoint({ ...positional({}), result: Type.Null() }),
  'ui.closeCommandPalette': endpoint({ ...positional({}), result: Type.Null() }),
  // Command palette entries (Lumiverse's free tier), checked and trimmed by the host (spindle-host/commands.ts).
  'commands.register': endpoint({ ...positional({ commands: Type.Array(Any, { maxItems: 1000 }) }), result: Type.Null() }),
  'commands.unregister': endpoint({ ...positional({ commandIds: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 1000 })) }), result: Type.Null() }),
  // At most MAX_CORS_IN_FLIGHT of one extension's under way (RATE_LIMITED past it; a backend's fetch() waits its turn).
  'cors.fetch': endpoint({ ...named({ url: Id(8192), init: Options({ method: Opt(Type.String()), headers: Opt(Type.Record(Type.String(), Any)), body: Opt(Any), bodyEncoding: Opt(Type.Literal('base64')), responseType: Opt(Type.String()) }) }), result: Dto({ status: Type.Number(), statusText: Type.String(), headers: Type.Record(Type.String(), Type.String()), body: Type.String() }), errors: ['PATH_NOT_ALLOWED', 'RESULT_TOO_LARGE', 'TOOL_TIMEOUT', 'LLM_UNREACHABLE', 'RATE_LIMITED'], permission: 'cors_proxy' }),
  // Generation (generate-requests.ts): the gate checks the `generation` permission itself, naming the call as the
  // extension made it (generate.batch, generate.rawStream…), again for each chunk, and answers it.
  'generate.quiet': endpoint({ params: QuietGenerateSchema, result: Type.String(), errors: GENERATION_ERRORS }),
  'generate.raw': endpoint({ params: RawGenerateSchema, result: Dto({ text: Type.String(), finishReason: Type.String() }), errors: GENERATION_ERRORS }),
  'generate.lumiverse': endpoint({ params: LumiverseGenerateSchema, result: Any, errors: GENERATION_ERRORS }),
  'generate.stream': endpoint({ params: LumiverseStreamSchema, result: Any, errors: GENERATION_ERRORS, chunk: StreamChunk }),
  // The prompt a turn of the chat would send now, built and not sent (spindle-host/prompt-dry-run.ts).
  'generate.dryRun': promptOfChat({ presetId: Opt(Type.String({ maxLength: 200 })), parameters: Opt(Type.Record(Type.String(), Any)) }, ['CANCELLED']),
  // The prompt of the extension's own blocks over a chat, only assembled: no context handlers, no interceptors, no model.
  assemble: promptOfChat({ blocks: Type.Array(Type.Record(Type.String(), Any), { minItems: 1, maxItems: 256 }), promptVariables: Opt(Type.Record(Type.String(), Any)) }, ['INPUT_TOO_LARGE']),
  /** The extension used a Lumiverse member the Workbench does not have (listed once on its card). */
  'runtime.inert': endpoint({ ...named({ member: Type.String() }), result: Type.Null() }),
  /** The worker refused its global fetch itself (no cors_proxy): the host lists it on its card, in its own words. */
  'runtime.refused': endpoint({ ...named({ what: Type.Literal('fetch') }), result: Type.Null() }),
} as const;

export const SPINDLE_REQUESTS = { ...DATA, ...KEEPING, ...HOST, ...PEER_REQUESTS, ...PROCESS_REQUESTS, ...FILE_REQUESTS, ...PRESET_REQUESTS, ...MEMORY_REQUESTS, ...REGEX_REQUESTS, ...DIALOG_REQUESTS } as const;

export type SpindleMethod = keyof typeof SPINDLE_REQUESTS;
export type StorageOp = keyof typeof STORAGE_OPS;
export type StorageParams<K extends StorageOp> = Static<(typeof STORAGE_OPS)[K]['params']>;
export type SpindleParams<M extends SpindleMethod> = Static<(typeof SPINDLE_REQUESTS)[M]['params']>;

/** The declaration of `method`, own names only ("constructor" is not a method). */
export function spindleRequest(method: string): SpindleRequestSpec | undefined {
  return Object.hasOwn(SPINDLE_REQUESTS, method) ? (SPINDLE_REQUESTS as Record<string, SpindleRequestSpec>)[method] : undefined;
}
