// spindle.generate in Lumiverse's shapes (GenerationRequestDTO): what the host accepts (its schema and check:
// shared/spindle/generate-requests.ts).
//
//   raw / quiet / rawStream / quietStream: { messages, parameters?, connection_id?, tools?, model? }
//     a message's content: text, or parts (text; tool_use and tool_result, for the extension's own tool loop)
//     parameters: max_tokens, temperature, top_p, top_k, frequency_penalty, presence_penalty, seed, stop,
//       response_format (json_object, or json_schema with its schema), tool_choice, tools in a provider's shape
//       (when the request has none), model (other keys are ignored, as providers differ)
//   batch: { requests: [raw input…], concurrent? }
// The answer is Lumiverse's `{ content, finish_reason, usage: { prompt_tokens, completion_tokens,
// total_tokens }, tool_calls? }`, with `text` and `finishReason` beside them for code written against
// the Workbench's own raw().
import type { RawGenerateInput } from './generate';
import type { LlmToolChoice } from '../types/llm';

export interface LumiverseToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * A message as the host sends it on: text, an assistant's tool calls (Lumiverse's `tool_use` parts) or a call's result
 * (its `tool_result` parts), so an extension can run its own tool loop over raw or quiet.
 */
export interface LumiverseMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: Array<{ id: string; name: string; argsText: string }>;
  toolCallId?: string;
  toolName?: string;
}

/** Checked and renamed to our raw generation's fields, plus the kind, the tools offered and the provider knobs kept. */
export interface LumiverseGenerateInput extends Omit<RawGenerateInput, 'messages'> {
  type: 'raw' | 'quiet';
  messages: LumiverseMessage[];
  tools?: LumiverseToolSchema[];
  /** parameters.tool_choice over those tools (absent: the model decides). */
  toolChoice?: LlmToolChoice;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  stopSequences?: string[];
  responseFormat?: { type: 'json'; schema?: Record<string, unknown>; name?: string; strict?: boolean };
  /** `parameters` fields the Workbench does not map, for an OpenAI-compatible server's body (generate-knobs.ts). */
  extraBody?: Record<string, unknown>;
  /** OpenAI-style reasoning effort: `parameters.reasoning_effort`, or the request's `reasoning` override. */
  reasoningEffort?: string;
}

export interface LumiverseBatchInput {
  type: 'batch';
  requests: LumiverseGenerateInput[];
  concurrent: boolean;
}

/** Most requests in one batch. */
export const MAX_BATCH_REQUESTS = 16;
