// Lists a profile's models through each wire format's models endpoint; testConnection is that call with the outcome as data.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ConnectionProfile, ConnectionTestResult } from '../../../shared/types/llm';
import { classifyError } from './provider-errors';
import { KEY_REQUIRED, ollamaRoot } from './providers';
import { requestHeaders } from './header-secrets';
import { getJson, type FetchLike } from './http';
import type { Timers } from '../ports';
import type { Redactor } from './redact';
import { resolveApiKey, type Env, type SecretStore } from './secret-store';
import { validateProfile } from './validate-profile';

export interface ModelListDeps {
  secrets: SecretStore;
  env?: Env;
  redactor?: Redactor;
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  timers?: Timers;
  /** The local model library's ids (provider local). */
  localModels?: () => string[];
}

export const ANTHROPIC_VERSION = '2023-06-01';
const MAX_MODELS = 2000;

/** The model ids a profile's server offers, sorted; throws HostFailure (LLM_AUTH_FAILED, LLM_UNREACHABLE, …). */
export async function listModels(input: ConnectionProfile, deps: ModelListDeps): Promise<string[]> {
  const checked = validateProfile(input);
  if (!checked.ok) throw new HostFailure(checked.error);
  const profile = checked.value;
  if (profile.provider === 'local') return [...(deps.localModels?.() ?? [])].sort();
  const key = resolveApiKey(profile, deps.secrets, deps.env ?? process.env, deps.redactor);
  if (key === undefined && (KEY_REQUIRED[profile.provider] || profile.keyRef)) {
    throw new HostFailure({ code: 'LLM_NO_KEY', message: `The connection ${profile.name} has no API key.`, hint: 'Add a key to the connection.' });
  }
  const base = profile.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json', ...requestHeaders(profile, deps.secrets, deps.redactor) };
  let url: string;
  switch (profile.provider) {
    case 'openai':
    case 'openai-compatible':
      url = `${base}/models`;
      if (key) headers.authorization = `Bearer ${key}`;
      break;
    case 'anthropic':
      url = `${base}/models?limit=1000`;
      if (key) headers['x-api-key'] = key;
      headers['anthropic-version'] = ANTHROPIC_VERSION;
      break;
    case 'gemini':
      url = `${base}/models?pageSize=1000`;
      if (key) headers['x-goog-api-key'] = key;
      break;
    case 'ollama':
      url = `${ollamaRoot(base)}/api/tags`;
      if (key) headers.authorization = `Bearer ${key}`;
      break;
  }
  const doc = await getJson(url, {
    headers,
    timeoutMs: deps.timeoutMs ?? 10_000,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.redactor ? { redactor: deps.redactor } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.timers ? { timers: deps.timers } : {}),
    baseUrl: profile.baseUrl,
  });
  return parseModelList(profile.provider, doc);
}

export function parseModelList(provider: ConnectionProfile['provider'], doc: unknown): string[] {
  const ids = new Set<string>();
  const entries = (field: string): unknown[] => {
    const value = (doc as Record<string, unknown> | null)?.[field];
    if (!Array.isArray(value)) throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: `The model list has no ${field} array.` });
    return value.slice(0, MAX_MODELS);
  };
  if (provider === 'ollama') {
    for (const m of entries('models')) if (typeof (m as { name?: unknown })?.name === 'string') ids.add((m as { name: string }).name);
  } else if (provider === 'gemini') {
    for (const m of entries('models')) {
      const model = m as { name?: unknown; supportedGenerationMethods?: unknown };
      if (typeof model?.name !== 'string') continue;
      const methods = Array.isArray(model.supportedGenerationMethods) ? model.supportedGenerationMethods : null;
      if (methods && !methods.includes('generateContent')) continue;
      ids.add(model.name.replace(/^models\//, ''));
    }
  } else {
    for (const m of entries('data')) if (typeof (m as { id?: unknown })?.id === 'string') ids.add((m as { id: string }).id);
  }
  return [...ids].filter((id) => id.length > 0 && id.length <= 200).sort();
}

/** Lists models and reports the outcome as data (never throws). */
export async function testConnection(profile: ConnectionProfile, deps: ModelListDeps): Promise<ConnectionTestResult> {
  try {
    return { ok: true, models: await listModels(profile, deps) };
  } catch (err) {
    const error: HostError = classifyError(err, { baseUrl: profile.baseUrl, ...(deps.redactor ? { redactor: deps.redactor } : {}) }).error;
    return { ok: false, models: [], error };
  }
}
