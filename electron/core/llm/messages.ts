// Converts our request (messages, tools, tool choice) into the AI SDK's ModelMessage / ToolSet shapes, and checks it.
import type { ModelMessage, ToolSet } from 'ai';
import { HostFailure } from '../../../shared/errors';
import type { LlmMessage, LlmRequest, LlmToolChoice, LlmToolDefinition } from '../../../shared/types/llm';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TOOLS = 128;

const invalid = (message: string, path: string): never => {
  throw new HostFailure({ code: 'INVALID_INPUT', message, path });
};

/** Arguments for the next turn: the parsed object, or `{}` when the model's text was not a JSON object. */
function argsForReplay(argsText: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(argsText) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Our messages as the SDK's. `systemFirstOnly`: the provider takes system text only before the conversation (Gemini,
 * Anthropic), so a system message after it (a preset's block after the history, an interceptor's note) goes as the
 * user's, where the model still reads it, instead of failing the request.
 */
export function toModelMessages(messages: LlmMessage[], options: { systemFirstOnly?: boolean } = {}): ModelMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) invalid('A request needs at least one message.', '/messages');
  const callNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  messages.forEach((message, i) => {
    const path = `/messages/${i}`;
    if (typeof message.content !== 'string') invalid('Message content must be a string.', `${path}/content`);
    switch (message.role) {
      case 'system':
        out.push({ role: options.systemFirstOnly && out.some((m) => m.role !== 'system') ? 'user' : 'system', content: message.content });
        return;
      case 'user':
        out.push({ role: 'user', content: message.content });
        return;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          return;
        }
        for (const call of calls) callNames.set(call.id, call.name);
        out.push({
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: argsForReplay(call.argsText) })),
          ],
        });
        return;
      }
      case 'tool': {
        if (!message.toolCallId) invalid('A tool message needs the toolCallId it answers.', `${path}/toolCallId`);
        const toolCallId = message.toolCallId!;
        const toolName = message.toolName ?? callNames.get(toolCallId);
        if (!toolName) invalid(`No earlier assistant message made the call ${toolCallId}; give toolName.`, `${path}/toolName`);
        const part = { type: 'tool-result' as const, toolCallId, toolName: toolName!, output: { type: 'text' as const, value: message.content } };
        // Consecutive results travel together (Anthropic wants them in one user turn).
        const last = out.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        return;
      }
      default:
        invalid(`Unknown role ${String((message as { role?: unknown }).role)}.`, `${path}/role`);
    }
  });
  return out;
}

/** Checks the request's tools (names, count, schemas) before sdk.ts turns them into the SDK's ToolSet. */
export function checkToolDefinitions(tools: LlmToolDefinition[]): void {
  if (tools.length > MAX_TOOLS) invalid(`At most ${MAX_TOOLS} tools per request.`, '/tools');
  const seen = new Set<string>();
  tools.forEach((def, i) => {
    if (typeof def.name !== 'string' || !TOOL_NAME.test(def.name)) invalid('Tool names must be 1–64 letters, digits, _ or -.', `/tools/${i}/name`);
    if (seen.has(def.name)) invalid(`The tool ${def.name} is listed twice.`, `/tools/${i}/name`);
    seen.add(def.name);
    if (typeof def.parameters !== 'object' || def.parameters === null) invalid('Tool parameters must be a JSON Schema object.', `/tools/${i}/parameters`);
  });
}

export function toToolChoice(choice: LlmToolChoice | undefined, tools: ToolSet | undefined): 'auto' | 'required' | 'none' | { type: 'tool'; toolName: string } | undefined {
  if (choice === undefined || choice === 'auto') return tools ? 'auto' : undefined;
  if (choice === 'required' || choice === 'none') return tools ? choice : undefined;
  if (!tools || !Object.hasOwn(tools, choice.name)) invalid(`The forced tool ${choice.name} is not among the request's tools.`, '/toolChoice/name');
  return { type: 'tool', toolName: choice.name };
}

/** A response schema larger than this is not sent (a tool's parameters have their own cap). */
const MAX_FORMAT_SCHEMA_CHARS = 64 * 1024;

export function checkSampling(request: LlmRequest): void {
  const check = (value: number | undefined, name: string, min: number, max: number, integer = false) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      invalid(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}.`, `/${name}`);
    }
  };
  check(request.temperature, 'temperature', 0, 2);
  check(request.topP, 'topP', 0, 1);
  check(request.maxTokens, 'maxTokens', 1, 1_000_000, true);
  check(request.topK, 'topK', 1, 1000, true);
  check(request.frequencyPenalty, 'frequencyPenalty', -2, 2);
  check(request.presencePenalty, 'presencePenalty', -2, 2);
  check(request.seed, 'seed', 0, 2 ** 31 - 1, true);
  const format = request.responseFormat;
  if (format !== undefined) {
    if (format?.type !== 'json') invalid("responseFormat's type must be json.", '/responseFormat/type');
    if (format.schema !== undefined && (typeof format.schema !== 'object' || format.schema === null || Array.isArray(format.schema))) invalid("responseFormat's schema must be a JSON Schema object.", '/responseFormat/schema');
    if (format.schema !== undefined && JSON.stringify(format.schema).length > MAX_FORMAT_SCHEMA_CHARS) invalid(`responseFormat's schema is over ${MAX_FORMAT_SCHEMA_CHARS} characters.`, '/responseFormat/schema');
    if (format.strict !== undefined && typeof format.strict !== 'boolean') invalid("responseFormat's strict is true or false.", '/responseFormat/strict');
    if (format.name !== undefined && (typeof format.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(format.name))) invalid("responseFormat's name is [A-Za-z0-9_-], at most 64.", '/responseFormat/name');
  }
  const stop = request.stopSequences;
  if (stop !== undefined && (!Array.isArray(stop) || stop.length > 16 || stop.some((s) => typeof s !== 'string' || s.length === 0 || s.length > 200))) {
    invalid('stopSequences must be up to 16 strings of 1 to 200 characters.', '/stopSequences');
  }
}
