// A call's arguments on the way in: sanitized and checked against the tool's schema (the executor never sees
// invalid ones), then the host's own fields added, making the request the executor receives.
import type { Result } from '../../../shared/errors';
import { describeAjvError } from '../contract/validators';
import type { Logger } from '../ports';
import type { ExecuteRequest } from '../registry-port';
import type { RegistryLimits } from './limits';
import type { InvokeOptions, NormalizedArgs } from './registry-types';
import { err, ok } from './result';
import { sanitizeArguments } from './sanitize-args';
import type { ToolRecord } from './tool-record';

/**
 * A fresh copy of the arguments this call owns, or why they are refused: sanitized, given to the
 * guard's `normalize` (paths), then checked against the schema once.
 */
export function checkArguments(
  record: ToolRecord,
  rawArgs: unknown,
  unplanned: boolean,
  limits: RegistryLimits,
  log: Logger,
  normalize?: (args: Record<string, unknown>) => Result<NormalizedArgs>,
): Result<NormalizedArgs> {
  const sanitized = sanitizeArguments(rawArgs, limits);
  if (!sanitized.ok) return sanitized;
  if (sanitized.value.stripped.length > 0) {
    log.warn('reserved argument keys stripped', { tool: record.info.qualifiedName, paths: sanitized.value.stripped });
  }
  const normalized = normalize ? normalize(sanitized.value.args) : ok<NormalizedArgs>({ args: sanitized.value.args });
  if (!normalized.ok) return normalized;
  const validate = record.parameters.validate;
  if (!unplanned && !validate(normalized.value.args)) {
    const { message, path } = describeAjvError(validate.errors?.[0], 'arguments are invalid');
    return err('INVALID_ARGUMENTS', `Invalid arguments for ${record.info.alias}: ${message}`, {
      path,
      hint: 'Fix that argument to match the tool parameters and call the tool again.',
    });
  }
  return normalized;
}

/** The executor's request for checked arguments (extended in place: the call owns them). */
export function executeRequest(record: ToolRecord, args: Record<string, unknown>, opts: InvokeOptions, start: number, requestId: string, signal: AbortSignal): ExecuteRequest {
  // Added after validation so a schema with additionalProperties:false still accepts them, and
  // after stripping so a caller-supplied context/__deadlineMs can never survive.
  const deadline = start + opts.timeoutMs;
  if (typeof opts.context === 'string') args.context = opts.context;
  args.__deadlineMs = deadline;
  const request: ExecuteRequest = { toolName: record.info.name, args, requestId, deadline, signal };
  if (opts.councilMember) request.councilMember = opts.councilMember;
  if (opts.contextMessages) request.contextMessages = opts.contextMessages;
  if (opts.mayWrite) request.mayWrite = opts.mayWrite;
  return request;
}
