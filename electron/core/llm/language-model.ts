// Builds the AI SDK language model for a profile: the right provider, its base URL, our key (never an env fallback)
// and headers. Loaded with the SDK (sdk.ts) when a model is first called.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { JSONParseError } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { HostFailure } from '../../../shared/errors';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { noRedirectFetch, ollamaRoot } from '../connections/providers';
import { localLanguageModel, type LocalGenerate } from './local-language-model';

/**
 * The SDKs fall back to environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY,
 * GOOGLE_GENERATIVE_AI_API_KEY) when apiKey is undefined, which would send a key the user never
 * chose to this profile's base URL. We therefore always pass a string.
 */
export function languageModelFor(profile: ConnectionProfile, apiKey: string | undefined, modelId: string, local?: LocalGenerate, transport?: typeof fetch): LanguageModel {
  // Only an OpenAI-compatible model is ever given a transport (an extension's endpoint): any other would ignore it.
  if (transport && profile.provider !== 'openai-compatible') throw new HostFailure({ code: 'INTERNAL', message: `A ${profile.provider} connection cannot be given a transport of its own.` });
  const baseURL = profile.baseUrl.replace(/\/+$/, '');
  const headers = { ...profile.headers };
  switch (profile.provider) {
    case 'openai':
      // Chat Completions, not Responses: the format every OpenAI-style server implements.
      return createOpenAI({ baseURL, apiKey: apiKey ?? '', headers, fetch: noRedirectFetch }).chat(modelId);
    case 'anthropic':
      return createAnthropic({ baseURL, apiKey: apiKey ?? '', headers, fetch: noRedirectFetch })(modelId);
    case 'gemini':
      return createGoogleGenerativeAI({ baseURL, apiKey: apiKey ?? '', headers, fetch: noRedirectFetch })(modelId);
    case 'openai-compatible':
      // `transport`: an extension's sidecar endpoint speaks this format (sidecar/extension-endpoints.ts).
      // Structured output as OpenAI's json_schema (llama.cpp's server, vLLM, OpenRouter… read it), not only json_object.
      return createOpenAICompatible({ name: 'openai-compatible', baseURL, headers, includeUsage: true, supportsStructuredOutputs: true, fetch: transport ?? noRedirectFetch, ...(apiKey ? { apiKey } : {}) }).chatModel(modelId);
    case 'ollama':
      return createOllama({
        baseURL: `${ollamaRoot(baseURL)}/api`,
        headers: apiKey ? { ...headers, Authorization: `Bearer ${apiKey}` } : headers,
        fetch: strictNdjsonFetch,
      })(modelId);
    case 'local':
      if (!local) throw new HostFailure({ code: 'LLM_MODEL_LOAD_FAILED', message: 'Local models do not run in this process.' });
      return localLanguageModel(modelId, local);
  }
}

/**
 * The Ollama provider skips NDJSON lines it cannot parse (with a console.warn) and carries on, so a
 * corrupted stream would look like a shorter answer. This fetch makes a line that is not JSON an
 * error in the response body, which the stream reports as LLM_BAD_RESPONSE.
 */
export const strictNdjsonFetch: typeof fetch = async (input, init) => {
  const response = await noRedirectFetch(input, init);
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !response.body || !type.includes('ndjson')) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  let failure: Error | undefined;
  const problem = (line: string): Error | undefined => {
    const text = line.trim();
    if (!text) return undefined;
    try {
      JSON.parse(text);
      return undefined;
    } catch (cause) {
      return new JSONParseError({ text: text.length > 200 ? `${text.slice(0, 200)}…` : text, cause });
    }
  };
  // Good lines before a bad one are passed on first; the error is raised on the next chunk (or at the end),
  // because erroring the stream at once would discard what is still queued.
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (failure) throw failure;
        buffer += decoder.decode(chunk, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          failure = problem(line);
          if (failure) return;
          controller.enqueue(encoder.encode(`${line}\n`));
        }
      },
      flush(controller) {
        if (failure) throw failure;
        buffer += decoder.decode();
        failure = problem(buffer);
        if (failure) throw failure;
        if (buffer) controller.enqueue(encoder.encode(buffer));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};
