// spindle.generate in Lumiverse's shapes (GenerationRequestDTO): what the host accepts, checked on the host.
//
//   raw / quiet / rawStream / quietStream: { messages, parameters?, connection_id?, tools?, model? }
//     parameters: max_tokens, temperature, top_p, model (other keys are ignored, as providers differ)
//   batch: { requests: [raw input…], concurrent? }
// The answer is Lumiverse's `{ content, finish_reason, usage: { prompt_tokens, completion_tokens,
// total_tokens }, tool_calls? }`, with `text` and `finishReason` beside them for code written against
// the Workbench's own raw().
import type { HostError } from '../errors';
import { MAX_GENERATE_MESSAGES, MAX_GENERATE_NAME_CHARS, MAX_GENERATE_PROMPT_BYTES, MAX_GENERATE_TOKENS, type GenerateMessageDTO, type RawGenerateInput } from './generate';
import { utf8ByteLength } from './limits';

export interface LumiverseToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Checked and renamed to our raw generation's fields, plus the kind and the tools offered. */
export interface LumiverseGenerateInput extends RawGenerateInput {
  type: 'raw' | 'quiet';
  tools?: LumiverseToolSchema[];
}

export interface LumiverseBatchInput {
  type: 'batch';
  requests: LumiverseGenerateInput[];
  concurrent: boolean;
}

/** Most requests in one batch. */
export const MAX_BATCH_REQUESTS = 16;
const MAX_TOOLS = 64;
const ROLES = ['system', 'user', 'assistant'];

export type ValidatedLumiverse = { ok: true; input: LumiverseGenerateInput | LumiverseBatchInput } | { ok: false; error: HostError };

class Invalid extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function number(value: unknown, name: string, min: number, max: number, at: string, integer = false): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new Invalid(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}.`, at);
  }
  return value;
}

function name(value: unknown, at: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_GENERATE_NAME_CHARS) throw new Invalid(`Must be a string of at most ${MAX_GENERATE_NAME_CHARS} characters.`, at);
  return value;
}

function one(value: unknown, type: 'raw' | 'quiet', at: string): LumiverseGenerateInput {
  if (!isRecord(value)) throw new Invalid('A generation request is an object.', at);
  const list = value.messages;
  if (!Array.isArray(list) || list.length === 0) throw new Invalid('messages must be a non-empty array of { role, content }.', `${at}/messages`);
  if (list.length > MAX_GENERATE_MESSAGES) throw new Invalid(`At most ${MAX_GENERATE_MESSAGES} messages per request.`, `${at}/messages`);
  let bytes = 0;
  const messages = list.map((item: unknown, i): GenerateMessageDTO => {
    const where = `${at}/messages/${i}`;
    if (!isRecord(item)) throw new Invalid('A message is an object { role, content }.', where);
    if (typeof item.role !== 'string' || !ROLES.includes(item.role)) throw new Invalid('role must be system, user or assistant.', `${where}/role`);
    // Multi-part content keeps its text parts, as Lumiverse flattens them.
    const content = typeof item.content === 'string' ? item.content : Array.isArray(item.content) ? item.content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('') : null;
    if (content === null) throw new Invalid('content must be a string or an array of parts.', `${where}/content`);
    bytes += utf8ByteLength(content);
    return { role: item.role as GenerateMessageDTO['role'], content };
  });
  if (bytes > MAX_GENERATE_PROMPT_BYTES) throw new Invalid(`The prompt text is ${bytes} bytes; the limit is ${MAX_GENERATE_PROMPT_BYTES} bytes.`, `${at}/messages`);
  const parameters = value.parameters === undefined ? {} : value.parameters;
  if (!isRecord(parameters)) throw new Invalid('parameters must be an object.', `${at}/parameters`);
  const input: LumiverseGenerateInput = { type, messages };
  const connectionId = name(value.connection_id, `${at}/connection_id`);
  const model = name(parameters.model, `${at}/parameters/model`) ?? name(value.model, `${at}/model`);
  const maxTokens = number(parameters.max_tokens, 'max_tokens', 1, MAX_GENERATE_TOKENS, `${at}/parameters/max_tokens`, true);
  const temperature = number(parameters.temperature, 'temperature', 0, 2, `${at}/parameters/temperature`);
  const topP = number(parameters.top_p, 'top_p', 0, 1, `${at}/parameters/top_p`);
  if (connectionId) input.connectionId = connectionId;
  if (model) input.model = model;
  if (maxTokens !== undefined) input.maxTokens = maxTokens;
  if (temperature !== undefined) input.temperature = temperature;
  if (topP !== undefined) input.topP = topP;
  if (value.tools !== undefined) {
    if (!Array.isArray(value.tools) || value.tools.length > MAX_TOOLS) throw new Invalid(`tools must be an array of at most ${MAX_TOOLS} schemas.`, `${at}/tools`);
    input.tools = value.tools.map((tool: unknown, i) => {
      const where = `${at}/tools/${i}`;
      if (!isRecord(tool) || typeof tool.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) throw new Invalid('A tool has a name of letters, digits, _ and - (1–64).', `${where}/name`);
      if (!isRecord(tool.parameters)) throw new Invalid('A tool has a JSON Schema object in parameters.', `${where}/parameters`);
      return { name: tool.name, description: typeof tool.description === 'string' ? tool.description.slice(0, 4000) : '', parameters: tool.parameters };
    });
  }
  return input;
}

/** Checks a Lumiverse-shape request; `type` says raw, quiet or batch. */
export function validateLumiverseGenerate(value: unknown): ValidatedLumiverse {
  try {
    if (!isRecord(value)) throw new Invalid('A generation request is an object.', '');
    if (value.type === 'batch') {
      const requests = value.requests;
      if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_BATCH_REQUESTS) {
        throw new Invalid(`requests must be an array of 1 to ${MAX_BATCH_REQUESTS} generation requests.`, '/requests');
      }
      return { ok: true, input: { type: 'batch', requests: requests.map((r: unknown, i) => one(r, 'raw', `/requests/${i}`)), concurrent: value.concurrent === true } };
    }
    if (value.type !== 'raw' && value.type !== 'quiet') throw new Invalid('type must be raw, quiet or batch.', '/type');
    return { ok: true, input: one(value, value.type, '') };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: { code: 'INVALID_INPUT', message: err.message, ...(err.path ? { path: err.path } : {}) } };
    throw err;
  }
}
