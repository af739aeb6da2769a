// The AI SDK's runtime in one module, imported the first time a model is called (client.ts): a start or a
// command that calls no model does not parse the SDK and its providers.
import { jsonSchema, tool, type ToolSet } from 'ai';
import type { LlmToolDefinition } from '../../../shared/types/llm';
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
