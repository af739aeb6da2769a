// Turns anything the AI SDK, fetch or a provider throws into a HostError with a stable code and a human message, scrubbed of keys.
// The error classes come from the SDK's small provider package, so classifying an error does not load the SDK.
import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { Redactor } from './redact';

export interface ClassifiedError {
  error: HostError;
  /** 429 and 5xx answers: worth another attempt before the first token. */
  retryable: boolean;
  /** From a retry-after header, in ms. */
  retryAfterMs?: number;
}

const MAX_PROVIDER_MESSAGE = 300;

export interface ClassifyContext {
  redactor?: Redactor;
  /** Shown in "cannot reach" messages. */
  baseUrl?: string;
}

export function httpStatusError(status: number, providerMessage: string | undefined, ctx: ClassifyContext): ClassifiedError {
  const detail = providerMessage ? `: ${providerMessage}` : '.';
  const clean = (message: string) => scrub(message, ctx.redactor);
  if (status === 401 || status === 403) {
    return {
      error: {
        code: 'LLM_AUTH_FAILED',
        message: clean(`The provider rejected the request's credentials (HTTP ${status})${detail}`),
        hint: 'Check the API key for this connection.',
      },
      retryable: false,
    };
  }
  if (status === 429) {
    return {
      error: { code: 'LLM_RATE_LIMITED', message: clean(`The provider is rate limiting requests (HTTP 429)${detail}`), hint: 'Wait a little and try again.' },
      retryable: true,
    };
  }
  if (status >= 500) {
    return {
      error: { code: 'LLM_SERVER_ERROR', message: clean(`The provider had a server error (HTTP ${status})${detail}`), hint: 'Try again later.' },
      retryable: true,
    };
  }
  if (status === 404) {
    return {
      error: { code: 'LLM_NOT_FOUND', message: clean(`The provider answered 404 Not Found${detail}`), hint: 'Check the base URL and the model name.' },
      retryable: false,
    };
  }
  return { error: { code: 'LLM_REQUEST_REJECTED', message: clean(`The provider rejected the request (HTTP ${status})${detail}`) }, retryable: false };
}

/** The human part of a provider error body (OpenAI, Anthropic, Gemini and Ollama shapes), shortened. */
export function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  let message: unknown;
  try {
    const parsed = JSON.parse(body) as unknown;
    message = pickMessage(parsed);
  } catch {
    message = body;
  }
  if (typeof message !== 'string') return undefined;
  const oneLine = message.replace(/\s+/g, ' ').trim();
  if (!oneLine) return undefined;
  return oneLine.length > MAX_PROVIDER_MESSAGE ? `${oneLine.slice(0, MAX_PROVIDER_MESSAGE)}…` : oneLine;
}

function pickMessage(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.error === 'string') return v.error;
  if (typeof v.error === 'object' && v.error !== null) return pickMessage(v.error);
  if (typeof v.message === 'string') return v.message;
  return undefined;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const raw = headers?.['retry-after'] ?? headers?.['Retry-After'];
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function scrub(message: string, redactor: Redactor | undefined): string {
  return redactor ? redactor.redact(message) : message;
}

function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = err;
  while (current !== undefined && current !== null && chain.length < 6 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Why a request never got an answer, from the error codes Node, undici and OpenSSL use. */
const NETWORK_CAUSES: Array<[RegExp, string]> = [
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'the host name could not be resolved (DNS)'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ESOCKETTIMEDOUT)$/, 'timed out while connecting'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET)$/, 'the connection was reset before an answer'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, 'the network or host is unreachable'],
  [/^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET)_)/, 'the TLS handshake failed'],
];

function networkCause(err: unknown): { code: string; label: string } | undefined {
  for (const link of causeChain(err)) {
    const code = (link as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const found = NETWORK_CAUSES.find(([pattern]) => pattern.test(code));
    if (found) return { code, label: found[1] };
  }
  // fetch refuses ports that browsers block (6000, 6667, 10080…) before it connects.
  if (causeChain(err).some((link) => link instanceof Error && link.message === 'bad port')) {
    return { code: 'bad port', label: 'fetch refuses this port (one that browsers block): use another port' };
  }
  return undefined;
}

/** undici's own wrapper for any failure before a response: `TypeError: fetch failed`. */
const RETRY_ERROR_MARKER = Symbol.for('vercel.ai.error.AI_RetryError');

/** The SDK's RetryError (defined in `ai` itself), recognised by the marker its own `RetryError.isInstance` reads. */
function isRetryError(err: unknown): err is Error & { lastError: unknown } {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[RETRY_ERROR_MARKER] === true;
}

function isFetchFailure(err: unknown): boolean {
  return causeChain(err).some((link) => link instanceof TypeError && link.message === 'fetch failed');
}

/** Classifies an error from a generation or a model-list request. Never copies headers, URLs with keys or request bodies. */
export function classifyError(err: unknown, ctx: ClassifyContext = {}): ClassifiedError {
  if (err instanceof HostFailure) return { error: { ...err.error, message: scrub(err.error.message, ctx.redactor) }, retryable: false };
  if (isRetryError(err)) return classifyError(err.lastError, ctx);

  const truncated = causeChain(err).some(
    (link) => link instanceof Error && (link.message === 'terminated' || link.name === 'SocketError' || (link as { code?: string }).code === 'UND_ERR_SOCKET'),
  );
  if (causeChain(err).some((link) => link instanceof Error && link.message === 'unexpected redirect')) {
    return {
      error: {
        code: 'LLM_REQUEST_REJECTED',
        message: 'The server answered with a redirect, which is not followed (it could carry the API key to another host).',
        hint: 'Use the final address as the base URL.',
      },
      retryable: false,
    };
  }
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status !== undefined && (status < 200 || status >= 300)) {
      const classified = httpStatusError(status, providerMessage(err.responseBody), ctx);
      const after = retryAfterMs(err.responseHeaders);
      return after === undefined ? classified : { ...classified, retryAfterMs: after };
    }
    // A 2xx whose body broke off while we read it (undici: "terminated", cause "other side closed").
    if (status !== undefined) {
      return badResponse(truncated ? 'The connection closed before the response finished (truncated stream).' : 'The response could not be read.', ctx);
    }
    return unreachable(err, ctx);
  }
  if (EmptyResponseBodyError.isInstance(err)) return badResponse('The provider sent an empty response.', ctx);
  if (InvalidResponseDataError.isInstance(err)) return badResponse(`The provider's response was invalid: ${err.message}`, ctx);
  if (JSONParseError.isInstance(err) || TypeValidationError.isInstance(err)) {
    return badResponse('The provider sent a malformed chunk (not the JSON the wire format expects).', ctx);
  }
  if (truncated) return badResponse('The connection closed before the response finished (truncated stream).', ctx);
  if (networkCause(err) || isFetchFailure(err)) return unreachable(err, ctx);
  // A mid-stream error object from the provider (OpenRouter/Ollama `{"error": …}` events).
  if (typeof err === 'string' || (typeof err === 'object' && err !== null && !(err instanceof Error))) {
    const message = providerMessage(typeof err === 'string' ? err : JSON.stringify(err));
    return {
      error: { code: 'LLM_SERVER_ERROR', message: scrub(`The provider reported an error mid-stream${message ? `: ${message}` : '.'}`, ctx.redactor) },
      retryable: false,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { error: { code: 'INTERNAL', message: scrub(`The LLM request failed: ${message}`, ctx.redactor) }, retryable: false };
}

function badResponse(message: string, ctx: ClassifyContext): ClassifiedError {
  return { error: { code: 'LLM_BAD_RESPONSE', message: scrub(message, ctx.redactor) }, retryable: false };
}

function unreachable(err: unknown, ctx: ClassifyContext): ClassifiedError {
  const cause = networkCause(err);
  const lastMessage = causeChain(err)
    .map((link) => (link instanceof Error ? link.message : ''))
    .filter((message) => message && message !== 'fetch failed')
    .pop();
  const why = cause ? `${cause.label}${cause.code === 'bad port' ? '' : `, ${cause.code}`}` : (lastMessage ?? 'no answer');
  return {
    error: {
      code: 'LLM_UNREACHABLE',
      message: scrub(`Could not reach ${hostAndPort(ctx.baseUrl)}: ${why}. Is the server running?`, ctx.redactor),
      hint: cause?.label.startsWith('the TLS')
        ? 'Check the address: an http:// server answers badly to https://, and a self-signed certificate is refused.'
        : 'Start the server, or check the host, the port and the base URL of this connection.',
    },
    retryable: false,
  };
}

/** `host:port` of a base URL, with the scheme's default port spelled out; the URL's path and credentials are left out. */
function hostAndPort(baseUrl: string | undefined): string {
  if (!baseUrl) return 'the provider';
  try {
    const url = new URL(baseUrl);
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    return port ? `${url.hostname}:${port}` : url.hostname;
  } catch {
    return 'the provider';
  }
}

export const timeoutError = (ms: number): HostError => ({
  code: 'LLM_TIMEOUT',
  message: `The provider did not answer within ${Math.round(ms / 100) / 10} s.`,
  hint: 'Try again; a slow local model may need a smaller request (fewer tokens or messages) to answer in time.',
});

export const cancelledError = (): HostError => ({ code: 'CANCELLED', message: 'The request was cancelled.' });
