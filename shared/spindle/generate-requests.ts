// spindle.generate's inputs as schemas — the Workbench's quiet and raw, Lumiverse's GenerationRequestDTO and batch —
// and what the host makes of a checked input: only the known fields, and the caps that need counting (UTF-8 bytes).
// The spindle request contract (requests.ts) declares these as the methods' params; the generation gate checks
// them again where it decides (after the permission), so its order stays Lumiverse's.
import { Type, type TSchema } from '@sinclair/typebox';
import type { HostError } from '../errors';
import {
  MAX_GENERATE_MESSAGES,
  MAX_GENERATE_TOOLS,
  MAX_GENERATE_NAME_CHARS,
  MAX_GENERATE_PROMPT_BYTES,
  MAX_GENERATE_TOKENS,
  type GenerateMessageDTO,
  type QuietGenerateInput,
  type RawGenerateInput,
} from '../protocol/generate';
import { MAX_BATCH_REQUESTS, type LumiverseBatchInput, type LumiverseGenerateInput, type LumiverseMessage } from '../protocol/generate-lumiverse';
import { utf8ByteLength } from '../protocol/limits';
import { firstProblem } from '../schema-problem';
import { lumiverseKnobs, lumiverseToolChoice, parameterTools } from './generate-knobs';

const Opt = Type.Optional;
const Role = Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant')]);
const MaxTokens = Type.Integer({ minimum: 1, maximum: MAX_GENERATE_TOKENS });
const MAX_TEMPERATURE = 2;
const MAX_TOP_P = 1;
const Temperature = Type.Number({ minimum: 0, maximum: MAX_TEMPERATURE });
const TopP = Type.Number({ minimum: 0, maximum: MAX_TOP_P });
const Name = Type.String({ maxLength: MAX_GENERATE_NAME_CHARS });
/** Lumiverse sends null for a knob it leaves unset. */
const Unset = <T extends TSchema>(schema: T) => Opt(Type.Union([schema, Type.Null()]));
const Closed = { additionalProperties: false } as const;

/** The Workbench's quiet({ prompt, systemPrompt?, maxTokens?, temperature? }): a background generation on the sidecar. */
export const QuietGenerateSchema = Type.Object({ prompt: Type.String({ minLength: 1 }), systemPrompt: Opt(Type.String()), maxTokens: Opt(MaxTokens), temperature: Opt(Temperature) }, Closed);

/** The Workbench's raw({ messages, connectionId?, model?, maxTokens?, temperature?, topP? }); a message's `name` is accepted and dropped. */
export const RawGenerateSchema = Type.Object(
  {
    messages: Type.Array(Type.Object({ role: Role, content: Type.String(), name: Opt(Type.String()) }, Closed), { minItems: 1, maxItems: MAX_GENERATE_MESSAGES }),
    connectionId: Opt(Name),
    model: Opt(Name),
    maxTokens: Opt(MaxTokens),
    temperature: Opt(Temperature),
    topP: Opt(TopP),
  },
  Closed,
);

// Lumiverse's GenerationRequestDTO: other fields pass (providers differ); multi-part content keeps its text parts.
// Its sampling knobs are the user's provider settings (published extensions default max_tokens to 16,000–65,536 and
// let temperature reach 5): taken if sensible, then brought within the Workbench's caps, not refused.
const LUMIVERSE_REQUEST = {
  messages: Type.Array(Type.Object({ role: Role, content: Type.Union([Type.String(), Type.Array(Type.Unknown())]) }), { minItems: 1, maxItems: MAX_GENERATE_MESSAGES }),
  parameters: Opt(
    Type.Object({
      model: Unset(Name),
      max_tokens: Unset(Type.Integer({ minimum: 1 })),
      // OpenAI's newer name for it, which reasoning-model requests carry instead (Model Evaluator).
      max_completion_tokens: Unset(Type.Integer({ minimum: 1 })),
      temperature: Unset(Type.Number({ minimum: 0 })),
      top_p: Unset(Type.Number({ minimum: 0 })),
    }),
  ),
  connection_id: Unset(Name),
  model: Unset(Name),
  tools: Opt(Type.Array(Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), description: Opt(Type.Unknown()), parameters: Type.Object({}) }), { maxItems: MAX_GENERATE_TOOLS })),
};
const LumiverseOne = Type.Object(LUMIVERSE_REQUEST);
const lumiverseOf = (type: 'raw' | 'quiet') => Type.Object({ ...LUMIVERSE_REQUEST, type: Type.Literal(type) });

/** One Lumiverse request, raw or quiet (what generate.rawStream / quietStream send). */
export const LumiverseStreamSchema = Type.Union([lumiverseOf('raw'), lumiverseOf('quiet')]);
/** Lumiverse's raw, quiet or batch({ requests, concurrent? }). */
export const LumiverseGenerateSchema = Type.Union([
  lumiverseOf('raw'),
  lumiverseOf('quiet'),
  Type.Object({ type: Type.Literal('batch'), requests: Type.Array(LumiverseOne, { minItems: 1, maxItems: MAX_BATCH_REQUESTS }), concurrent: Opt(Type.Unknown()) }),
]);

const invalid = (message: string, path: string): { ok: false; error: HostError } => ({ ok: false, error: { code: 'INVALID_INPUT', message, ...(path ? { path } : {}) } });
const tooLong = (bytes: number, path: string) => invalid(`The prompt text is ${bytes} bytes; the limit is ${MAX_GENERATE_PROMPT_BYTES} bytes.`, path);
/** Prompt text over the cap? A UTF-16 unit is at most 3 UTF-8 bytes, so short texts need no count. */
const overCap = (texts: string[]) => texts.reduce((n, t) => n + t.length, 0) * 3 > MAX_GENERATE_PROMPT_BYTES && texts.reduce((n, t) => n + utf8ByteLength(t), 0) > MAX_GENERATE_PROMPT_BYTES;
const bytesOf = (texts: string[]) => texts.reduce((n, t) => n + utf8ByteLength(t), 0);
const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== '')) as T;

export type ValidatedGenerate = { ok: true; kind: 'quiet'; input: QuietGenerateInput } | { ok: true; kind: 'raw'; input: RawGenerateInput } | { ok: false; error: HostError };

/** Checks a Workbench-shape input and copies its known fields. Errors are INVALID_INPUT with a path. */
export function validateGenerateInput(kind: unknown, input: unknown): ValidatedGenerate {
  if (kind !== 'quiet' && kind !== 'raw') return invalid('kind must be quiet or raw.', '/kind');
  const problem = firstProblem(kind === 'quiet' ? QuietGenerateSchema : RawGenerateSchema, input, `spindle.generate.${kind}`);
  if (problem) return { ok: false, error: problem };
  if (kind === 'quiet') {
    const { prompt, systemPrompt, maxTokens, temperature } = input as QuietGenerateInput;
    if (overCap([prompt, systemPrompt ?? ''])) return tooLong(bytesOf([prompt, systemPrompt ?? '']), '');
    return { ok: true, kind, input: defined({ prompt, systemPrompt, maxTokens, temperature }) };
  }
  const { messages, connectionId, model, maxTokens, temperature, topP } = input as RawGenerateInput;
  const contents = messages.map((m) => m.content);
  if (overCap(contents)) return tooLong(bytesOf(contents), '');
  return { ok: true, kind, input: defined({ messages: messages.map(({ role, content }) => ({ role, content })), connectionId, model, maxTokens, temperature, topP }) };
}

type LumiverseRequest = { messages: Array<{ role: GenerateMessageDTO['role']; content: string | unknown[] }>; parameters?: Record<string, unknown>; reasoning?: unknown; connection_id?: string | null; model?: string | null; tools?: Array<{ name: string; description?: unknown; parameters: Record<string, unknown> }> };
type Part = { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; content?: unknown };
const textOf = (parts: Part[]) => parts.map((part) => (part?.type !== 'tool_result' && typeof part?.text === 'string' ? part.text : '')).join('');
const TOOL_ID = /^[\x21-\x7e]{1,200}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Lumiverse's messages as the host sends them on. Text parts are kept (images and audio are not sent here); an
 * assistant's `tool_use` parts are its tool calls; each `tool_result` part is a message of the tool's own, answering
 * its call, before the rest of that message's text. A malformed tool part is INVALID_INPUT at its path.
 */
function lumiverseMessages(messages: LumiverseRequest['messages'], at: string): LumiverseMessage[] | { ok: false; error: HostError } {
  const out: LumiverseMessage[] = [];
  for (const [i, m] of messages.entries()) {
    if (typeof m.content === 'string') {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    const parts = m.content as Part[];
    const toolCalls: NonNullable<LumiverseMessage['toolCalls']> = [];
    for (const [j, part] of parts.entries()) {
      const where = `${at}/messages/${i}/content/${j}`;
      if (part?.type === 'tool_use') {
        if (m.role !== 'assistant') return invalid('A tool_use part belongs to an assistant message.', where);
        if (typeof part.id !== 'string' || !TOOL_ID.test(part.id)) return invalid('A tool_use part needs its id.', `${where}/id`);
        if (typeof part.name !== 'string' || !TOOL_NAME.test(part.name)) return invalid('A tool_use part needs the name of a tool ([A-Za-z0-9_-], at most 64).', `${where}/name`);
        toolCalls.push({ id: part.id, name: part.name, argsText: JSON.stringify(part.input ?? {}) });
      } else if (part?.type === 'tool_result') {
        if (typeof part.tool_use_id !== 'string' || !TOOL_ID.test(part.tool_use_id)) return invalid('A tool_result part needs the tool_use_id of the call it answers.', `${where}/tool_use_id`);
        // Its content as text (Anthropic's blocks of text joined); an error said, as the model should read it.
        const content = typeof part.content === 'string' ? part.content : Array.isArray(part.content) ? textOf(part.content as Part[]) : JSON.stringify(part.content ?? '');
        out.push({ role: 'tool', toolCallId: part.tool_use_id, content: (part as { is_error?: unknown }).is_error === true ? `Error: ${content}` : content });
      }
    }
    const text = textOf(parts);
    if (toolCalls.length) out.push({ role: 'assistant', content: text, toolCalls });
    else if (text || !parts.some((part) => part?.type === 'tool_result')) out.push({ role: m.role, content: text });
  }
  return out;
}

function lumiverseOne(value: LumiverseRequest, type: 'raw' | 'quiet', at: string): LumiverseGenerateInput | { ok: false; error: HostError } {
  const messages = lumiverseMessages(value.messages, at);
  if (!Array.isArray(messages)) return messages;
  const bytes = bytesOf(messages.flatMap((m) => [m.content, ...(m.toolCalls ?? []).map((c) => c.argsText)]));
  if (bytes > MAX_GENERATE_PROMPT_BYTES) return tooLong(bytes, `${at}/messages`);
  const p = (value.parameters ?? {}) as { model?: string | null; max_tokens?: number | null; max_completion_tokens?: number | null; temperature?: number | null; top_p?: number | null };
  const tools = (value.tools ?? parameterTools(value.parameters?.tools))?.map((tool) => ({ name: tool.name, description: typeof tool.description === 'string' ? tool.description.slice(0, 4000) : '', parameters: tool.parameters }));
  const capped = (knob: number | null | undefined, cap: number) => (typeof knob === 'number' ? Math.min(knob, cap) : undefined);
  const knobs = lumiverseKnobs((value.parameters ?? {}) as Record<string, unknown>, at, value.reasoning);
  if ('error' in knobs) return { ok: false, error: knobs.error };
  const toolChoice = lumiverseToolChoice((value.parameters as { tool_choice?: unknown } | undefined)?.tool_choice, (tools ?? []).map((t) => t.name), at);
  if (toolChoice && typeof toolChoice === 'object' && 'error' in toolChoice) return { ok: false, error: toolChoice.error };
  return defined({
    type,
    messages,
    connectionId: value.connection_id,
    model: p.model || value.model,
    maxTokens: capped(p.max_tokens ?? p.max_completion_tokens, MAX_GENERATE_TOKENS),
    temperature: capped(p.temperature, MAX_TEMPERATURE),
    topP: capped(p.top_p, MAX_TOP_P),
    ...knobs,
    tools,
    toolChoice,
  }) as LumiverseGenerateInput;
}

export type ValidatedLumiverse = { ok: true; input: LumiverseGenerateInput | LumiverseBatchInput } | { ok: false; error: HostError };

/** Checks a Lumiverse-shape request (`type`: raw, quiet or batch) and renames it to our raw generation's fields. */
export function validateLumiverseGenerate(value: unknown): ValidatedLumiverse {
  const problem = firstProblem(LumiverseGenerateSchema, value, 'spindle.generate');
  if (problem) return { ok: false, error: problem };
  const request = value as (LumiverseRequest & { type: 'raw' | 'quiet' }) | { type: 'batch'; requests: LumiverseRequest[]; concurrent?: unknown };
  if (request.type !== 'batch') {
    const one = lumiverseOne(request, request.type, '');
    return 'ok' in one ? one : { ok: true, input: one };
  }
  const requests: LumiverseGenerateInput[] = [];
  for (const [i, r] of request.requests.entries()) {
    const one = lumiverseOne(r, 'raw', `/requests/${i}`);
    if ('ok' in one) return one;
    requests.push(one);
  }
  return { ok: true, input: { type: 'batch', requests, concurrent: request.concurrent === true } };
}
