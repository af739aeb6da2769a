// Plain data about providers and local servers for the Connections UI: labels, defaults, key status wording, field-path mapping.
import type { HostError } from '../../../../shared/errors';
import { DEFAULT_BASE_URLS, LLM_PROVIDERS, type ConnectionProfileView, type LlmProvider } from '../../../../shared/types/llm';

export const PROVIDERS: ReadonlyArray<{ id: LlmProvider; label: string; short: string; needsKey: boolean }> = LLM_PROVIDERS.map((id) => {
  switch (id) {
    case 'openai':
      return { id, label: 'OpenAI', short: 'OpenAI', needsKey: true };
    case 'anthropic':
      return { id, label: 'Anthropic', short: 'Anthropic', needsKey: true };
    case 'gemini':
      return { id, label: 'Google Gemini', short: 'Gemini', needsKey: true };
    case 'openai-compatible':
      return { id, label: 'OpenAI-compatible (LM Studio, llama.cpp, vLLM, KoboldCpp, OpenRouter…)', short: 'OpenAI-compatible', needsKey: false };
    case 'ollama':
      return { id, label: 'Ollama', short: 'Ollama', needsKey: false };
    case 'local':
      return { id, label: 'Local model (built in: a GGUF run by the Workbench itself)', short: 'Local model', needsKey: false };
  }
});

export function providerInfo(id: LlmProvider) {
  return PROVIDERS.find((p) => p.id === id) ?? { id, label: id, short: id, needsKey: false };
}

export function defaultBaseUrl(provider: LlmProvider): string {
  return DEFAULT_BASE_URLS[provider];
}

const LOCAL_LABELS: Record<string, string> = {
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  llamacpp: 'llama.cpp',
  koboldcpp: 'KoboldCpp',
  vllm: 'vLLM',
  'openai-compatible': 'OpenAI-compatible server',
};

export function localServerLabel(kind: string): string {
  return Object.prototype.hasOwnProperty.call(LOCAL_LABELS, kind) ? LOCAL_LABELS[kind]! : kind;
}

/** What the probe looks for, shown while it runs. */
export const PROBED = 'Ollama (11434), LM Studio (1234), llama.cpp (8080), KoboldCpp (5001), vLLM (8000), and any OpenAI-compatible server on those ports or on 1337, 5000 and 4891';

/** How the key of a profile is held, in words; never the key (the host sends only its last 4 characters). */
export function keyStatus(profile: Pick<ConnectionProfileView, 'keyRef' | 'hasKey' | 'keyHint'>): { text: string; tone: 'ok' | 'warn' | 'neutral' } {
  const ref = profile.keyRef;
  if (!ref) return { text: 'No key', tone: 'neutral' };
  if (ref.kind === 'env') {
    return profile.hasKey
      ? { text: `Key from $${ref.name}${profile.keyHint ? ` …${profile.keyHint}` : ''}`, tone: 'ok' }
      : { text: `$${ref.name} is not set where the host runs`, tone: 'warn' };
  }
  if (!profile.hasKey) return { text: 'Stored key missing', tone: 'warn' };
  return { text: profile.keyHint ? `Key set …${profile.keyHint}` : 'Key set', tone: 'ok' };
}

export type ProfileField = 'name' | 'provider' | 'baseUrl' | 'defaultModel' | 'imageModel' | 'headers' | 'keyEnv' | 'key';

/** Which form field a host error names (its path, with or without the /profile prefix), or null for the form as a whole. */
export function fieldOf(error: HostError): ProfileField | null {
  const path = (error.path ?? '').replace(/^\/profile(?=\/|$)/, '');
  if (path === '/name') return 'name';
  if (path === '/provider') return 'provider';
  if (path === '/baseUrl') return 'baseUrl';
  if (path === '/defaultModel') return 'defaultModel';
  if (path === '/imageModel') return 'imageModel';
  if (path.startsWith('/headers')) return 'headers';
  if (path.startsWith('/keyRef')) return 'keyEnv';
  if (path === '/key') return 'key';
  return null;
}

/** The same URL checks the host makes, so most mistakes are caught as they are typed. */
export function checkBaseUrl(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return 'Enter the server’s base URL.';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'This is not a full URL. Start with http:// or https://.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Use http or https, not ${url.protocol.replace(/:$/, '')}.`;
  if (url.username || url.password) return 'Take the user name and password out of the URL; put the key in the key field.';
  if (url.search || url.hash) return 'Take the query (?…) or fragment (#…) out of the URL.';
  return null;
}

export const ENV_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,120}API_KEY$/;
