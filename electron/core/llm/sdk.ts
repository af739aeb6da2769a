// The AI SDK's runtime in one module, imported the first time a model is called (client.ts): a start or a
// command that calls no model does not parse the SDK and its providers.
import { jsonSchema, Output, tool, type ToolSet } from 'ai';
import type { LlmResponseFormat, LlmToolDefinition } from '../../../shared/types/llm';
import { checkToolDefinitions } from './messages';

export { streamText } from 'ai';
export { languageModelFor } from './language-model';

/** Tools without execute: the SDK reports calls and stops; running them is the caller's loop. */
export function toToolSet(tools: LlmToolDefinition[] | undefined): ToolSet | undefined {
  if (!tools || tools.length === 0) return undefined;
  checkToolDefinitions(tools);
  const set: ToolSet = {};
  // jsonSchema() without a validator: the SDK only parses the arguments; the caller validates them.
  for (const def of tools) set[def.name] = tool({ description: def.description, inputSchema: jsonSchema(def.parameters as Parameters<typeof jsonSchema>[0]) });
  return set;
}

/**
 * A JSON reply as the SDK asks the provider for it (its response format: a JSON object, or structured output under a
 * schema). The caller reads the streamed text; the SDK's own parse of it is never asked for, so nothing is refused here.
 */
export function toOutput(format: LlmResponseFormat | undefined) {
  if (!format) return undefined;
  const named = format.name ? { name: format.name } : {};
  return format.schema ? Output.object({ schema: jsonSchema(format.schema as Parameters<typeof jsonSchema>[0]), ...named }) : Output.json(named);
}
