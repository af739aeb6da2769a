// The one LLM layer: streams a request through the AI SDK to any profile's provider as our own events, with abort, timeouts, bounded retries and key-free errors.
import type { JSONValue, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { LocalGenerate } from './local-language-model';
import { planArguments, type PlanArgumentsInput, type PlannedArguments } from './plan-arguments';

export { PLAN_MAX_TEMPERATURE, type PlanArgumentsInput, type PlannedArguments } from './plan-arguments';
import { HostFailure } from '../../../shared/errors';
import type {
  ConnectionProfile,
  LlmCompletion,
  LlmEvent,
  LlmRequest,
} from '../../../shared/types/llm';
import { createRedactingLogger, Redactor } from '../connections/redact';
import { requestHeaders } from '../connections/header-secrets';
import { resolveApiKey, type Env, type SecretStore } from '../connections/secret-store';
import { validateProfile } from '../connections/validate-profile';
import { silentLogger, systemTimers, type Logger, type Timers } from '../ports';
import { classifyError, timeoutError } from '../connections/provider-errors';
import { completionCollector } from './completion';
import { checkSampling, toModelMessages, toToolChoice } from './messages';
import { KEY_REQUIRED } from '../connections/providers';
import { StreamParts, type AttemptOutcome } from './stream-parts';

export interface LlmClientOptions {
  secrets: SecretStore;
  /** Where env key references are read; defaults to process.env. */
  env?: Env;
  /** Shared with the secret store and the app logger, so every key seen anywhere is scrubbed everywhere. */
  redactor?: Redactor;
  log?: Logger;
  /** Extra attempts after a 429/5xx that came before any output. Default 2. */
  maxRetries?: number;
  /** Delay before retry `attempt` (0-based); null gives up. Default: 1 s, 2 s, 4 s… (max 10 s), or retry-after up to 60 s. */
  retryDelayMs?: (attempt: number, retryAfterMs: number | undefined) => number | null;
  /** Waits ms or until the signal aborts (rejecting). Injected by tests to skip real waiting. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /** Request and idle timeouts, retry waits. Default: the system's. */
  timers?: Timers;
  /** Whole request, first byte to last. Default 300 s. */
  timeoutMs?: number;
  /** Longest silence between stream parts (the first one included). Default 120 s: local models load slowly. */
  idleTimeoutMs?: number;
  /** Most characters of text plus tool arguments one response may stream. Default 4 M. */
  maxResponseChars?: number;
  /** Loads the model SDK. Default: its module, imported once for the whole process. Injected by tests to watch it. */
  loadSdk?: () => Promise<Sdk>;
}

export interface LlmCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  maxRetries?: number;
  maxResponseChars?: number;
  /** The transport in place of the network (an extension's sidecar endpoint): the provider's requests go to it. */
  fetch?: typeof globalThis.fetch;
}

type Sdk = typeof import('./sdk');
let sdkLoading: Promise<Sdk> | undefined;
/** The SDK loads with the first model call; every later call shares the one import. */
const loadSdk = (): Promise<Sdk> => (sdkLoading ??= import('./sdk'));

interface Prepared {
  sdk: Sdk;
  model: ReturnType<Sdk['languageModelFor']>;
  messages: ModelMessage[];
  tools: ToolSet | undefined;
  toolChoice: ReturnType<typeof toToolChoice>;
  output: ReturnType<Sdk['toOutput']>;
  request: LlmRequest;
  baseUrl: string;
  providerOptions: Record<string, Record<string, JSONValue>> | undefined;
}

const defaultRetryDelay = (attempt: number, retryAfterMs: number | undefined): number | null => {
  if (retryAfterMs !== undefined) return retryAfterMs > 60_000 ? null : Math.max(retryAfterMs, 250);
  return Math.min(10_000, 1000 * 2 ** attempt);
};

const sleepOn = (timers: Timers) => (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      timers.clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

// The SDK prints warnings with console.warn unless told otherwise; we log them ourselves from start-step.
const sdkGlobals = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
if (sdkGlobals.AI_SDK_LOG_WARNINGS === undefined) sdkGlobals.AI_SDK_LOG_WARNINGS = false;

export class LlmClient {
  readonly redactor: Redactor;
  private readonly log: Logger;
  private readonly env: Env;
  private readonly timers: Timers;

  /** Runs local models' generations (provider local): the host's built-in engine, attached once it is built. */
  private localGenerate: LocalGenerate | undefined;

  constructor(private readonly options: LlmClientOptions) {
    this.redactor = options.redactor ?? new Redactor();
    this.log = createRedactingLogger(options.log ?? silentLogger, this.redactor);
    this.env = options.env ?? process.env;
    this.timers = options.timers ?? systemTimers;
  }

  attachLocalModels(generate: LocalGenerate): void {
    this.localGenerate = generate;
  }

  /**
   * Loads the model SDK now rather than with the first call: opening a chat says a message is coming, and the load
   * (~0.15 s of compiling on a 2-core machine) then happens while the person types, not after they press Send.
   */
  warm(): void {
    // A failed load is reported by the call that needs the SDK (prepare), not here.
    this.sdk().catch(() => undefined);
    // Node loads the fetch the SDK calls (undici, ~35 ms) on the first read of one of its classes: one is read now.
    void globalThis.Headers;
  }

  private sdk(): Promise<Sdk> {
    return (this.options.loadSdk ?? loadSdk)();
  }

  /**
   * Streams one model response. Ends with one `finish` or one `error` event; after the caller's
   * signal aborts it stops without further events. Never throws.
   */
  async *stream(profile: ConnectionProfile, request: LlmRequest, options: LlmCallOptions = {}): AsyncGenerator<LlmEvent, void, undefined> {
    const signal = options.signal;
    if (signal?.aborted) return;
    let prepared: Prepared;
    try {
      prepared = await this.prepare(profile, request, options.fetch);
    } catch (err) {
      yield { type: 'error', error: classifyError(err, { redactor: this.redactor }).error };
      return;
    }
    const maxRetries = Math.max(0, Math.min(10, options.maxRetries ?? this.options.maxRetries ?? 2));
    for (let attempt = 0; ; attempt++) {
      const outcome: AttemptOutcome = yield* this.attempt(prepared, options, attempt < maxRetries);
      if (outcome.kind === 'done') return;
      const delay = (this.options.retryDelayMs ?? defaultRetryDelay)(attempt, outcome.retryAfterMs);
      if (delay === null) {
        yield { type: 'error', error: outcome.error };
        return;
      }
      this.log.warn(`LLM request to ${profile.name} failed with ${outcome.error.code}; retry ${attempt + 1} of ${maxRetries} in ${delay} ms`);
      try {
        await (this.options.sleep ?? sleepOn(this.timers))(delay, signal);
      } catch {
        return;
      }
      if (signal?.aborted) return;
    }
  }

  /** Collects a whole response. Throws HostFailure with the stream's error (CANCELLED after an abort). */
  async complete(profile: ConnectionProfile, request: LlmRequest, options: LlmCallOptions = {}): Promise<LlmCompletion> {
    const collect = completionCollector();
    for await (const event of this.stream(profile, request, options)) {
      const done = collect.take(event);
      if (done) return done;
    }
    return collect.ended();
  }

  /** One forced call of `tool`, its arguments checked and asked for once more when refused (plan-arguments.ts). */
  planArguments(profile: ConnectionProfile, input: PlanArgumentsInput, options: LlmCallOptions = {}): Promise<PlannedArguments> {
    return planArguments((request) => this.complete(profile, request, options), profile.provider === 'local', input);
  }

  // -------------------------------------------------------------------------------------------

  private async prepare(profile: ConnectionProfile, request: LlmRequest, transport?: typeof globalThis.fetch): Promise<Prepared> {
    const checked = validateProfile(profile);
    if (!checked.ok) throw new HostFailure(checked.error);
    const clean = checked.value;
    const modelId = request.model ?? clean.defaultModel;
    if (!modelId) throw new HostFailure({ code: 'INVALID_INPUT', message: 'No model: the request names none and the connection has no default model.', path: '/model' });
    checkSampling(request);
    const apiKey = resolveApiKey(clean, this.options.secrets, this.env, this.redactor);
    if (apiKey === undefined && (KEY_REQUIRED[clean.provider] || clean.keyRef)) {
      const ref = clean.keyRef;
      throw new HostFailure({
        code: 'LLM_NO_KEY',
        message:
          ref?.kind === 'env'
            ? `The environment variable ${ref.name} is not set.`
            : ref?.kind === 'stored'
              ? `No API key is stored for the connection ${clean.name}.`
              : `The connection ${clean.name} needs an API key.`,
        hint: ref?.kind === 'env' ? `Set ${ref.name} where the app starts, or store a key in the connection.` : 'Add a key to the connection in Connections (or, from the CLI, name a variable with connections add --key-env VAR).',
      });
    }
    const sdk = await this.sdk();
    const tools = sdk.toToolSet(request.tools);
    return {
      sdk,
      model: sdk.languageModelFor({ ...clean, headers: requestHeaders(clean, this.options.secrets, this.redactor) }, apiKey, modelId, this.localGenerate, transport),
      messages: toModelMessages(request.messages, { systemFirstOnly: clean.provider === 'gemini' || clean.provider === 'anthropic' }),
      tools,
      toolChoice: toToolChoice(request.toolChoice, tools),
      output: sdk.toOutput(request.responseFormat),
      request,
      baseUrl: clean.baseUrl,
      providerOptions: clean.provider === 'ollama' ? ollamaSampling(request) : clean.provider === 'openai-compatible' ? compatibleExtras(request) : clean.provider === 'openai' ? openAiExtras(request) : undefined,
    };
  }

  private async *attempt(prepared: Prepared, options: LlmCallOptions, mayRetry: boolean): AsyncGenerator<LlmEvent, AttemptOutcome, undefined> {
    const signal = options.signal;
    const controller = new AbortController();
    let timedOutAfter: number | null = null;
    const onCallerAbort = () => controller.abort();
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 300_000;
    const idleMs = options.idleTimeoutMs ?? this.options.idleTimeoutMs ?? 120_000;
    const { timers } = this;
    const total = timers.setTimeout(() => {
      timedOutAfter = timeoutMs;
      controller.abort();
    }, timeoutMs);
    let idle: unknown;
    const resetIdle = () => {
      timers.clearTimeout(idle);
      idle = timers.setTimeout(() => {
        timedOutAfter = idleMs;
        controller.abort();
      }, idleMs);
    };
    const aborted = new Promise<'aborted'>((resolve) => {
      if (controller.signal.aborted) resolve('aborted');
      controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });

    const parts = new StreamParts({
      maxChars: options.maxResponseChars ?? this.options.maxResponseChars ?? 4 * 1024 * 1024,
      tools: prepared.tools,
      baseUrl: prepared.baseUrl,
      redactor: this.redactor,
      log: this.log,
    });
    const { pending } = parts;
    let emittedOutput = false;
    let iterator: AsyncIterator<TextStreamPart<ToolSet>> | undefined;

    try {
      const { request } = prepared;
      const result = prepared.sdk.streamText({
        model: prepared.model,
        messages: prepared.messages,
        ...(prepared.tools ? { tools: prepared.tools } : {}),
        ...(prepared.toolChoice ? { toolChoice: prepared.toolChoice } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.topP !== undefined ? { topP: request.topP } : {}),
        ...(request.topK !== undefined ? { topK: request.topK } : {}),
        ...(request.frequencyPenalty !== undefined ? { frequencyPenalty: request.frequencyPenalty } : {}),
        ...(request.presencePenalty !== undefined ? { presencePenalty: request.presencePenalty } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
        ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
        ...(prepared.output ? { output: prepared.output } : {}),
        ...(prepared.providerOptions ? { providerOptions: prepared.providerOptions } : {}),
        // Our messages come from the host, not from untrusted input: system turns are intended.
        allowSystemInMessages: true,
        maxRetries: 0,
        abortSignal: controller.signal,
        // The default handler prints the raw error (request body included) to the console.
        onError: () => {},
      });
      iterator = result.fullStream[Symbol.asyncIterator]();
      resetIdle();

      while (true) {
        const next = await Promise.race([iterator.next(), aborted]);
        if (next === 'aborted' || signal?.aborted) break;
        if (next.done) {
          // The SDK always ends with finish or error; reaching here means the stream broke off.
          parts.fail({ code: 'LLM_BAD_RESPONSE', message: 'The response ended without finishing.' });
          break;
        }
        resetIdle();
        const stop = parts.take(next.value, mayRetry && !emittedOutput);
        while (pending.length > 0) {
          if (signal?.aborted) return { kind: 'done' };
          const event = pending.shift()!;
          if (event.type !== 'finish' && event.type !== 'error') emittedOutput = true;
          yield event;
        }
        if (stop) return stop;
      }
      if (!signal?.aborted && timedOutAfter !== null) parts.fail(timeoutError(timedOutAfter));
    } catch (err) {
      // streamText threw, or the stream itself errored (a body read that broke off): report, never crash the caller.
      if (!signal?.aborted) parts.fail(timedOutAfter !== null ? timeoutError(timedOutAfter) : parts.classify(err));
    } finally {
      timers.clearTimeout(total);
      timers.clearTimeout(idle);
      signal?.removeEventListener('abort', onCallerAbort);
      // Stops the HTTP request if we left early (error, caller break, abort).
      controller.abort();
      if (iterator?.return) void Promise.resolve(iterator.return()).catch(() => {});
    }
    while (pending.length > 0 && !signal?.aborted) yield pending.shift()!;
    return { kind: 'done' };
  }
}

/**
 * OpenAI's wire has no top_k; the servers behind an OpenAI-compatible connection (llama.cpp, vLLM, OpenRouter) read it
 * in the body. A JSON schema is strict only when the caller asked (the SDK's default is strict, which refuses ordinary
 * schemas).
 */
function compatibleExtras(request: LlmRequest): Record<string, Record<string, JSONValue>> | undefined {
  // The provider writes its options' unknown keys into the body as they are; the mapped ones after, so none is overridden.
  const options: Record<string, JSONValue> = { ...((request.extraBody ?? {}) as Record<string, JSONValue>) };
  if (request.topK !== undefined) options.top_k = request.topK;
  if (request.reasoningEffort !== undefined) options.reasoningEffort = request.reasoningEffort;
  if (request.responseFormat?.schema) options.strictJsonSchema = request.responseFormat.strict === true;
  return Object.keys(options).length ? { 'openai-compatible': options } : undefined;
}

/** OpenAI's own: the same strictness rule for a JSON schema, and the reasoning effort. */
function openAiExtras(request: LlmRequest): Record<string, Record<string, JSONValue>> | undefined {
  const options: Record<string, JSONValue> = {};
  if (request.responseFormat?.schema) options.strictJsonSchema = request.responseFormat.strict === true;
  if (request.reasoningEffort !== undefined) options.reasoningEffort = request.reasoningEffort;
  return Object.keys(options).length ? { openai: options } : undefined;
}

/**
 * ollama-ai-provider-v2 puts temperature/top_p/max_output_tokens at the top level of /api/chat,
 * where Ollama ignores them; Ollama reads sampling from `options` (num_predict = max tokens).
 */
function ollamaSampling(request: LlmRequest): Record<string, Record<string, JSONValue>> | undefined {
  const options: Record<string, JSONValue> = {};
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.top_p = request.topP;
  if (request.maxTokens !== undefined) options.num_predict = request.maxTokens;
  if (request.topK !== undefined) options.top_k = request.topK;
  if (request.frequencyPenalty !== undefined) options.frequency_penalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) options.presence_penalty = request.presencePenalty;
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.stopSequences?.length) options.stop = request.stopSequences;
  return Object.keys(options).length ? { ollama: { options } } : undefined;
}
