// Images from a connection that can make them: an OpenAI or OpenAI-compatible profile given an image model speaks
// OpenAI's Images API (POST <base>/images/generations), as Lumiverse's OpenAI image provider does. As for chat, the key
// comes from the secret store, and a redirect is refused (it could carry the key elsewhere); the answer is capped and
// must carry the image itself (base64), never a link to fetch.
import { HostFailure } from '../../../shared/errors';
import { IMAGE_PROVIDERS, type ConnectionProfile } from '../../../shared/types/llm';
import { requestHeaders } from './header-secrets';
import { postJson, type FetchLike } from './http';
import type { Timers } from '../ports';
import type { Redactor } from './redact';
import { resolveApiKey, type Env, type SecretStore } from './secret-store';

/** An image takes its time: a minute or two at a busy provider. */
export const IMAGE_TIMEOUT_MS = 180_000;
/**
 * The answer's size at most: an image the extension's images keep (8 MB) in base64, and room for the JSON around it.
 * A larger one could not cross to the extension's worker anyway.
 */
const MAX_ANSWER_BYTES = 12 * 1024 * 1024;

export interface ImageRequest {
  prompt: string;
  /** Defaults to the profile's image model. */
  model?: string;
  /** Lumiverse's parameter names (size, quality, style, background, outputFormat, moderation). */
  parameters?: Record<string, unknown>;
}

export interface GeneratedImage {
  bytes: Buffer;
  model: string;
}

export interface ImageDeps {
  secrets: SecretStore;
  env: Env;
  redactor?: Redactor;
  fetch?: FetchLike;
  timers?: Timers;
  signal?: AbortSignal;
}

/** GPT image models always answer base64 and refuse response_format; DALL·E and compatible servers need it asked. */
const GPT_IMAGE = /^(gpt-image|chatgpt-image)/i;

/**
 * The request body for `model`, built as Lumiverse's OpenAI provider builds it: its parameters sent only to the models
 * that take them, and "auto" left out (the API's default where a model takes it, refused where it does not).
 */
export function imageRequestBody(model: string, request: ImageRequest): Record<string, unknown> {
  const p = request.parameters ?? {};
  const text = (key: string) => (typeof p[key] === 'string' && p[key] !== '' ? (p[key] as string) : undefined);
  const chosen = (key: string) => (text(key) === 'auto' ? undefined : text(key));
  const gpt = GPT_IMAGE.test(model);
  // GPT image models: the least restrictive moderation unless "auto" asks for the API's own; PNG is their default.
  const moderation = text('moderation') ?? 'low';
  const fields: Record<string, string | undefined> = gpt
    ? { background: chosen('background'), moderation: moderation === 'auto' ? undefined : moderation, output_format: text('outputFormat') === 'png' ? undefined : text('outputFormat') }
    : { response_format: 'b64_json', style: /^dall-e-3/i.test(model) ? text('style') : undefined };
  return {
    model,
    prompt: request.prompt,
    n: 1,
    ...Object.fromEntries(Object.entries({ size: chosen('size'), quality: chosen('quality'), ...fields }).filter(([, value]) => value !== undefined)),
  };
}

export async function generateImage(profile: ConnectionProfile, request: ImageRequest, deps: ImageDeps): Promise<GeneratedImage> {
  if (!IMAGE_PROVIDERS.includes(profile.provider) || !profile.imageModel) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} makes no images (no image model is set).`, path: '/connection_id' });
  }
  const model = request.model?.trim() || profile.imageModel;
  const key = resolveApiKey(profile, deps.secrets, deps.env, deps.redactor);
  const headers: Record<string, string> = { accept: 'application/json', ...requestHeaders(profile, deps.secrets, deps.redactor), ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const answer = await postJson(`${profile.baseUrl.replace(/\/+$/, '')}/images/generations`, imageRequestBody(model, request), {
    headers,
    timeoutMs: IMAGE_TIMEOUT_MS,
    maxBytes: MAX_ANSWER_BYTES,
    baseUrl: profile.baseUrl,
    ...(deps.redactor ? { redactor: deps.redactor } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.timers ? { timers: deps.timers } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const first = (answer as { data?: Array<{ b64_json?: unknown; url?: unknown }> } | null)?.data?.[0];
  if (typeof first?.b64_json === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(first.b64_json)) return { bytes: Buffer.from(first.b64_json, 'base64'), model };
  throw new HostFailure({
    code: 'LLM_BAD_RESPONSE',
    message: typeof first?.url === 'string' ? `The server at ${profile.baseUrl} answered with a link to the image, not the image (it was asked for b64_json).` : `The server at ${profile.baseUrl} answered with no image.`,
  });
}
