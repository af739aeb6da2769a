// LLM connection profiles, the renderer's key-free view of them, our own request and stream-event shapes, and sidecar defaults.
import type { Static } from '@sinclair/typebox';
import type { HostError } from '../errors';
import type { DetectedServerSchema, KeyRefSchema, LocalServerKindSchema, ProfileViewSchema, ProviderSchema, TestResultSchema } from '../contract/connections';
import type { ConnectionProfileSettingsSchema } from '../settings';
import type { JsonSchema, SidecarConfig } from './spindle';

export type { SidecarConfig } from './spindle';

export type LlmProvider = Static<typeof ProviderSchema>;
export const LLM_PROVIDERS: readonly LlmProvider[] = ['openai', 'anthropic', 'gemini', 'openai-compatible', 'ollama', 'local'];
/** The providers whose profiles may name an image model: they speak OpenAI's Images API. */
export const IMAGE_PROVIDERS: readonly LlmProvider[] = ['openai', 'openai-compatible'];

/**
 * Where a profile's API key lives. `env`: read from the named environment variable at call time
 * (never copied to disk). `stored`: kept by the SecretStore under the profile id. Absent: no key
 * (local servers).
 */
export type KeyRef = Static<typeof KeyRefSchema>;

/** A saved profile (settings.connections): never a key. */
export type ConnectionProfile = Static<typeof ConnectionProfileSettingsSchema>;

/** What the renderer receives: never the key itself. */
export type ConnectionProfileView = Static<typeof ProfileViewSchema>;

/** Default API roots, per provider, for new profiles. */
export const DEFAULT_BASE_URLS: Readonly<Record<LlmProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  'openai-compatible': 'http://127.0.0.1:1234/v1',
  ollama: 'http://127.0.0.1:11434',
  local: 'local:models',
};

// ---------------------------------------------------------------------------------------------
// Requests

/** A tool call the assistant made, as it travels back to the model in the next turn. */
export interface LlmToolCallRef {
  id: string;
  name: string;
  /** The raw argument text the model produced (may be invalid JSON; it is sent back as `{}` then). */
  argsText: string;
}

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** role 'tool': the id of the call this message answers. */
  toolCallId?: string;
  /** role 'tool': the tool's name. Optional: looked up from the assistant message that made the call. */
  toolName?: string;
  /** role 'assistant': the calls it made. */
  toolCalls?: LlmToolCallRef[];
}

export interface LlmToolDefinition {
  /** Provider-safe name `[A-Za-z0-9_-]{1,64}` (use ToolInfo.alias for extension tools). */
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** auto: the model decides; required: it must call one; none: it may not; a name: it must call that one. */
export type LlmToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** The reply as JSON: any JSON object, or one matching `schema` (the provider's structured output; a grammar locally). */
export interface LlmResponseFormat {
  type: 'json';
  schema?: JsonSchema;
  /** The schema's name, where the provider asks for one. */
  name?: string;
  /** OpenAI's strict structured output (every property required, no others); off unless asked for. */
  strict?: boolean;
}

export interface LlmRequest {
  messages: LlmMessage[];
  tools?: LlmToolDefinition[];
  toolChoice?: LlmToolChoice;
  temperature?: number;
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  maxTokens?: number;
  /** Strings that end the reply where the model writes them. */
  stopSequences?: string[];
  responseFormat?: LlmResponseFormat;
  /** OpenAI-style reasoning effort (`none`, `low`, `high`…), for the providers that take it. */
  reasoningEffort?: string;
  /** Fields sent as they are in an OpenAI-compatible server's request body (an extension's own parameters). */
  extraBody?: Record<string, unknown>;
  /** Defaults to the profile's defaultModel. */
  model?: string;
}

// ---------------------------------------------------------------------------------------------
// Stream events

export type LlmFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'other';

export interface LlmUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/**
 * One streamed response. Per tool call the order is always (seed 004):
 * `tool-call-start` → `tool-call-name` → `tool-call-args-delta`* → `tool-call-end` | `tool-call-failed`,
 * and calls never interleave: a second call's events wait until the first call has ended.
 * Text deltas may come before, between or after calls. The stream ends with exactly one
 * `finish` or one `error`, except after the caller aborts, when it simply stops.
 */
export type LlmEvent =
  | { type: 'text-delta'; text: string }
  /** The model's reasoning (thinking) as it streams: providers' reasoning_content, Anthropic's thinking blocks. */
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; id: string; index: number }
  | { type: 'tool-call-name'; id: string; name: string }
  | { type: 'tool-call-args-delta'; id: string; delta: string }
  /** `args` is `argsText` parsed (`{}` for empty text). */
  | { type: 'tool-call-end'; id: string; name: string; argsText: string; args: unknown }
  /**
   * The call could not be used: `INVALID_ARGUMENTS_JSON` (argsText is not JSON), `UNKNOWN_TOOL`
   * (a name we did not offer) or `LLM_BAD_RESPONSE` (the stream ended mid-call). name and argsText
   * are what the model produced, so the caller can answer the call with the error and go on.
   */
  | { type: 'tool-call-failed'; id: string; name: string; argsText: string; error: HostError }
  | { type: 'finish'; reason: LlmFinishReason; usage?: LlmUsage }
  | { type: 'error'; error: HostError };

/** A collected response (LlmClient.complete). */
export interface LlmCompletion {
  text: string;
  /** What the model reasoned before answering, when the provider sent it. */
  reasoning?: string;
  toolCalls: LlmCompletedToolCall[];
  finishReason: LlmFinishReason;
  usage?: LlmUsage;
}

export type LlmCompletedToolCall =
  | { id: string; name: string; argsText: string; ok: true; args: unknown }
  | { id: string; name: string; argsText: string; ok: false; error: HostError };

// ---------------------------------------------------------------------------------------------
// Sidecar

export const SIDECAR_DEFAULTS: Readonly<Omit<SidecarConfig, 'connectionProfileId' | 'model'>> = {
  temperature: 0.7,
  topP: 0.9,
  maxTokens: 1024,
};

/** Inclusive ranges the sidecar settings must stay within (the UI's slider bounds). */
export const SIDECAR_RANGES = {
  temperature: { min: 0, max: 2 },
  topP: { min: 0, max: 1 },
  maxTokens: { min: 1, max: 65536, integer: true },
} as const;

/** Local servers the auto-detector probes, with their default loopback ports. */
export type LocalServerKind = Static<typeof LocalServerKindSchema>;
export type DetectedServer = Static<typeof DetectedServerSchema>;
export type ConnectionTestResult = Static<typeof TestResultSchema>;
