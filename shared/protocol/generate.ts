// spindle.generate.quiet / .raw: the inputs an extension passes, what comes back, their caps, and the validator both sides run.
//
// An extension with the `generation` permission asks the host for a generation; the host checks the
// permission at that moment, validates the input again (the worker runs extension code), applies a
// per-extension concurrency and per-minute cap and a timeout, and runs it on one of the user's
// connections. Only text comes back: keys, profiles and raw provider errors never reach the worker.
//
//   quiet: a background generation on the sidecar connection (sidecarSettings), like Lumiverse's
//          "quiet" generation: { prompt, systemPrompt?, maxTokens?, temperature? } → string.
//          No sidecar chosen → SIDECAR_NOT_CONFIGURED.
//   raw:   a direct generation, no prompt assembly, on `connectionId` or else the chat's main
//          connection: { messages, connectionId?, model?, maxTokens?, temperature?, topP? }
//          → { text, finishReason, usage? }.
import type { HostError } from '../errors';
import { utf8ByteLength } from './limits';

export type GenerateKind = 'quiet' | 'raw';

export interface QuietGenerateInput {
  prompt: string;
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
}

export interface GenerateMessageDTO {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface RawGenerateInput {
  messages: GenerateMessageDTO[];
  connectionId?: string;
  model?: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

export interface RawGenerateResult {
  text: string;
  finishReason: 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
}

/** Most UTF-8 bytes of prompt text one request may carry (prompt + systemPrompt, or all message contents). */
export const MAX_GENERATE_PROMPT_BYTES = 256 * 1024;
/** Most messages in one raw request. */
export const MAX_GENERATE_MESSAGES = 256;
/** Highest maxTokens an extension may ask for. */
export const MAX_GENERATE_TOKENS = 8192;
/** Longest connection id or model name. */
export const MAX_GENERATE_NAME_CHARS = 200;
/** Largest generated text the host hands back, in UTF-8 bytes. */
export const MAX_GENERATE_RESULT_BYTES = 1024 * 1024;

export type ValidatedGenerate = { ok: true; kind: 'quiet'; input: QuietGenerateInput } | { ok: true; kind: 'raw'; input: RawGenerateInput } | { ok: false; error: HostError };

const QUIET_FIELDS = ['prompt', 'systemPrompt', 'maxTokens', 'temperature'];
const RAW_FIELDS = ['messages', 'connectionId', 'model', 'maxTokens', 'temperature', 'topP'];
const ROLES = ['system', 'user', 'assistant'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Invalid extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

function checkFields(value: Record<string, unknown>, allowed: string[], at: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new Invalid(`Unknown field ${key.length > 40 ? `${key.slice(0, 40)}…` : key}.`, `${at}/${key}`);
  }
}

function optionalNumber(value: Record<string, unknown>, key: string, min: number, max: number, integer = false): number | undefined {
  const v = value[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new Invalid(`${key} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`, `/${key}`);
  }
  return v;
}

function optionalName(value: Record<string, unknown>, key: string): string | undefined {
  const v = value[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > MAX_GENERATE_NAME_CHARS) throw new Invalid(`${key} must be a string of at most ${MAX_GENERATE_NAME_CHARS} characters.`, `/${key}`);
  return v;
}

function tooLong(bytes: number): Invalid {
  return new Invalid(`The prompt text is ${bytes} bytes; the limit is ${MAX_GENERATE_PROMPT_BYTES} bytes.`, '');
}

function quiet(value: Record<string, unknown>): QuietGenerateInput {
  checkFields(value, QUIET_FIELDS, '');
  if (typeof value.prompt !== 'string' || value.prompt === '') throw new Invalid('prompt must be a non-empty string.', '/prompt');
  if (value.systemPrompt !== undefined && typeof value.systemPrompt !== 'string') throw new Invalid('systemPrompt must be a string.', '/systemPrompt');
  const input: QuietGenerateInput = { prompt: value.prompt };
  if (value.systemPrompt) input.systemPrompt = value.systemPrompt;
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts need no count.
  const chars = input.prompt.length + (input.systemPrompt?.length ?? 0);
  if (chars * 3 > MAX_GENERATE_PROMPT_BYTES) {
    const bytes = utf8ByteLength(input.prompt) + utf8ByteLength(input.systemPrompt ?? '');
    if (bytes > MAX_GENERATE_PROMPT_BYTES) throw tooLong(bytes);
  }
  const maxTokens = optionalNumber(value, 'maxTokens', 1, MAX_GENERATE_TOKENS, true);
  const temperature = optionalNumber(value, 'temperature', 0, 2);
  if (maxTokens !== undefined) input.maxTokens = maxTokens;
  if (temperature !== undefined) input.temperature = temperature;
  return input;
}

function raw(value: Record<string, unknown>): RawGenerateInput {
  checkFields(value, RAW_FIELDS, '');
  const list = value.messages;
  if (!Array.isArray(list) || list.length === 0) throw new Invalid('messages must be a non-empty array of { role, content }.', '/messages');
  if (list.length > MAX_GENERATE_MESSAGES) throw new Invalid(`At most ${MAX_GENERATE_MESSAGES} messages per request.`, '/messages');
  let chars = 0;
  const messages: GenerateMessageDTO[] = list.map((item: unknown, i) => {
    const at = `/messages/${i}`;
    if (!isRecord(item)) throw new Invalid('A message is an object { role, content }.', at);
    // `name` (LlmMessageDTO) is accepted and dropped: providers disagree on it.
    checkFields(item, ['role', 'content', 'name'], at);
    if (typeof item.role !== 'string' || !ROLES.includes(item.role)) throw new Invalid('role must be system, user or assistant.', `${at}/role`);
    if (typeof item.content !== 'string') throw new Invalid('content must be a string.', `${at}/content`);
    chars += item.content.length;
    return { role: item.role as GenerateMessageDTO['role'], content: item.content };
  });
  if (chars * 3 > MAX_GENERATE_PROMPT_BYTES) {
    const bytes = messages.reduce((sum, m) => sum + utf8ByteLength(m.content), 0);
    if (bytes > MAX_GENERATE_PROMPT_BYTES) throw tooLong(bytes);
  }
  const input: RawGenerateInput = { messages };
  const connectionId = optionalName(value, 'connectionId');
  const model = optionalName(value, 'model');
  const maxTokens = optionalNumber(value, 'maxTokens', 1, MAX_GENERATE_TOKENS, true);
  const temperature = optionalNumber(value, 'temperature', 0, 2);
  const topP = optionalNumber(value, 'topP', 0, 1);
  if (connectionId !== undefined) input.connectionId = connectionId;
  if (model !== undefined) input.model = model;
  if (maxTokens !== undefined) input.maxTokens = maxTokens;
  if (temperature !== undefined) input.temperature = temperature;
  if (topP !== undefined) input.topP = topP;
  return input;
}

/** Checks and copies a generation input (only known fields survive). Errors are INVALID_INPUT with a path. */
export function validateGenerateInput(kind: unknown, input: unknown): ValidatedGenerate {
  try {
    if (kind !== 'quiet' && kind !== 'raw') throw new Invalid('kind must be quiet or raw.', '/kind');
    if (!isRecord(input)) throw new Invalid(`spindle.generate.${kind} expects an object.`, '');
    return kind === 'quiet' ? { ok: true, kind, input: quiet(input) } : { ok: true, kind, input: raw(input) };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: { code: 'INVALID_INPUT', message: err.message, ...(err.path ? { path: err.path } : {}) } };
    throw err;
  }
}
