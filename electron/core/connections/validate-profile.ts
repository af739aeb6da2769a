// Checks a connection profile from anywhere (UI, CLI, an imported file): http(s) base URL without credentials, safe headers, a key reference that cannot point at arbitrary secrets.
import type { HostError, Result } from '../../../shared/errors';
import { LOCAL_MODELS_URL } from '../../../shared/types/local-models';
import { IMAGE_PROVIDERS, LLM_PROVIDERS, type ConnectionProfile, type KeyRef, type LlmProvider } from '../../../shared/types/llm';

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * An env key reference must name a variable ending in API_KEY: a shared or imported profile must
 * not be able to send AWS_SECRET_ACCESS_KEY or GITHUB_TOKEN to a base URL of its choosing.
 */
export const ENV_KEY_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,120}API_KEY$/;
const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Credentials belong in keyRef (stored encrypted or in the environment), never in plain headers. */
const FORBIDDEN_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
]);
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE = 1024;
const MAX_URL_LENGTH = 2048;

const invalid = (message: string, path: string, hint?: string): HostError => ({ code: 'INVALID_INPUT', message, path, ...(hint ? { hint } : {}) });

/** null when the URL is an acceptable API root; otherwise an INVALID_INPUT error at `path`. */
/** A local model's connection has no address: its base URL is always LOCAL_MODELS_URL. */
function checkLocalUrl(value: unknown): HostError | null {
  return value === LOCAL_MODELS_URL ? null : invalid(`A local model's connection has the base URL ${LOCAL_MODELS_URL}.`, '/baseUrl');
}

export function checkBaseUrl(value: unknown, path = '/baseUrl'): HostError | null {
  if (typeof value !== 'string' || value.trim() === '') return invalid('The base URL is required.', path);
  if (value.length > MAX_URL_LENGTH) return invalid(`The base URL is longer than ${MAX_URL_LENGTH} characters.`, path);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return invalid('The base URL is not a valid URL.', path, 'Use a full address such as https://api.openai.com/v1 or http://127.0.0.1:11434.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalid(`The base URL must use http or https, not ${url.protocol.replace(/:$/, '')}.`, path);
  }
  if (url.username !== '' || url.password !== '') {
    // Never echo the URL: the credentials are in it.
    return invalid('The base URL must not contain a user name or password.', path, 'Put the API key in the key field instead.');
  }
  if (url.search !== '' || url.hash !== '') {
    return invalid('The base URL must not contain a query (?…) or fragment (#…).', path, 'Put the API key in the key field, not in the URL.');
  }
  if (url.hostname === '') return invalid('The base URL has no host.', path);
  if (isLinkLocal(url.hostname)) {
    return invalid('The base URL points at a link-local address (such as the cloud metadata service).', path);
  }
  return null;
}

function isLinkLocal(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (/^169\.254\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (/^fe[89ab][0-9a-f]?:/.test(host)) return true;
  return host === 'metadata.google.internal' || host === 'metadata';
}

export function isLoopbackUrl(baseUrl: string): boolean {
  try {
    const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

/** Things the user should confirm but that are not errors (S12: plain http to another machine). */
export function profileWarnings(profile: ConnectionProfile): string[] {
  const warnings: string[] = [];
  if (profile.baseUrl.startsWith('http:') && !isLoopbackUrl(profile.baseUrl)) {
    warnings.push(
      profile.keyRef
        ? 'This connection uses plain http to another machine: the API key and your chats travel unencrypted.'
        : 'This connection uses plain http to another machine: your chats travel unencrypted.',
    );
  }
  return warnings;
}

export function checkKeyRef(value: unknown, path = '/keyRef'): HostError | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null) return invalid('keyRef must be an object.', path);
  const ref = value as Record<string, unknown>;
  if (ref.kind === 'stored') return Object.keys(ref).length === 1 ? null : invalid('A stored keyRef has no other fields.', path);
  if (ref.kind === 'env') {
    if (Object.keys(ref).some((k) => k !== 'kind' && k !== 'name')) return invalid('An env keyRef has only kind and name.', path);
    if (typeof ref.name !== 'string' || !ENV_KEY_NAME_PATTERN.test(ref.name)) {
      return invalid(
        'The environment variable name must be upper case and end in API_KEY (e.g. OPENAI_API_KEY).',
        `${path}/name`,
        'Only variables named like API keys may be used, so a profile cannot read other secrets from the environment.',
      );
    }
    return null;
  }
  return invalid("keyRef.kind must be 'env' or 'stored'.", `${path}/kind`);
}

function checkHeaders(value: unknown): HostError | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('headers must be an object of strings.', '/headers');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) return invalid(`At most ${MAX_HEADERS} extra headers.`, '/headers');
  for (const [name, headerValue] of entries) {
    const path = `/headers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!HEADER_NAME_PATTERN.test(name)) return invalid('This is not a valid header name.', path);
    if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
      return invalid(`The ${name} header cannot be set here.`, path, 'API keys go in the key field, where they are kept out of settings and logs.');
    }
    if (typeof headerValue !== 'string') return invalid('Header values must be strings.', path);
    if (headerValue.length > MAX_HEADER_VALUE || /[\r\n\0]/.test(headerValue)) {
      return invalid(`Header values must be one line of at most ${MAX_HEADER_VALUE} characters.`, path);
    }
  }
  return null;
}

function checkString(value: unknown, path: string, label: string, min: number, max: number): HostError | null {
  if (typeof value !== 'string') return invalid(`${label} must be a string.`, path);
  if (value.trim().length < min) return invalid(`${label} is required.`, path);
  if (value.length > max) return invalid(`${label} is longer than ${max} characters.`, path);
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return invalid(`${label} must not contain control characters.`, path);
  return null;
}

/** An image model only where the provider speaks OpenAI's Images API (empty: none). */
function checkImageModel(provider: LlmProvider, value: unknown): HostError | null {
  if (value === undefined) return null;
  const error = checkString(value, '/imageModel', 'The image model', 0, 200);
  if (error || (value as string).trim() === '') return error;
  return IMAGE_PROVIDERS.includes(provider) ? null : invalid(`Only ${IMAGE_PROVIDERS.join(' and ')} connections make images here.`, '/imageModel');
}

/** Validates an unknown value as a profile; the returned value is a clean copy (trimmed URL, no extra fields). */
export function validateProfile(input: unknown): Result<ConnectionProfile> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: invalid('A profile must be an object.', '') };
  const p = input as Record<string, unknown>;
  const known = new Set(['id', 'name', 'provider', 'baseUrl', 'defaultModel', 'imageModel', 'headers', 'keyRef', 'hasKey', 'keyHint']);
  for (const key of Object.keys(p)) if (!known.has(key)) return { ok: false, error: invalid(`Unknown field ${key}.`, `/${key}`) };
  if (typeof p.id !== 'string' || !ID_PATTERN.test(p.id)) return { ok: false, error: invalid('The id must be 1–64 letters, digits, _ or -.', '/id') };
  const error =
    checkString(p.name, '/name', 'The name', 1, 100) ??
    (LLM_PROVIDERS.includes(p.provider as LlmProvider) ? null : invalid(`The provider must be one of ${LLM_PROVIDERS.join(', ')}.`, '/provider')) ??
    (p.provider === 'local' ? checkLocalUrl(p.baseUrl) : checkBaseUrl(p.baseUrl)) ??
    checkString(p.defaultModel ?? '', '/defaultModel', 'The default model', 0, 200) ??
    checkImageModel(p.provider as LlmProvider, p.imageModel) ??
    checkHeaders(p.headers ?? {}) ??
    checkKeyRef(p.keyRef);
  if (error) return { ok: false, error };
  const profile: ConnectionProfile = {
    id: p.id,
    name: (p.name as string).trim(),
    provider: p.provider as LlmProvider,
    baseUrl: (p.baseUrl as string).trim().replace(/\/+$/, ''),
    defaultModel: ((p.defaultModel as string | undefined) ?? '').trim(),
    headers: { ...((p.headers as Record<string, string> | undefined) ?? {}) },
  };
  const imageModel = typeof p.imageModel === 'string' ? p.imageModel.trim() : '';
  if (imageModel) profile.imageModel = imageModel;
  if (p.keyRef !== undefined) profile.keyRef = { ...(p.keyRef as KeyRef) };
  return { ok: true, value: profile };
}
