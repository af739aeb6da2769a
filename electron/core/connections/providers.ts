// What the app knows about each provider without loading its SDK: whether it needs a key, Ollama's root, our fetch.
import type { LlmProvider } from '../../../shared/types/llm';

/** Providers that cannot work without a key; the others (local servers) send one only if they have it. */
export const KEY_REQUIRED: Readonly<Record<LlmProvider, boolean>> = {
  openai: true,
  anthropic: true,
  gemini: true,
  'openai-compatible': false,
  ollama: false,
  local: false,
};

/** An Ollama profile may name the server root, `/api` or the `/v1` compat root; the native provider wants `<root>/api`. */
export function ollamaRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(api|v1)$/, '');
}

/**
 * Redirects are refused: fetch drops Authorization on a cross-origin redirect but keeps x-api-key
 * and x-goog-api-key, so a redirecting base URL could hand the key to another host.
 */
export const noRedirectFetch: typeof fetch = (input, init) => fetch(input, { ...init, redirect: 'error' });
