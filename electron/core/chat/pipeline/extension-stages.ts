// The turn's extension stages, as Lumiverse runs them: context handlers before prompt assembly, interceptors
// after it, each in priority order under its own deadline. One that throws, hangs, answers garbage or too much is
// skipped with a note on the turn, and the turn goes on.
import type { LlmMessage, LlmRequest } from '../../../../shared/types/llm';
import { SAMPLING_RANGES } from '../../../../shared/types/chat';
import type { ExtensionPipeline, PipelineHandlerRef } from '../../extensions/pipeline/pipeline-bridge';
import type { TurnTrace } from './turn-trace';
import { responseFormat } from '../../../../shared/spindle/generate-knobs';

/** Lumiverse's interceptor budget: 10 s unless the manifest (interceptorTimeoutMs) or the registration asks otherwise, within 1 s – 300 s. */
export const HANDLER_TIMEOUT = { defaultMs: 10_000, minMs: 1_000, maxMs: 300_000 } as const;
/** What an interceptor may hand back: this many messages and characters in all. */
export const INTERCEPTOR_LIMITS = { maxMessages: 2000, maxChars: 4_000_000 } as const;

export function handlerTimeout(ref: PipelineHandlerRef): number {
  const asked = ref.timeoutMs ?? HANDLER_TIMEOUT.defaultMs;
  return Math.min(HANDLER_TIMEOUT.maxMs, Math.max(HANDLER_TIMEOUT.minMs, Math.floor(asked)));
}

/** Calls one handler: its value, or why it is skipped. */
async function callHandler(ref: PipelineHandlerRef, args: unknown[], signal: AbortSignal): Promise<{ value: unknown } | { skipped: string }> {
  const result = await ref.call(args, handlerTimeout(ref), signal);
  return result.ok ? { value: result.value } : { skipped: `skipped: ${result.error.code} — ${result.error.message}` };
}

/** The generation context handlers see (Lumiverse's fields) plus what the Workbench assembles from. */
export type GenerationContext = Record<string, unknown> & { chatId: string; generationType: string; dryRun: boolean; userId: string };

/** The host's fields of the context: a context handler's answer cannot change them. */
const HOST_FIELDS = ['chatId', 'generationId', 'generationType', 'dryRun', 'isDryRun', 'userId', 'characterId', 'personaId', 'connectionId', 'presetId', 'presetMetadata', 'personaAddonStates', 'mainDispatch'] as const;

/**
 * The context as one extension's handler receives it: of the preset's metadata only its own key (Lumiverse's
 * presetMetadata, "only this extension's own preset metadata namespace"), never another extension's.
 */
export function contextFor(context: GenerationContext, extensionId: string): GenerationContext {
  const metadata = context.presetMetadata as Record<string, unknown> | null | undefined;
  const own = metadata && typeof metadata === 'object' && Object.hasOwn(metadata, extensionId) ? structuredClone(metadata[extensionId]) : null;
  return { ...context, presetMetadata: own };
}

/** The chat message a prompt message came from (its id and place in the chat); null for the rest of the prompt. */
export interface MessageSource {
  id: string;
  index: number;
}

export async function runContextHandlers(
  pipeline: ExtensionPipeline | undefined,
  context: GenerationContext,
  signal: AbortSignal,
  trace: TurnTrace,
): Promise<{ context: GenerationContext; cancelledBy?: string }> {
  let current = context;
  for (const ref of pipeline?.handlers('context_handler') ?? []) {
    if (signal.aborted) break;
    const started = trace.start('context handlers', ref.extensionName);
    const answer = await callHandler(ref, [contextFor(current, ref.extensionId)], signal);
    if ('skipped' in answer || answer.value === null) {
      started.end(undefined, undefined, 'skipped' in answer ? answer.skipped : undefined);
      continue;
    }
    const value = answer.value;
    if (typeof value !== 'object' || Array.isArray(value)) {
      started.end(undefined, undefined, 'skipped: it returned something other than the context object.');
      continue;
    }
    // The host's own fields stay the host's: a handler changes only what it adds or what assembly reads.
    const next = { ...(value as Record<string, unknown>), ...Object.fromEntries(HOST_FIELDS.filter((key) => key in context).map((key) => [key, context[key]])) } as GenerationContext;
    started.end(JSON.stringify(current), JSON.stringify(next));
    current = next;
    if (next.cancelGeneration === true) return { context: current, cancelledBy: ref.extensionName };
  }
  return { context: current };
}

/** Interceptor parameters the Workbench's requests carry; the rest are listed as not applied. */
const PARAMETERS: Record<string, 'temperature' | 'topP' | 'maxTokens'> = { temperature: 'temperature', top_p: 'topP', topP: 'topP', max_tokens: 'maxTokens', maxTokens: 'maxTokens' };
/** Names a reply's stop strings go by (OpenAI's `stop`, Anthropic's `stop_sequences`). */
const STOP_NAMES = new Set(['stop', 'stop_sequences', 'stopSequences']);

export type InterceptorParameters = Pick<LlmRequest, 'temperature' | 'topP' | 'maxTokens' | 'stopSequences' | 'responseFormat'>;

/** Gemini's OpenAPI schema types (OBJECT, STRING…) as JSON Schema's. */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'type' && typeof value === 'string' ? value.toLowerCase() : jsonSchemaOf(value)]));
}

/**
 * A reply shaped as JSON, as an interceptor asks its provider for one: OpenAI's `response_format`, or Gemini's
 * `responseMimeType: 'application/json'` with its `responseSchema` (StructuredPrefill writes whichever the turn's
 * connection speaks). Null when the parameters ask for none; a string when they ask in a way that cannot be honoured.
 */
function replyFormat(parameters: Record<string, unknown>): LlmRequest['responseFormat'] | string | null {
  if (parameters.response_format !== undefined) {
    const format = responseFormat(parameters.response_format, '');
    return format && 'error' in format ? format.error.message : (format ?? null);
  }
  if (parameters.responseMimeType !== 'application/json') return null;
  const schema = jsonSchemaOf(parameters.responseSchema);
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? { type: 'json', schema: schema as Record<string, unknown> } : { type: 'json' };
}
const FORMAT_NAMES = new Set(['response_format', 'responseMimeType', 'responseSchema']);

/** Stop strings within the session's own limits (a string or a list of them), or null when they are not. */
function stopStrings(raw: unknown): string[] | null {
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.length > SAMPLING_RANGES.stop.items) return null;
  return list.every((item) => typeof item === 'string' && item.length > 0 && item.length <= SAMPLING_RANGES.stop.length) ? (list as string[]) : null;
}

const sourceKey = (source: MessageSource) => `${source.index}:${source.id}`;

/**
 * Messages as interceptors get them, as Lumiverse hands them: a chat turn is marked (__isChatHistory) with the id and
 * place of its chat message, so an interceptor maps it back without matching on its text.
 */
function interceptorMessages(messages: LlmMessage[], sources: ReadonlyArray<MessageSource | null>) {
  return messages.map((m, i) => {
    const source = sources[i];
    return { role: m.role, content: m.content, ...(source ? { __isChatHistory: true, sourceMessageId: source.id, sourceIndexInChat: source.index } : {}) };
  });
}

/**
 * The messages an interceptor handed back, and the sources it kept on them (they never reach the model): only a mark
 * assembly made (`known`) passes on, so none can be made up for the next interceptor.
 */
function checkedMessages(value: unknown, known: ReadonlyMap<string, MessageSource>): { messages: LlmMessage[]; sources: Array<MessageSource | null> } | string {
  if (!Array.isArray(value)) return 'it returned neither a message array nor { messages, parameters }';
  if (value.length > INTERCEPTOR_LIMITS.maxMessages) return `it returned ${value.length} messages (the cap is ${INTERCEPTOR_LIMITS.maxMessages})`;
  let chars = 0;
  const messages: LlmMessage[] = [];
  const sources: Array<MessageSource | null> = [];
  for (const [i, m] of value.entries()) {
    const msg = m as { role?: unknown; content?: unknown; __isChatHistory?: unknown; sourceMessageId?: unknown; sourceIndexInChat?: unknown };
    if (typeof msg !== 'object' || msg === null || !['system', 'user', 'assistant'].includes(msg.role as string) || typeof msg.content !== 'string') {
      return `message ${i} is not { role: system|user|assistant, content: string }`;
    }
    chars += msg.content.length;
    if (chars > INTERCEPTOR_LIMITS.maxChars) return `its messages exceed ${INTERCEPTOR_LIMITS.maxChars} characters`;
    messages.push({ role: msg.role as 'system' | 'user' | 'assistant', content: msg.content });
    // The mark as assembly made it (its own copy), never the values the interceptor handed back.
    const sourced = msg.__isChatHistory === true && typeof msg.sourceMessageId === 'string' && typeof msg.sourceIndexInChat === 'number' ? known.get(sourceKey({ id: msg.sourceMessageId, index: msg.sourceIndexInChat })) : undefined;
    sources.push(sourced ?? null);
  }
  return { messages, sources };
}

/** Named blocks an interceptor's `breakdown` marks among its messages, said at most this many. */
const MAX_NAMED_BLOCKS = 20;

/**
 * What an interceptor's `breakdown` ({ messageIndex, name }, Lumiverse's prompt breakdown entries) names among the
 * messages it answered, as its stage's note: the block's name, where it is and its role. An entry naming no message is
 * passed over; none at all, no note.
 */
function blocksNote(breakdown: unknown, messages: readonly LlmMessage[]): string | undefined {
  if (!Array.isArray(breakdown)) return undefined;
  const named = breakdown.flatMap((entry: { messageIndex?: unknown; name?: unknown } | null) => {
    const at = entry?.messageIndex;
    if (typeof at !== 'number' || !Number.isInteger(at) || !messages[at]) return [];
    const name = typeof entry!.name === 'string' && entry!.name.trim() ? entry!.name.trim().slice(0, 80) : 'a block';
    return [`“${name}” (message ${at + 1}, ${messages[at]!.role})`];
  });
  if (!named.length) return undefined;
  const more = named.length > MAX_NAMED_BLOCKS ? `, and ${named.length - MAX_NAMED_BLOCKS} more` : '';
  return `Its blocks: ${named.slice(0, MAX_NAMED_BLOCKS).join(', ')}${more}.`;
}

export async function runInterceptors(
  pipeline: ExtensionPipeline | undefined,
  messages: LlmMessage[],
  /** Each message's chat message (assembly's), or null. */
  messageSources: ReadonlyArray<MessageSource | null>,
  context: GenerationContext,
  signal: AbortSignal,
  trace: TurnTrace,
): Promise<{ messages: LlmMessage[]; parameters: InterceptorParameters }> {
  let current = messages;
  let sources = messageSources;
  const known = new Map(messageSources.flatMap((source) => (source ? [[sourceKey(source), source] as const] : [])));
  const parameters: InterceptorParameters = {};
  for (const ref of pipeline?.handlers('interceptor') ?? []) {
    if (signal.aborted) break;
    const started = trace.start('interceptors', ref.extensionName);
    const answer = await callHandler(ref, [interceptorMessages(current, sources), contextFor(context, ref.extensionId)], signal);
    if ('skipped' in answer || answer.value === null) {
      started.end(undefined, undefined, 'skipped' in answer ? answer.skipped : undefined);
      continue;
    }
    const value = answer.value as { messages?: unknown; parameters?: unknown; breakdown?: unknown };
    const wrapped = typeof value === 'object' && !Array.isArray(value) && 'messages' in value;
    const checked = checkedMessages(wrapped ? value.messages : value, known);
    if (typeof checked === 'string') {
      started.end(undefined, undefined, `skipped: ${checked}.`);
      continue;
    }
    started.end(renderMessages(current), renderMessages(checked.messages), wrapped ? blocksNote(value.breakdown, checked.messages) : undefined);
    current = checked.messages;
    sources = checked.sources;
    if (wrapped && typeof value.parameters === 'object' && value.parameters !== null) {
      if (!pipeline!.allowed(ref.extensionId, 'generation_parameters')) {
        trace.note('interceptors', ref.extensionName, 'its parameters were ignored: it does not have the generation_parameters permission.');
        continue;
      }
      const ignored: string[] = [];
      const asked = value.parameters as Record<string, unknown>;
      const format = replyFormat(asked);
      if (typeof format === 'string') trace.note('interceptors', ref.extensionName, `its reply format was not applied: ${format}`);
      else if (format) parameters.responseFormat = format;
      for (const [key, raw] of Object.entries(asked)) {
        const field = PARAMETERS[key];
        const stop = STOP_NAMES.has(key) ? stopStrings(raw) : null;
        if (field && typeof raw === 'number' && Number.isFinite(raw)) parameters[field] = raw;
        else if (stop) parameters.stopSequences = stop;
        else if (!FORMAT_NAMES.has(key)) ignored.push(key);
      }
      if (ignored.length) trace.note('interceptors', ref.extensionName, `parameters not applied here: ${ignored.join(', ')}.`);
    }
  }
  return { messages: current, parameters };
}

/** Messages as the breakdown shows them, one block each. */
export function renderMessages(messages: Array<{ role: string; content: string }>): string {
  return messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
}
