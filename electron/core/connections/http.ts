// Small bounded HTTP helpers for connection checks and image requests: a timeout, no redirects (they could carry the key
// elsewhere), a size cap.
import { HostFailure } from '../../../shared/errors';
import { classifyError, httpStatusError, providerMessage } from './provider-errors';
import { systemTimers, timeoutSignal, type Timers } from '../ports';
import type { Redactor } from './redact';

export type FetchLike = typeof fetch;

export interface GetJsonOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  redactor?: Redactor;
  /** Shown in "cannot reach" errors. */
  baseUrl?: string;
  fetch?: FetchLike;
  maxBytes?: number;
  timers?: Timers;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** GETs a JSON document or throws HostFailure (LLM_* codes; LLM_TIMEOUT on timeout; CANCELLED on abort). */
export async function getJson(url: string, options: GetJsonOptions): Promise<unknown> {
  return requestJson(url, null, options);
}

/** POSTs a JSON body and reads a JSON answer, as getJson does (an image generation's request). */
export async function postJson(url: string, body: unknown, options: GetJsonOptions): Promise<unknown> {
  return requestJson(url, JSON.stringify(body), { ...options, headers: { 'content-type': 'application/json', ...options.headers } });
}

async function requestJson(url: string, body: string | null, options: GetJsonOptions): Promise<unknown> {
  const timeout = timeoutSignal(options.timers ?? systemTimers, options.timeoutMs);
  try {
    return await fetchJson(url, body, options, options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal);
  } finally {
    timeout.clear();
  }
}

async function fetchJson(url: string, body: string | null, options: GetJsonOptions, signal: AbortSignal): Promise<unknown> {
  const ctx = { redactor: options.redactor, baseUrl: options.baseUrl };
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { method: body === null ? 'GET' : 'POST', headers: options.headers, ...(body === null ? {} : { body }), signal, redirect: 'error' });
  } catch (err) {
    throw abortOr(err, options, ctx);
  }
  let text: string;
  try {
    text = await readCapped(response, options.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (err) {
    if (err instanceof HostFailure) throw err;
    throw abortOr(err, options, ctx);
  }
  if (!response.ok) throw new HostFailure(httpStatusError(response.status, providerMessage(text), ctx).error);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: `The server at ${options.baseUrl ?? 'this address'} did not answer with JSON.` });
  }
}

function abortOr(err: unknown, options: GetJsonOptions, ctx: { redactor?: Redactor; baseUrl?: string }): HostFailure {
  if (options.signal?.aborted) return new HostFailure({ code: 'CANCELLED', message: 'The request was cancelled.' });
  const name = (err as { name?: unknown })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new HostFailure({
      code: 'LLM_TIMEOUT',
      message: `No answer from ${options.baseUrl ?? 'the server'} within ${options.timeoutMs} ms.`,
    });
  }
  return new HostFailure(classifyError(err, ctx).error);
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: `The answer was larger than ${Math.round(maxBytes / 1024)} KB.` });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
