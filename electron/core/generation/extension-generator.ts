// spindle.generate's host side on top of the LLM services: quiet → the sidecar connection, raw → a named connection or the chat's main one.
//
// The ExtensionManager's GenerationGate has already checked the permission, the input and the caps;
// this only resolves the connection and calls LlmClient.complete. Keys stay in the LlmClient: what
// comes back is text, a finish reason and token counts, and errors are LlmClient's (already redacted).
import { HostFailure, type HostError } from '../../../shared/errors';
import {
  GENERATE_TIMEOUT_MS,
  MAX_GENERATE_RESULT_BYTES,
  MAX_GENERATE_TOKENS,
  type QuietGenerateInput,
  type RawGenerateInput,
  type RawGenerateResult,
} from '../../../shared/protocol';
import type { LumiverseGenerateInput } from '../../../shared/protocol/generate-lumiverse';
import type { ChatSettings } from '../../../shared/types/chat';
import type { ConnectionProfile, LlmCompletedToolCall, LlmCompletion, LlmEvent, LlmFinishReason, LlmMessage, LlmRequest, LlmUsage, SidecarConfig } from '../../../shared/types/llm';
import type { ExtensionGenerator } from '../extensions/spindle-host/generation-gate';
import type { LlmCallOptions } from '../llm/client';
import { sidecarRequest } from '../llm/sidecar-config';
import { completionCollector } from '../llm/completion';

export interface ExtensionGeneratorDeps {
  llm: {
    complete(profile: ConnectionProfile, request: LlmRequest, options?: LlmCallOptions): Promise<LlmCompletion>;
    stream(profile: ConnectionProfile, request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmEvent>;
  };
  /** The sidecar settings with defaults filled in (SidecarService.config). */
  sidecarConfig(): SidecarConfig;
  /** The full (key-free) profile; throws HostFailure NOT_FOUND. */
  profile(id: string): ConnectionProfile;
  /** settings.chat (main connection and model), if any. */
  chatSettings(): Partial<ChatSettings> | undefined;
  /** A sidecar set to an extension's endpoint: its profile and transport (undefined for a connection). */
  sidecarEndpoint?(id: string): { profile: ConnectionProfile; fetch: typeof fetch } | undefined;
}

/** raw without maxTokens: the sidecar's default, so an extension that forgets it cannot run up a bill. */
export const RAW_DEFAULT_MAX_TOKENS = 1024;

const SIDECAR_NOT_CONFIGURED: HostError = {
  code: 'SIDECAR_NOT_CONFIGURED',
  message: 'No sidecar LLM is configured, so spindle.generate.quiet cannot run.',
  hint: 'Choose a connection in Sidecar (the CLI: sidecar set), or use spindle.generate.raw.',
};

// A generous bound on streamed characters: maxTokens ≤ 8192 is far below it unless the server misbehaves.
// The gate's time limit is the call's too (the client's own default, 300 s, would end it first).
const CALL_OPTIONS = { maxResponseChars: MAX_GENERATE_RESULT_BYTES / 2, timeoutMs: GENERATE_TIMEOUT_MS };

/** Lumiverse's finish reasons are the providers' own words. */
const FINISH: Record<LlmFinishReason, string> = { stop: 'stop', length: 'length', 'tool-calls': 'tool_calls', 'content-filter': 'content_filter', other: 'other' };

function lumiverseUsage(usage: LlmUsage | undefined) {
  if (!usage) return undefined;
  return { prompt_tokens: usage.inputTokens ?? 0, completion_tokens: usage.outputTokens ?? 0, total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) };
}

/** Lumiverse's ToolCallDTO: a call the model could not make well still names itself, with no arguments. */
const toolCallDto = (c: LlmCompletedToolCall) => ({ name: c.name, args: c.ok ? c.args : {}, call_id: c.id });

/** Lumiverse's GenerationResponseDTO, with the Workbench's `text` / `finishReason` beside it. */
function lumiverseResponse(completion: LlmCompletion) {
  const usage = lumiverseUsage(completion.usage);
  return {
    content: completion.text,
    ...(completion.reasoning ? { reasoning: completion.reasoning } : {}),
    finish_reason: FINISH[completion.finishReason],
    ...(completion.toolCalls.length ? { tool_calls: completion.toolCalls.map(toolCallDto) } : {}),
    ...(usage ? { usage } : {}),
    text: completion.text,
    finishReason: completion.finishReason,
  };
}

/** The request of a raw generation: its messages as given (with their tool calls and results), the sampling it names, our default token cap. */
function rawRequest(input: RawGenerateInput | LumiverseGenerateInput, model: string): LlmRequest {
  return {
    messages: input.messages.map((m): LlmMessage => ({ ...m })),
    model,
    maxTokens: input.maxTokens ?? RAW_DEFAULT_MAX_TOKENS,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.topP !== undefined ? { topP: input.topP } : {}),
    ...('type' in input ? lumiverseSampling(input) : {}),
  };
}

/** The provider knobs a Lumiverse request kept (generate-knobs.ts), under the LLM request's names. */
function lumiverseSampling(input: LumiverseGenerateInput): Partial<LlmRequest> {
  const { topK, frequencyPenalty, presencePenalty, seed, stopSequences, responseFormat, reasoningEffort, extraBody } = input;
  return Object.fromEntries(Object.entries({ topK, frequencyPenalty, presencePenalty, seed, stopSequences, responseFormat, reasoningEffort, extraBody }).filter(([, v]) => v !== undefined));
}

export function createExtensionGenerator(deps: ExtensionGeneratorDeps): ExtensionGenerator {
  /**
   * The connection a generation runs on (the one named, else the chat's main one) and its model (the one named, else
   * the chat's model when on the chat's connection, else the connection's default). `fields` name the input's fields
   * as the extension wrote them, for the error's path.
   */
  const target = (input: { connectionId?: string; model?: string }, fields: { connection: string; model: string }): { profile: ConnectionProfile; model: string } => {
    const chat = deps.chatSettings() ?? {};
    const id = input.connectionId ?? chat.mainConnectionId;
    if (!id) {
      throw new HostFailure({
        code: 'CHAT_NO_CONNECTION',
        message: `The generation names no ${fields.connection} and no main connection is chosen for the chat.`,
        hint: `Pass ${fields.connection}, or pick a main connection in the Workbench settings.`,
        path: `/${fields.connection}`,
      });
    }
    const profile = deps.profile(id);
    // The chat's model override belongs to the chat's connection (named or not), not to another one.
    const model = input.model || (id === chat.mainConnectionId ? (chat.model ?? '') : '') || profile.defaultModel;
    if (!model) throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} has no default model; pass ${fields.model}.`, path: `/${fields.model.replace('.', '/')}` });
    return { profile, model };
  };

  /** The connection and request of a Lumiverse-shape generation. */
  const lumiverseTarget = (input: LumiverseGenerateInput): { profile: ConnectionProfile; request: LlmRequest } => {
    const { profile, model } = target(input, { connection: 'connection_id', model: 'parameters.model' });
    const request: LlmRequest = {
      ...rawRequest(input, model),
      ...(input.tools?.length ? { tools: input.tools, toolChoice: input.toolChoice ?? 'auto' } : {}),
    };
    return { profile, request };
  };

  return {
    async lumiverse(input: LumiverseGenerateInput, signal: AbortSignal) {
      const { profile, request } = lumiverseTarget(input);
      return lumiverseResponse(await deps.llm.complete(profile, request, { ...CALL_OPTIONS, signal }));
    },

    async stream(input: LumiverseGenerateInput, signal: AbortSignal, chunk: (value: unknown) => void) {
      const { profile, request } = lumiverseTarget(input);
      const collect = completionCollector();
      for await (const event of deps.llm.stream(profile, request, { ...CALL_OPTIONS, signal })) {
        if (event.type === 'text-delta') chunk({ type: 'token', token: event.text });
        else if (event.type === 'reasoning-delta') chunk({ type: 'reasoning', token: event.text });
        const completion = collect.take(event);
        if (!completion) continue;
        // The terminal chunk carries the whole response, as Lumiverse's StreamChunkDTO has it.
        const { text: _text, finishReason: _finishReason, ...response } = lumiverseResponse(completion);
        const done = { type: 'done', ...response };
        chunk(done);
        return done;
      }
      return collect.ended();
    },

    async quiet(input: QuietGenerateInput, signal: AbortSignal): Promise<string> {
      const config = deps.sidecarConfig();
      if (!config.connectionProfileId) throw new HostFailure(SIDECAR_NOT_CONFIGURED);
      const endpoint = deps.sidecarEndpoint?.(config.connectionProfileId);
      let profile: ConnectionProfile;
      try {
        profile = endpoint?.profile ?? deps.profile(config.connectionProfileId);
      } catch {
        throw new HostFailure({ ...SIDECAR_NOT_CONFIGURED, message: `The sidecar connection ${config.connectionProfileId} no longer exists.` });
      }
      const messages: LlmMessage[] = [
        ...(input.systemPrompt ? [{ role: 'system' as const, content: input.systemPrompt }] : []),
        { role: 'user' as const, content: input.prompt },
      ];
      const request = sidecarRequest(config, profile, messages);
      if (!request.model) throw new HostFailure({ ...SIDECAR_NOT_CONFIGURED, message: `The sidecar connection ${profile.name} has no default model and the sidecar names none.` });
      request.maxTokens = input.maxTokens ?? Math.min(config.maxTokens, MAX_GENERATE_TOKENS);
      if (input.temperature !== undefined) request.temperature = input.temperature;
      const completion = await deps.llm.complete(profile, request, { ...CALL_OPTIONS, signal, ...(endpoint ? { fetch: endpoint.fetch } : {}) });
      return completion.text;
    },

    async raw(input: RawGenerateInput, signal: AbortSignal): Promise<RawGenerateResult> {
      const { profile, model } = target(input, { connection: 'connectionId', model: 'model' });
      const request = rawRequest(input, model);
      const completion = await deps.llm.complete(profile, request, { ...CALL_OPTIONS, signal });
      return { text: completion.text, finishReason: completion.finishReason, ...(completion.usage ? { usage: completion.usage } : {}) };
    },
  };
}
