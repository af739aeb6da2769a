// Lumiverse's own REST API (`/api/v1/…`) as an extension's frontend reaches for it: the frame's fetch and XHR hand
// such a request to the app, which asks the host here. The read-mostly routes published frontends use are answered in
// Lumiverse's shapes, each with the permission its spindle.* twin needs (chats, characters, personas, presets), and
// settings rows of its own are kept (page-settings.ts); so is a character's update (characters) and a
// message's edit (ctx.chats.updateMessage's PUT, chat_mutation) and a chat's branch (chat_mutation); resumable
// uploads land in the extension's own data, its images (spindle.images) are fetched by their url, and a picture is
// made through the person's image connection as Lumiverse's image-gen route makes one (image_gen), its prompt written
// from the chat when asked (page-image-prompt.ts). Anything else
// gets Lumiverse's error shape: `{ "error": … }` and a status.
import { RecentWindow, UnderWay } from './per-extension-limits';
import { MAX_IMAGES_A_MINUTE } from './spindle-host/image-gen';
import os from 'node:os';
import { HostFailure, type HostError, type Result } from '../../../shared/errors';
import { LUMIVERSE_COMPAT_VERSION } from '../../../shared/spindle/compat';
import type { ExtensionUploads } from './spindle-host/extension-uploads';
import { MAX_UPLOAD_BYTES } from './spindle-host/extension-uploads';
import { IMAGE_ID } from './spindle-host/extension-images';
import { CHARACTER_IMAGE_ID, characterImageId } from '../../../shared/spindle/lumiverse-ids';
import { fromBase64 } from '../util/base64';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import type { SettingRow } from './spindle-host/page-settings';
import { writeImagePrompt } from './page-image-prompt';

export interface PageRequest {
  method: string;
  /** The path and query under the frame's origin: `/api/v1/chats?limit=5`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  bodyEncoding?: 'utf8' | 'base64';
}

export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  bodyEncoding: 'utf8' | 'base64';
}

export interface PageDeps {
  extensionId: string;
  /** Asks a spindle.* method as the extension (its permissions, its card's refusals). */
  spindle(method: string, args: unknown[]): Promise<Result<unknown>>;
  uploads: ExtensionUploads;
  /** Its images (spindle.images), for a fetch of their url; null without the images permission. */
  image(id: string): { mime: string; bytes: Buffer } | null;
  /** A character's picture by its image_id; null without the characters permission or a picture. */
  avatar(imageId: string): { mime: string; bytes: Buffer } | null;
  /** An image it made through the person's image connection (Lumiverse's image-gen results), whatever it holds now. */
  generatedImage(id: string): { mime: string; bytes: Buffer } | null;
  /** The chat open now (the frame knows it already: ctx.getActiveChat needs no permission). */
  activeChatId(): string | null;
  /** Its own rows of Lumiverse's settings (page-settings.ts). */
  settings: {
    list(): SettingRow[];
    get(key: string): SettingRow | null;
    put(values: Record<string, unknown>): Promise<SettingRow[]>;
    delete(key: string): Promise<boolean>;
  };
  /** The preset the chats use now (Lumiverse's activeLoomPresetId), or null. */
  activePresetId(): string | null;
  /** chat_mutation: the chat branched at a message, as the person's Branch makes one (named `name` when given); its id. */
  branch(chatId: string, messageId: string, name?: string): Promise<string>;
  now(): number;
  /** Whether a model may write it another image prompt now (PageRequests keeps the count; absent: yes). */
  promptTurn?(): boolean;
}

const TUS = { 'Tus-Resumable': '1.0.0' };
const json = (status: number, value: unknown, headers: Record<string, string> = {}): PageResponse => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value), bodyEncoding: 'utf8' });
const empty = (status: number, headers: Record<string, string>): PageResponse => ({ status, headers, body: '', bodyEncoding: 'utf8' });
const STATUS: Record<string, number> = { PERMISSION_DENIED: 403, NOT_FOUND: 404, INVALID_INPUT: 400, INPUT_TOO_LARGE: 413, QUOTA_EXCEEDED: 507, CONFLICT: 409, UNSUPPORTED_HERE: 400, RATE_LIMITED: 429 };
const failed = (error: HostError) => json(STATUS[error.code] ?? 500, { error: error.message, code: error.code });

/** A spindle.* answer as Lumiverse's route gives it: `shape` the value, 404 for null, its error otherwise. */
async function via(deps: PageDeps, method: string, args: unknown[], shape: (value: unknown) => unknown = (v) => v): Promise<PageResponse> {
  const result = await deps.spindle(method, args);
  if (!result.ok) return failed(result.error);
  return result.value === null ? json(404, { error: 'Not found' }) : json(200, shape(result.value));
}

/** An image's bytes as the answer, or Lumiverse's 404. */
const imageAnswer = (image: { mime: string; bytes: Buffer } | null): PageResponse =>
  image ? { status: 200, headers: { 'content-type': image.mime }, body: image.bytes.toString('base64'), bodyEncoding: 'base64' } : json(404, { error: 'Not found' });

/** A page of Lumiverse's REST lists: its pagination echoed. */
const paged = (query: URLSearchParams) => {
  const limit = Math.max(1, Math.min(1000, Number(query.get('limit')) || 50));
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  return { options: { limit, offset }, shape: (page: unknown) => ({ ...(page as object), limit, offset }) };
};

type Route = (match: RegExpMatchArray, query: URLSearchParams, request: PageRequest, deps: PageDeps) => Promise<PageResponse> | PageResponse;

/** A message's text changed (chat_mutation), the message handed back as it is now. */
const MESSAGE_ROUTE = /^chats\/([^/]+)\/messages\/([^/]+)$/;
async function editMessage(m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const [chatId, messageId] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
  const input = jsonBody(request);
  if (!input || (input.content !== undefined && typeof input.content !== 'string')) return json(400, { error: 'The body is a JSON object; its content, when given, a string.', code: 'INVALID_INPUT' });
  const updated = await deps.spindle('chat.updateMessage', [chatId, messageId, input.content === undefined ? {} : { content: input.content }]);
  if (!updated.ok) return failed(updated.error);
  const messages = await deps.spindle('chat.getMessages', [chatId]);
  if (!messages.ok) return failed(messages.error);
  return json(200, (messages.value as Array<{ id: string }>).find((message) => message.id === messageId) ?? null);
}

/** Lumiverse's branch route (Tapestry's "branch from here"): 201 with the new chat, its row as chats.get gives it. */
async function branchChat(m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const input = jsonBody(request);
  if (!input || typeof input.message_id !== 'string' || !input.message_id) return json(400, { error: 'message_id is required', code: 'INVALID_INPUT' });
  if (input.name !== undefined && input.name !== null && (typeof input.name !== 'string' || input.name.length > SESSION_LIMITS.name)) return json(400, { error: `name is a string of at most ${SESSION_LIMITS.name} characters`, code: 'INVALID_INPUT' });
  const id = await deps.branch(decodeURIComponent(m[1]!), input.message_id, typeof input.name === 'string' && input.name.trim() ? input.name : undefined);
  // Its row is what the chats permission reads; without it, its id.
  const chat = await deps.spindle('chats.get', [id]);
  return json(201, chat.ok && chat.value ? chat.value : { id });
}

/**
 * Lumiverse's own image generation (autoimg asks it for a picture): a picture made through the person's image
 * connection, as spindle.imageGen makes one (image_gen), kept as the extension's generated image, from the request's
 * prompt or one a model writes from the chat (its promptMode: page-image-prompt.ts).
 */
async function generateImage(_m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const input = jsonBody(request);
  if (!input || typeof input.chatId !== 'string' || !input.chatId) return json(400, { error: 'chatId is required' });
  const written = await writeImagePrompt({ ...input, chatId: input.chatId }, deps.spindle, deps.promptTurn);
  if (!written.ok) return failed(written.error);
  const { prompt, negativePrompt } = written.value;
  const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : undefined);
  const parameters = input.parameters && typeof input.parameters === 'object' && !Array.isArray(input.parameters) ? input.parameters : undefined;
  const wanted = { connection_id: text('connectionId'), negativePrompt, model: text('model'), parameters };
  const made = await deps.spindle('imageGen.generate', [{ prompt, ...Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined)), owner_chat_id: input.chatId, includeDataUrl: false }]);
  if (!made.ok) return failed(made.error);
  const image = made.value as { imageDataUrl: string; provider: string; imageId?: string; imageUrl?: string };
  return json(200, {
    generated: true,
    prompt,
    negativePrompt: negativePrompt ?? '',
    provider: image.provider,
    ...(image.imageId ? { imageId: image.imageId, imageUrl: image.imageUrl } : { imageDataUrl: image.imageDataUrl }),
  });
}

/** Lumiverse's prompt preview: the prompt its generate would use (written as the promptMode says), and the provider of the image connection. */
async function previewImagePrompt(_m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const input = jsonBody(request);
  if (!input || typeof input.chatId !== 'string' || !input.chatId) return json(400, { error: 'chatId is required' });
  const written = await writeImagePrompt({ ...input, chatId: input.chatId }, deps.spindle, deps.promptTurn);
  if (!written.ok) return failed(written.error);
  return json(200, { prompt: written.value.prompt, ...(written.value.negativePrompt ? { negativePrompt: written.value.negativePrompt } : {}), provider: written.value.provider });
}

/** The person's image connection as Lumiverse's imageGeneration setting (what autoimg sends back with its request). */
async function imageGenerationSetting(_m: RegExpMatchArray, _q: URLSearchParams, _r: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const listed = await deps.spindle('imageGen.listConnections', []);
  if (!listed.ok) return failed(listed.error);
  const first = (listed.value as Array<{ id: string; provider: string; model: string }>)[0];
  if (!first) return json(404, { error: 'Setting not found' });
  return json(200, { key: 'imageGeneration', value: { enabled: true, provider: first.provider, connectionId: first.id, model: first.model }, updated_at: Math.floor(deps.now() / 1000) });
}

/** The settings the Workbench answers itself: what the page shows now, never an extension's to write. */
const HOST_SETTINGS = new Set(['activeChatId', 'activePersonaId', 'imageGeneration', 'activeLoomPresetId']);
const row = (key: string, value: unknown, deps: PageDeps) => ({ key, value, updated_at: Math.floor(deps.now() / 1000) });
const hostSetting = (key: string) => json(403, { error: `"${key}" is the Council Workbench's own setting; an extension reads it and does not set it.`, code: 'PERMISSION_DENIED' });

/** PUT settings/<key> ({ value }) or PUT settings ({ key: value, … }): its own rows, all checked before any is kept. */
async function putSettings(m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const input = jsonBody(request);
  if (!input) return json(400, { error: 'The body is a JSON object.', code: 'INVALID_INPUT' });
  const values = m[1] === undefined ? input : { [decodeURIComponent(m[1])]: input.value };
  const refused = Object.keys(values).find((key) => HOST_SETTINGS.has(key));
  if (refused) return hostSetting(refused);
  const rows = await deps.settings.put(values);
  return json(200, m[1] === undefined ? rows : rows[0]);
}

/** A character's fields as Lumiverse's PUT takes them (its extensions replaced whole, as that route does). */
const CHARACTER_KEYS = ['name', 'description', 'personality', 'scenario', 'first_mes', 'mes_example', 'creator_notes', 'system_prompt', 'post_history_instructions', 'creator', 'tags', 'alternate_greetings', 'extensions', 'world_book_ids'];
async function putCharacter(m: RegExpMatchArray, _q: URLSearchParams, request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const input = jsonBody(request);
  if (!input) return json(400, { error: 'The body is a JSON object.', code: 'INVALID_INPUT' });
  // Lumiverse's other columns (avatar paths, favourites) have no place here and are left as they are.
  const patch = Object.fromEntries(CHARACTER_KEYS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
  return via(deps, 'characters.update', [decodeURIComponent(m[1]!), patch]);
}

const CHARACTER_IMAGE_PATH = new RegExp(`^images/(${CHARACTER_IMAGE_ID.source.slice(1, -1)})$`);

const ROUTES: Array<[string, RegExp, Route]> = [
  ['GET', /^settings\/activeChatId$/, (_m, _q, _r, deps) => json(200, { key: 'activeChatId', value: deps.activeChatId(), updated_at: Math.floor(deps.now() / 1000) })],
  ['GET', /^settings\/activePersonaId$/, (_m, _q, _r, deps) => via(deps, 'personas.getActive', [], (p) => ({ key: 'activePersonaId', value: (p as { id: string }).id, updated_at: Math.floor(deps.now() / 1000) }))],
  ['GET', /^settings\/imageGeneration$/, imageGenerationSetting],
  ['GET', /^settings\/activeLoomPresetId$/, (_m, _q, _r, deps) => json(200, row('activeLoomPresetId', deps.activePresetId(), deps))],
  ['GET', /^settings\/?$/, (_m, _q, _r, deps) => json(200, [row('activeChatId', deps.activeChatId(), deps), row('activeLoomPresetId', deps.activePresetId(), deps), ...deps.settings.list()])],
  ['PUT', /^settings\/?$/, putSettings],
  ['GET', /^settings\/([^/]+)$/, (m, _q, _r, deps) => {
    const found = deps.settings.get(decodeURIComponent(m[1]!));
    return found ? json(200, found) : json(404, { error: 'Not found' });
  }],
  ['PUT', /^settings\/([^/]+)$/, putSettings],
  ['DELETE', /^settings\/([^/]+)$/, async (m, _q, _r, deps) => {
    const key = decodeURIComponent(m[1]!);
    if (HOST_SETTINGS.has(key)) return hostSetting(key);
    return (await deps.settings.delete(key)) ? json(200, { success: true }) : json(404, { error: 'Not found' });
  }],
  ['POST', /^image-gen\/generate$/, generateImage],
  ['POST', /^image-gen\/preview-prompt$/, previewImagePrompt],
  ['GET', new RegExp(`^image-gen/results/(${IMAGE_ID.source.slice(1, -1)})$`), (m, _q, _r, deps) => imageAnswer(deps.image(m[1]!) ?? deps.generatedImage(m[1]!))],
  // The Workbench has no speech connections: the list is empty (a frontend's speech card then says there are none).
  ['GET', /^tts-connections\/?$/, (_m, query) => json(200, { data: [], total: 0, ...paged(query).options })],
  ['GET', /^tts-connections\/providers$/, () => json(200, { providers: [] })],
  ['GET', /^system\/info$/, () =>
    json(200, {
      os: { platform: process.platform, arch: process.arch, release: '', hostname: '' },
      cpu: { model: 'unknown', cores: os.availableParallelism() },
      memory: { total: 0, free: 0 },
      disk: null,
      backend: { version: LUMIVERSE_COMPAT_VERSION, runtime: 'Council Workbench' },
      git: null,
    })],
  ['GET', /^chats$/, (_m, query, _r, deps) => {
    const { options, shape } = paged(query);
    return via(deps, 'chats.list', [{ ...options, ...(query.get('characterId') ? { characterId: query.get('characterId') } : {}) }], shape);
  }],
  ['GET', /^chats\/([^/]+)$/, async (m, query, _r, deps) => {
    const chat = await via(deps, 'chats.get', [decodeURIComponent(m[1]!)]);
    if (chat.status !== 200 || query.get('messages') === 'false') return chat;
    // Its messages need what spindle.chat.getMessages needs (chat_mutation); without it the chat comes alone.
    const messages = await deps.spindle('chat.getMessages', [decodeURIComponent(m[1]!)]);
    return messages.ok ? json(200, { ...(JSON.parse(chat.body) as object), messages: messages.value }) : chat;
  }],
  ['GET', /^chats\/([^/]+)\/messages$/, async (m, query, _r, deps) => {
    const { options } = paged(query);
    const result = await deps.spindle('chat.getMessages', [decodeURIComponent(m[1]!)]);
    if (!result.ok) return failed(result.error);
    const all = result.value as unknown[];
    const data = query.get('tail') === 'true' ? all.slice(-options.limit) : all.slice(options.offset, options.offset + options.limit);
    return json(200, query.get('tail') === 'true' ? data : { data, total: all.length, ...options });
  }],
  ['POST', /^chats\/([^/]+)\/branch$/, branchChat],
  // ctx.chats.updateMessage's route (PUT, as Lumiverse's; PATCH too).
  ['PUT', MESSAGE_ROUTE, editMessage],
  ['PATCH', MESSAGE_ROUTE, editMessage],
  ['GET', /^characters$/, (_m, query, _r, deps) => {
    const { options, shape } = paged(query);
    return via(deps, 'characters.list', [options], shape);
  }],
  ['GET', /^characters\/([^/]+)$/, (m, _q, _r, deps) => via(deps, 'characters.get', [decodeURIComponent(m[1]!)])],
  ['PUT', /^characters\/([^/]+)$/, putCharacter],
  // PATCH too, as for messages (AI Character Rewriter saves its versions with it).
  ['PATCH', /^characters\/([^/]+)$/, putCharacter],
  ['GET', /^presets\/([^/]+)$/, (m, _q, _r, deps) => via(deps, 'presets.get', [decodeURIComponent(m[1]!)])],
  ['GET', /^personas$/, (_m, query, _r, deps) => {
    const { options, shape } = paged(query);
    return via(deps, 'personas.list', [options], shape);
  }],
  ['GET', /^personas\/([^/]+)$/, (m, _q, _r, deps) => via(deps, 'personas.get', [decodeURIComponent(m[1]!)])],
  // A character's picture (its image_id), as the frame's origin serves it to an <img>; and by Lumiverse's character route.
  ['GET', CHARACTER_IMAGE_PATH, (m, _q, _r, deps) => {
    return imageAnswer(deps.avatar(m[1]!));
  }],
  ['GET', /^characters\/([A-Za-z0-9_-]{1,128})\/avatar$/, (m, _q, _r, deps) => imageAnswer(deps.avatar(characterImageId(m[1]!)))],
  // An image it keeps (an <img> gets it from the frame's origin; a fetch comes here, for a blob or a canvas).
  ['GET', new RegExp(`^images/(${IMAGE_ID.source.slice(1, -1)})$`), (m, _q, _r, deps) => {
    return imageAnswer(deps.image(m[1]!));
  }],
  // tus 1.0.0 (creation): as Lumiverse's route, the upload tagged with the extension that may read it.
  ['OPTIONS', /^spindle-uploads(\/.*)?$/, () => empty(204, { ...TUS, 'Tus-Version': '1.0.0', 'Tus-Extension': 'creation', 'Tus-Max-Size': String(MAX_UPLOAD_BYTES) })],
  ['POST', /^spindle-uploads\/?$/, (_m, _q, request, deps) => {
    const length = Number(header(request, 'upload-length'));
    if (!Number.isInteger(length) || length < 0 || length > MAX_UPLOAD_BYTES) return json(400, { error: 'invalid Upload-Length' });
    const meta = uploadMetadata(header(request, 'upload-metadata'));
    if (!meta.extension) return json(400, { error: "Upload-Metadata 'extension' is required" });
    // Tagged for another extension, it would be readable by that one: refused.
    if (meta.extension !== deps.extensionId) return json(403, { error: `An upload from ${deps.extensionId}'s frontend is tagged with its own identifier, not "${meta.extension}".` });
    const record = deps.uploads.create(deps.extensionId, meta.filename ?? '', length);
    return empty(201, { ...TUS, Location: `/api/v1/spindle-uploads/${record.id}`, 'Upload-Offset': '0' });
  }],
  ['HEAD', /^spindle-uploads\/([^/]+)$/, (m, _q, _r, deps) => {
    const record = deps.uploads.find(deps.extensionId, m[1]!);
    if (!record) return empty(404, TUS);
    return empty(200, { ...TUS, 'Upload-Offset': String(record.offset), 'Upload-Length': String(record.declaredSize), 'Cache-Control': 'no-store' });
  }],
  ['PATCH', /^spindle-uploads\/([^/]+)$/, (m, _q, request, deps) => {
    if (header(request, 'content-type') !== 'application/offset+octet-stream') return json(415, { error: 'invalid Content-Type' });
    const record = deps.uploads.find(deps.extensionId, m[1]!);
    if (!record) return empty(404, TUS);
    const offset = Number(header(request, 'upload-offset'));
    if (!Number.isInteger(offset) || offset !== record.offset) return empty(409, { ...TUS, 'Upload-Offset': String(record.offset) });
    const bytes = request.bodyEncoding === 'base64' ? fromBase64(request.body ?? '', '/body') : Buffer.from(request.body ?? '', 'utf8');
    if (offset + bytes.length > record.declaredSize) return json(400, { error: `The upload was declared as ${record.declaredSize} bytes.` });
    return empty(204, { ...TUS, 'Upload-Offset': String(deps.uploads.append(record, offset, bytes)) });
  }],
];

/** A JSON object body, or null when there is none or it is not one. */
function jsonBody(request: PageRequest): Record<string, unknown> | null {
  try {
    const text = request.bodyEncoding === 'base64' ? fromBase64(request.body ?? '', '/body').toString('utf8') : (request.body ?? '');
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const header = (request: PageRequest, name: string) => Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** tus Upload-Metadata: `key base64value, key2 base64value2`. */
function uploadMetadata(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const [key, encoded] = pair.trim().split(' ');
    if (key) out[key] = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  }
  return out;
}

/** Requests of one extension's frontend answered at once; more are refused with a 429 (its frame queues them first). */
export const MAX_PAGE_REQUESTS_IN_FLIGHT = 8;

/** The requests extensions' frontends make to `/api/v1/…`, a few at a time for each. */
export class PageRequests {
  private readonly inFlight = new UnderWay(MAX_PAGE_REQUESTS_IN_FLIGHT);
  /** Image prompts a model writes for an extension: as many a minute as the images it may make. */
  private readonly written: RecentWindow;

  constructor(now: () => number = Date.now) {
    this.written = new RecentWindow(MAX_IMAGES_A_MINUTE, 60_000, now);
  }

  async answer(request: PageRequest, deps: PageDeps): Promise<PageResponse> {
    if (!this.inFlight.begin(deps.extensionId)) return { ...json(429, { error: `At most ${MAX_PAGE_REQUESTS_IN_FLIGHT} requests at a time.` }), headers: { 'content-type': 'application/json', 'Retry-After': '1' } };
    try {
      return await answerPageRequest(request, { ...deps, promptTurn: () => this.written.take(deps.extensionId) });
    } finally {
      this.inFlight.end(deps.extensionId);
    }
  }
}

/** Answers one request its frontend made to `/api/v1/…`. */
async function answerPageRequest(request: PageRequest, deps: PageDeps): Promise<PageResponse> {
  const url = new URL(request.path, 'https://frame.invalid');
  const route = url.pathname.startsWith('/api/v1/') ? url.pathname.slice('/api/v1/'.length) : null;
  const method = request.method.toUpperCase();
  if (route !== null) {
    for (const [verb, pattern, answer] of ROUTES) {
      const match = verb === method ? route.match(pattern) : null;
      if (!match) continue;
      try {
        return await answer(match, url.searchParams, request, deps);
      } catch (err) {
        if (err instanceof HostFailure) return failed(err.error);
        // A path segment that is not valid percent-encoding.
        if (err instanceof URIError) return json(400, { error: `Malformed path: ${url.pathname.slice(0, 200)}` });
        throw err;
      }
    }
  }
  return json(404, { error: `Not available in the Council Workbench: ${method} ${url.pathname}` });
}
