// Validates the sidecar settings (seed 000 SidecarConfig), fills defaults, and turns them into request parameters.
import type { HostError, Result } from '../../../shared/errors';
import { SIDECAR_DEFAULTS, SIDECAR_RANGES, type ConnectionProfile, type LlmMessage, type LlmRequest, type SidecarConfig } from '../../../shared/types/llm';

const FIELDS = ['connectionProfileId', 'model', 'temperature', 'topP', 'maxTokens'] as const;

/** A complete SidecarConfig from a partial one; connectionProfileId and model default to ''. */
export function withSidecarDefaults(partial: Partial<SidecarConfig> = {}): SidecarConfig {
  return {
    connectionProfileId: partial.connectionProfileId ?? '',
    model: partial.model ?? '',
    temperature: partial.temperature ?? SIDECAR_DEFAULTS.temperature,
    topP: partial.topP ?? SIDECAR_DEFAULTS.topP,
    maxTokens: partial.maxTokens ?? SIDECAR_DEFAULTS.maxTokens,
  };
}

/** Validates a full or partial config (missing fields take the defaults); unknown fields are rejected. */
export function validateSidecarConfig(input: unknown): Result<SidecarConfig> {
  const fail = (message: string, path: string): Result<SidecarConfig> => ({ ok: false, error: { code: 'INVALID_INPUT', message, path } satisfies HostError });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('The sidecar settings must be an object.', '');
  const value = input as Record<string, unknown>;
  for (const key of Object.keys(value)) if (!(FIELDS as readonly string[]).includes(key)) return fail(`Unknown field ${key}.`, `/${key}`);
  for (const key of ['connectionProfileId', 'model'] as const) {
    const v = value[key];
    // An extension's endpoint is named `extension:<id up to 64>/<endpoint id up to 128>`.
    const max = key === 'connectionProfileId' ? 256 : 200;
    if (v !== undefined && (typeof v !== 'string' || v.length > max)) return fail(`${key} must be a string of at most ${max} characters.`, `/${key}`);
  }
  for (const key of ['temperature', 'topP', 'maxTokens'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    const range = SIDECAR_RANGES[key];
    const integer = 'integer' in range && range.integer;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < range.min || v > range.max || (integer && !Number.isInteger(v))) {
      return fail(`${key} must be ${integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}.`, `/${key}`);
    }
  }
  return { ok: true, value: withSidecarDefaults(value as Partial<SidecarConfig>) };
}

/** The request a sidecar call makes: the config's sampling, and its model or else the profile's default. */
export function sidecarRequest(config: SidecarConfig, profile: ConnectionProfile, messages: LlmMessage[]): LlmRequest {
  return {
    messages,
    model: config.model || profile.defaultModel,
    temperature: config.temperature,
    topP: config.topP,
    maxTokens: config.maxTokens,
  };
}
