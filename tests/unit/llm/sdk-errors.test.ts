// classifyError recognises the AI SDK's own error objects without loading the SDK (errors.ts reads @ai-sdk/provider
// and RetryError's marker): the classes `ai` throws are classified as before.
import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../electron/core/connections/provider-errors';

const rateLimited = () =>
  new APICallError({ message: 'slow down', url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode: 429, responseBody: '{"error":{"message":"slow down"}}', isRetryable: true });

describe('classifyError and the SDK error classes', () => {
  it('reads an APICallError by its status', () => {
    const classified = classifyError(rateLimited());
    expect(classified.error.code).toBe('LLM_RATE_LIMITED');
    expect(classified.retryable).toBe(true);
  });

  it('classifies a RetryError by the last error it wraps', () => {
    const retry = new RetryError({ message: 'gave up', reason: 'maxRetriesExceeded', errors: [rateLimited(), rateLimited()] });
    expect(classifyError(retry).error.code).toBe('LLM_RATE_LIMITED');
  });

  it('does not take an ordinary error carrying a lastError for a RetryError', () => {
    const lookalike = Object.assign(new Error('boom'), { lastError: rateLimited() });
    expect(classifyError(lookalike).error.code).not.toBe('LLM_RATE_LIMITED');
  });
});
