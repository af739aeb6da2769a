// Lumiverse's provider knobs in a generate request's `parameters` that the Workbench sends on: top_k, the penalties,
// seed, stop and response_format by name, the reasoning effort, and any other field as written to an OpenAI-compatible
// server. They are the person's provider settings, written by extensions for whatever
// provider was chosen, so a value out of range is brought within range or left out, as a provider would, not refused;
// only a response_format that says something other than JSON or text is an error (the caller asked for a shape).
import type { HostError } from '../errors';
import type { LumiverseGenerateInput } from '../protocol/generate-lumiverse';
import type { LlmToolChoice } from '../types/llm';
import { MAX_GENERATE_TOOLS } from '../protocol/generate';

type Knobs = Pick<LumiverseGenerateInput, 'topK' | 'frequencyPenalty' | 'presencePenalty' | 'seed' | 'stopSequences' | 'responseFormat' | 'extraBody' | 'reasoningEffort'>;

const MAX_TOP_K = 1000;
const MAX_STOPS = 16;
const MAX_STOP_CHARS = 200;
const SCHEMA_NAME = /[^A-Za-z0-9_-]/g;

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function stops(value: unknown): string[] | undefined {
  const list = (typeof value === 'string' ? [value] : Array.isArray(value) ? value : []).filter((s): s is string => typeof s === 'string' && s.length > 0);
  return list.length ? list.slice(0, MAX_STOPS).map((s) => s.slice(0, MAX_STOP_CHARS)) : undefined;
}

/** OpenAI's response_format: json_object, or json_schema with `{ name?, schema }`; `text` is the default. */
export function responseFormat(value: unknown, at: string): Knobs['responseFormat'] | { error: HostError } | undefined {
  if (value === undefined || value === null) return undefined;
  const format = value as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown; strict?: unknown } };
  const bad = (message: string, path = '') => ({ error: { code: 'INVALID_INPUT', message, path: `${at}/parameters/response_format${path}` } });
  if (typeof format !== 'object' || Array.isArray(format)) return bad('response_format is an object, as OpenAI has it ({ type: "json_object" } or { type: "json_schema", json_schema }).');
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type !== 'json_schema') return bad('response_format.type is text, json_object or json_schema.', '/type');
  const schema = format.json_schema?.schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return bad('A json_schema response_format needs json_schema.schema, a JSON Schema object.', '/json_schema/schema');
  const name = typeof format.json_schema?.name === 'string' ? format.json_schema.name.replace(SCHEMA_NAME, '_').slice(0, 64) : '';
  return { type: 'json', schema: schema as Record<string, unknown>, ...(name ? { name } : {}), ...(format.json_schema?.strict === true ? { strict: true } : {}) };
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
type ToolSchema = { name: string; description: string; parameters: Record<string, unknown> };

/**
 * Tools written into `parameters` in a provider's own shape, which Lumiverse passes on to that provider: OpenAI's
 * `{ type: 'function', function: { name, description, parameters } }` or Anthropic's `{ name, description, input_schema }`
 * (Persona Expression Sheet's Anthropic branch). Read only when the request offers no tools of its own; one that is
 * neither shape, or has a name no provider takes, is left out, as a provider would drop what it cannot read.
 */
export function parameterTools(value: unknown): ToolSchema[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tools = value.slice(0, MAX_GENERATE_TOOLS).flatMap((raw): ToolSchema[] => {
    const tool = (raw ?? {}) as { type?: unknown; function?: Record<string, unknown>; name?: unknown; description?: unknown; input_schema?: unknown };
    const spec = tool.type === 'function' && tool.function ? { name: tool.function.name, description: tool.function.description, schema: tool.function.parameters } : { name: tool.name, description: tool.description, schema: tool.input_schema };
    // No schema is a function of no arguments, as both providers read one.
    if (spec.schema === undefined) spec.schema = { type: 'object', properties: {} };
    if (typeof spec.name !== 'string' || !TOOL_NAME.test(spec.name) || typeof spec.schema !== 'object' || spec.schema === null || Array.isArray(spec.schema)) return [];
    return [{ name: spec.name, description: typeof spec.description === 'string' ? spec.description : '', parameters: spec.schema as Record<string, unknown> }];
  });
  return tools.length ? tools : undefined;
}

/**
 * `tool_choice` in OpenAI's words (auto, none, required, { type: 'function', function: { name } }) or Anthropic's
 * ({ type: 'auto' | 'any' | 'tool', name }), over the tools the request offers. A shape neither uses is left out (the
 * model decides); a forced name the request does not offer is an error, as the provider would answer.
 */
export function lumiverseToolChoice(value: unknown, tools: readonly string[], at: string): LlmToolChoice | { error: HostError } | undefined {
  if (!tools.length || value === undefined || value === null) return undefined;
  const choice = value as { type?: unknown; name?: unknown; function?: { name?: unknown } };
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (typeof choice !== 'object') return undefined;
  if (choice.type === 'auto') return 'auto';
  if (choice.type === 'any') return 'required';
  const name = choice.type === 'function' ? choice.function?.name : choice.type === 'tool' ? choice.name : undefined;
  if (typeof name !== 'string') return undefined;
  if (!tools.includes(name)) return { error: { code: 'INVALID_INPUT', message: `tool_choice forces ${name}, which is not among the request's tools.`, path: `${at}/parameters/tool_choice` } };
  return { name };
}

/**
 * Fields of `parameters` the Workbench does not map, sent as written to an OpenAI-compatible server, as Lumiverse hands
 * them to the provider (a local server's `chat_template_kwargs`, `min_p`, `repetition_penalty`; the Model Evaluator's
 * "Additional parameters"). Never one the request itself is made of (its messages, model, tools, stream, the sampling
 * mapped above), nor past EXTRA_BODY_CHARS of JSON in all; a key that is none of a provider's is left to it to ignore.
 */
const MAPPED = new Set([
  ...['model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty', 'seed', 'stop', 'response_format'],
  ...['tools', 'tool_choice', 'functions', 'function_call', 'stream', 'stream_options', 'n', 'user', 'reasoning_effort', 'verbosity', 'logprobs', 'top_logprobs'],
  // The AI SDK reads these options of its own under the same key: never an extension's to set.
  ...['reasoningEffort', 'textVerbosity', 'strictJsonSchema'],
]);
export const EXTRA_BODY_CHARS = 64 * 1024;
const FIELD = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

function extraBody(parameters: Record<string, unknown>): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  let chars = 0;
  for (const [key, value] of Object.entries(parameters)) {
    if (MAPPED.has(key) || !FIELD.test(key) || value === undefined || value === null) continue;
    const json = JSON.stringify(value);
    if (json === undefined || (chars += key.length + json.length) > EXTRA_BODY_CHARS) continue;
    extra[key] = JSON.parse(json) as unknown;
  }
  return Object.keys(extra).length ? extra : undefined;
}

/**
 * Lumiverse's reasoning override (`reasoning: { source, effort }`) as the effort OpenAI-style providers take; a
 * `reasoning_effort` written into `parameters` wins. One the providers do not know (`auto`, a typo) is left out, as are
 * "off" and "inherit": the Workbench sends no reasoning fields of its own, so off is what it does already.
 */
const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

function reasoningEffort(parameters: Record<string, unknown>, reasoning: unknown): string | undefined {
  const own = parameters.reasoning_effort;
  if (typeof own === 'string' && EFFORTS.has(own)) return own;
  const override = (reasoning ?? {}) as { source?: unknown; effort?: unknown; apiReasoning?: unknown };
  // Lumiverse sends no effort when the request asks for no API reasoning.
  if (override.source !== 'custom' || override.apiReasoning === false || typeof override.effort !== 'string') return undefined;
  return EFFORTS.has(override.effort) ? override.effort : undefined;
}

/** The knobs kept from `parameters` (and the request's reasoning override), or the error of a response_format that cannot be honoured. */
export function lumiverseKnobs(parameters: Record<string, unknown>, at: string, reasoning?: unknown): Knobs | { error: HostError } {
  const format = responseFormat(parameters.response_format, at);
  if (format && 'error' in format) return format;
  const extra = extraBody(parameters);
  const effort = reasoningEffort(parameters, reasoning);
  const { top_k: topK, frequency_penalty: frequency, presence_penalty: presence, seed } = parameters;
  return {
    // 0 is "off" in the settings that write it.
    ...(finite(topK) && topK >= 1 ? { topK: Math.min(Math.floor(topK), MAX_TOP_K) } : {}),
    ...(finite(frequency) ? { frequencyPenalty: clamp(frequency, -2, 2) } : {}),
    ...(finite(presence) ? { presencePenalty: clamp(presence, -2, 2) } : {}),
    // -1 is "random" in the settings that write it.
    ...(finite(seed) && Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 31 - 1 ? { seed } : {}),
    ...(stops(parameters.stop) ? { stopSequences: stops(parameters.stop) } : {}),
    ...(format ? { responseFormat: format } : {}),
    ...(extra ? { extraBody: extra } : {}),
    ...(effort ? { reasoningEffort: effort } : {}),
  };
}
