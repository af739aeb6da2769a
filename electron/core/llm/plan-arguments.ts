// Argument planning: one forced call of a tool, its arguments checked — JSON object, then the caller's `validate` (the
// tool's schema) — and asked for once more with the error shown to the model; a second failure is the plan's failure.
// On a local model every call is generated under its schema's grammar (`constrained`); what a grammar cannot say
// (ranges, patterns) is what `validate` catches.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { LlmCompletedToolCall, LlmCompletion, LlmMessage, LlmRequest, LlmToolDefinition } from '../../../shared/types/llm';

export interface PlanArgumentsInput {
  system: string;
  prompt: string;
  tool: LlmToolDefinition;
  /** Why planned arguments would be refused (the tool's schema), or null: a refused plan is asked for once more. */
  validate?: (args: Record<string, unknown>) => HostError | null;
  model?: string;
  /** Capped at 0.2. Default 0. */
  temperature?: number;
  maxTokens?: number;
}

export const PLAN_MAX_TEMPERATURE = 0.2;

/** A planned call: its arguments, whether a grammar built from the schema produced them, and whether a retry did. */
export interface PlannedArguments {
  args: Record<string, unknown>;
  constrained: boolean;
  repaired: boolean;
}


/** What is wrong with a planned call, or null. */
function planProblem(input: PlanArgumentsInput, text: string, call: LlmCompletedToolCall | undefined): HostError | null {
  if (!call) {
    return { code: 'LLM_NO_TOOL_CALL', message: `The model did not call ${input.tool.name}${text ? ' and answered with text instead' : ''}.`, hint: 'The model or server may not support forced tool calls.' };
  }
  if (!call.ok) return call.error;
  if (typeof call.args !== 'object' || call.args === null || Array.isArray(call.args)) return { code: 'INVALID_ARGUMENTS', message: `The model's arguments for ${input.tool.name} are not a JSON object.` };
  return input.validate?.(call.args as Record<string, unknown>) ?? null;
}

/**
 * Asks `complete` for a forced call of `input.tool`. Throws HostFailure: LLM_NO_TOOL_CALL, INVALID_ARGUMENTS_JSON,
 * INVALID_ARGUMENTS (after the retry, "(asked twice)"), or the stream's error.
 */
export async function planArguments(complete: (request: LlmRequest) => Promise<LlmCompletion>, constrained: boolean, input: PlanArgumentsInput): Promise<PlannedArguments> {
  const temperature = Math.min(input.temperature ?? 0, PLAN_MAX_TEMPERATURE);
  const messages: LlmMessage[] = [...(input.system ? [{ role: 'system' as const, content: input.system }] : []), { role: 'user', content: input.prompt }];
  for (let attempt = 0; ; attempt++) {
    const completion = await complete({ messages, tools: [input.tool], toolChoice: { name: input.tool.name }, temperature, maxTokens: input.maxTokens ?? 1024, ...(input.model ? { model: input.model } : {}) });
    const call = completion.toolCalls.find((c) => c.name === input.tool.name);
    const problem = planProblem(input, completion.text, call);
    if (!problem) return { args: (call as { args: Record<string, unknown> }).args, constrained, repaired: attempt > 0 };
    if (attempt > 0 || !call || problem.code === 'LLM_NO_TOOL_CALL') throw new HostFailure(attempt > 0 ? { ...problem, message: `${problem.message} (asked twice)` } : problem);
    // Once more, with the model's own call and what was wrong with it in front of it.
    messages.push(
      { role: 'assistant', content: '', toolCalls: [{ id: call.id, name: call.name, argsText: call.argsText }] },
      { role: 'tool', toolCallId: call.id, toolName: call.name, content: `Error: ${problem.message}${problem.path ? ` (at ${problem.path})` : ''}. Call ${input.tool.name} again with arguments that fix this.` },
    );
  }
}
