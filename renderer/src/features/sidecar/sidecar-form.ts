// The sidecar form's values as typed, their checks against SIDECAR_RANGES, and the config they make. Plain functions.
import type { HostError } from '../../../../shared/errors';
import { SIDECAR_DEFAULTS, SIDECAR_RANGES, type SidecarConfig } from '../../../../shared/types/llm';

export type SidecarField = 'connectionProfileId' | 'model' | 'temperature' | 'topP' | 'maxTokens';

/** Numbers stay text while typed, so "0." or "" can be on the way to a valid value. */
export interface SidecarDraft {
  connectionProfileId: string;
  model: string;
  temperature: string;
  topP: string;
  maxTokens: string;
}

export function draftOf(config: SidecarConfig): SidecarDraft {
  return {
    connectionProfileId: config.connectionProfileId,
    model: config.model,
    temperature: String(config.temperature),
    topP: String(config.topP),
    maxTokens: String(config.maxTokens),
  };
}

export const DEFAULT_NUMBERS = {
  temperature: String(SIDECAR_DEFAULTS.temperature),
  topP: String(SIDECAR_DEFAULTS.topP),
  maxTokens: String(SIDECAR_DEFAULTS.maxTokens),
};

const LABELS: Record<'temperature' | 'topP' | 'maxTokens', string> = { temperature: 'Temperature', topP: 'Top P', maxTokens: 'Max tokens' };

function checkNumber(field: 'temperature' | 'topP' | 'maxTokens', text: string): string | null {
  const range = SIDECAR_RANGES[field];
  const integer = 'integer' in range && range.integer;
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value)) return `${LABELS[field]} must be a number from ${range.min} to ${range.max}.`;
  if (integer && !Number.isInteger(value)) return `${LABELS[field]} must be a whole number from ${range.min} to ${range.max}.`;
  if (value < range.min || value > range.max) return `${LABELS[field]} must be from ${range.min} to ${range.max}.`;
  return null;
}

export function checkDraft(draft: SidecarDraft, profileIds: readonly string[]): Partial<Record<SidecarField, string>> {
  const errors: Partial<Record<SidecarField, string>> = {};
  if (draft.connectionProfileId && !profileIds.includes(draft.connectionProfileId)) errors.connectionProfileId = 'This connection no longer exists; choose another.';
  if (draft.model.length > 200) errors.model = 'The model id is longer than 200 characters.';
  for (const field of ['temperature', 'topP', 'maxTokens'] as const) {
    const problem = checkNumber(field, draft[field]);
    if (problem) errors[field] = problem;
  }
  return errors;
}

export function configOf(draft: SidecarDraft): SidecarConfig {
  return {
    connectionProfileId: draft.connectionProfileId,
    model: draft.model.trim(),
    temperature: Number(draft.temperature),
    topP: Number(draft.topP),
    maxTokens: Number(draft.maxTokens),
  };
}

/** The field a host error names (`/temperature` or `/patch/temperature`), or null. */
export function sidecarFieldOf(error: HostError): SidecarField | null {
  const last = (error.path ?? '').split('/').pop() ?? '';
  return (['connectionProfileId', 'model', 'temperature', 'topP', 'maxTokens'] as const).find((f) => f === last) ?? null;
}
