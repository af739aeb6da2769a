// The connection form's model, no React: the checks run as the person saves or tests (field → message), and the
// profile sent to the host built from what was typed. The key itself is not part of the profile.
import { IMAGE_PROVIDERS, type LlmProvider } from '../../../../shared/types/llm';
import type { KeyValueRow } from '../../components/KeyValueRows';
import type { ProfileInput } from '../../stores/connections/connections-commands';
import type { KeyMode } from './ApiKeyFieldset';
import { checkBaseUrl, ENV_NAME_PATTERN, type ProfileField } from './providers';

export interface ProfileDraft {
  name: string;
  provider: LlmProvider;
  baseUrl: string;
  defaultModel: string;
  /** The model it makes images with (extensions' image generation); empty: none. Sent only where the provider has one. */
  imageModel: string;
  headers: KeyValueRow[];
  keyMode: KeyMode;
  envName: string;
  /** The key typed in this form (write-only), empty when none. */
  key: string;
  hasStoredKey: boolean;
}

export type ProfileErrors = Partial<Record<ProfileField, string>>;

/** What is wrong with the draft; a save also needs a key when the key is to be stored and none is. */
export function checkProfile(draft: ProfileDraft, forSave: boolean): ProfileErrors {
  const found: ProfileErrors = {};
  if (!draft.name.trim()) found.name = 'Give the connection a name.';
  // A local model has no address (its base URL is fixed); its model must be one of the library's.
  const url = draft.provider === 'local' ? null : checkBaseUrl(draft.baseUrl);
  if (url) found.baseUrl = url;
  if (draft.provider === 'local' && !draft.defaultModel.trim()) found.defaultModel = 'Choose one of your local models (List models), or add one under Local models below.';
  const names = new Set<string>();
  for (const row of draft.headers) {
    const n = row.key.trim();
    if (!n && !row.value.trim()) continue;
    if (!n) found.headers = 'Every header needs a name.';
    else if (names.has(n.toLowerCase())) found.headers = `The header ${n} is listed twice.`;
    names.add(n.toLowerCase());
  }
  if (draft.keyMode === 'env' && !ENV_NAME_PATTERN.test(draft.envName.trim())) {
    found.keyEnv = 'Use an upper-case variable name that ends in API_KEY, e.g. OPENAI_API_KEY.';
  }
  if (forSave && draft.keyMode === 'stored' && draft.key.trim() === '' && !draft.hasStoredKey) found.key = 'Paste the API key, or choose another key source.';
  return found;
}

export function profileInput(draft: ProfileDraft, id: string | undefined): ProfileInput {
  const headerRecord: Record<string, string> = {};
  for (const row of draft.headers) if (row.key.trim()) headerRecord[row.key.trim()] = row.value;
  return {
    ...(id !== undefined ? { id } : {}),
    name: draft.name.trim(),
    provider: draft.provider,
    baseUrl: draft.baseUrl.trim(),
    defaultModel: draft.defaultModel.trim(),
    ...(IMAGE_PROVIDERS.includes(draft.provider) && draft.imageModel.trim() ? { imageModel: draft.imageModel.trim() } : {}),
    headers: headerRecord,
    ...(draft.keyMode === 'env'
      ? { keyRef: { kind: 'env' as const, name: draft.envName.trim() } }
      : draft.keyMode === 'stored'
        ? { keyRef: { kind: 'stored' as const } }
        : {}),
  };
}

/** The key to send with a save or test: only one typed for a stored key. */
export function keyToSend(draft: ProfileDraft): string | undefined {
  return draft.keyMode === 'stored' && draft.key.trim() !== '' ? draft.key : undefined;
}
