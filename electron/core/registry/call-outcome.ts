// What an executor's answer becomes for the caller: a normalized result checked against the tool's output
// schema (seed 002), or a HostError with a known code and capped text.
import { HostFailure, isHostError, type HostError, type Result } from '../../../shared/errors';
import { describeAjvError } from '../contract/validators';
import type { ExecuteResult } from '../registry-port';
import type { CompiledSchema } from './compile-schema';
import type { RegistryLimits } from './limits';
import { normalizeResult } from './normalize-result';

const EXECUTOR_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The result's text for the model, or why it cannot be one. */
export function resultContent(q: string, result: ExecuteResult, outputSchema: CompiledSchema | null, limits: RegistryLimits): Result<string> {
  if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') {
    return { ok: false, error: { code: 'INVALID_RESULT', message: `Tool "${q}" returned a malformed result` } };
  }
  if (!result.ok) return { ok: false, error: passThroughError(q, result.error, limits.maxErrorTextChars) };
  const content = normalizeResult(result.value, limits);
  if (!content.ok) return content;
  if (outputSchema) {
    const invalid = checkOutput(q, outputSchema, content.value);
    if (invalid) return { ok: false, error: invalid };
  }
  return content;
}

/**
 * Seed 002 output validation, on what the model would read: the parsed JSON of the normalized result.
 * A string that is not JSON is checked as the string itself, so it passes `{type:'string'}` and fails
 * any other schema; a JSON-looking string also passes a string schema as itself.
 */
function checkOutput(q: string, schema: CompiledSchema, content: string): HostError | null {
  const validate = schema.validate;
  let parsed: { value: unknown } | null = null;
  try {
    parsed = { value: JSON.parse(content) as unknown };
  } catch {
    parsed = null;
  }
  if (parsed && validate(parsed.value)) return null;
  const parsedErrors = parsed ? validate.errors : null;
  if (validate(content)) return null;
  const { message, path } = describeAjvError((parsedErrors ?? validate.errors)?.[0], 'the result is invalid');
  return {
    code: 'INVALID_RESULT',
    message: `Tool "${q}" returned a result that does not match its output_schema: ${message}`,
    path,
  };
}

/** Executors already speak HostError; cap its text and keep only the known fields. */
function passThroughError(q: string, error: unknown, maxChars: number): HostError {
  if (!isHostError(error)) return { code: 'INVALID_RESULT', message: `Tool "${q}" returned a malformed error` };
  const out: HostError = {
    code: EXECUTOR_ERROR_CODE.test(error.code) ? error.code : 'TOOL_ERROR',
    message: cap(error.message, maxChars),
  };
  if (typeof error.hint === 'string') out.hint = cap(error.hint, maxChars);
  if (typeof error.path === 'string') out.path = cap(error.path, 256);
  return out;
}

/** An executor that threw instead of answering. */
export function thrownToHostError(q: string, error: unknown, maxChars: number): HostError {
  if (error instanceof HostFailure) return passThroughError(q, error.error, maxChars);
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'TOOL_ERROR', message: cap(`Tool "${q}" failed: ${detail}`, maxChars) };
}

function cap(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
