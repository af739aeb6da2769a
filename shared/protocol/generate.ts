// spindle.generate.quiet / .raw: the inputs an extension passes, what comes back, and their caps (the schemas and the
// host's check: shared/spindle/generate-requests.ts).
//
// An extension with the `generation` permission asks the host for a generation; the host checks the
// permission at that moment, validates the input (the worker runs extension code: it checks nothing), applies a
// per-extension concurrency and per-minute cap and a timeout, and runs it on one of the user's
// connections. Only text comes back: keys, profiles and raw provider errors never reach the worker.
//
//   quiet: a background generation on the sidecar connection (sidecarSettings), like Lumiverse's
//          "quiet" generation: { prompt, systemPrompt?, maxTokens?, temperature? } → string.
//          No sidecar chosen → SIDECAR_NOT_CONFIGURED.
//   raw:   a direct generation, no prompt assembly, on `connectionId` or else the chat's main
//          connection: { messages, connectionId?, model?, maxTokens?, temperature?, topP? }
//          → { text, finishReason, usage? }.

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

/**
 * Most UTF-8 bytes of prompt text one request may carry (prompt + systemPrompt, or all message contents): an agent's
 * session near a 400,000-token context before it compacts (LumiAgent) is about 1.6 MB; Lumiverse sets no cap, and a
 * request must still fit the worker's frame (MAX_REQUEST_CHARS).
 */
export const MAX_GENERATE_PROMPT_BYTES = 4 * 1024 * 1024;
/** Most messages in one raw request (an agent's long session of tool calls and results). */
export const MAX_GENERATE_MESSAGES = 4096;
/** Most tools one request may offer. */
export const MAX_GENERATE_TOOLS = 128;
/** Highest maxTokens an extension may ask for: published extensions default to 16,384–65,536 (a model's own limit is the provider's to apply). */
export const MAX_GENERATE_TOKENS = 65_536;
/** Longest connection id or model name. */
export const MAX_GENERATE_NAME_CHARS = 200;
/**
 * Longest an extension's generation runs, request to last token: a long reply of a slow local model, and the longest
 * published waits (an evaluator's 300 s, LumiDraw's 600 s). The model's silence ends it sooner (the client's idle limit).
 */
export const GENERATE_TIMEOUT_MS = 600_000;
/** Largest generated text the host hands back, in UTF-8 bytes. */
export const MAX_GENERATE_RESULT_BYTES = 1024 * 1024;
