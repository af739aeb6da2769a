// spindle.generate in Lumiverse's shapes (GenerationRequestDTO): what the host accepts (its schema and check:
// shared/spindle/generate-requests.ts).
//
//   raw / quiet / rawStream / quietStream: { messages, parameters?, connection_id?, tools?, model? }
//     parameters: max_tokens, temperature, top_p, model (other keys are ignored, as providers differ)
//   batch: { requests: [raw input…], concurrent? }
// The answer is Lumiverse's `{ content, finish_reason, usage: { prompt_tokens, completion_tokens,
// total_tokens }, tool_calls? }`, with `text` and `finishReason` beside them for code written against
// the Workbench's own raw().
import type { RawGenerateInput } from './generate';

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
