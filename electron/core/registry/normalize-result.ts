// Turns an executor's raw value into the string a model sees, refusing values too large or not JSON.
import type { Result } from '../../../shared/errors';
import { utf8ByteLength } from '../../../shared/protocol/limits';
import { checkJsonBudget } from '../../../shared/json-budget';
import { err, ok } from './result';

export interface ResultLimits {
  maxResultBytes: number;
  maxResultDepth: number;
}

/** Strings pass as they are; undefined becomes ""; anything else is JSON.stringify'd. */
export function normalizeResult(value: unknown, limits: ResultLimits): Result<string> {
  if (value === undefined) return ok('');
  if (typeof value === 'string') return checkSize(value, limits);
  // Refuse a 50 MB object before serializing it: serializing is the cost the cap exists to avoid.
  const budget = checkJsonBudget(value, { maxBytes: limits.maxResultBytes, maxDepth: limits.maxResultDepth });
  if (budget?.reason === 'too-large') return tooLarge(limits);
  if (budget?.reason === 'too-deep') {
    return err('INVALID_RESULT', `Tool result nests deeper than ${limits.maxResultDepth} levels`);
  }
  if (budget) return err('INVALID_RESULT', `Tool result is not plain JSON (${budget.detail} at ${budget.path || '/'})`);
  return checkSize(JSON.stringify(value), limits);
}

function checkSize(text: string, limits: ResultLimits): Result<string> {
  if (text.length > limits.maxResultBytes || utf8ByteLength(text) > limits.maxResultBytes) return tooLarge(limits);
  return ok(text);
}

function tooLarge(limits: ResultLimits): Result<string> {
  return err('RESULT_TOO_LARGE', `Tool result is larger than ${limits.maxResultBytes} bytes`, {
    hint: 'Ask for a narrower query or fewer results.',
  });
}
