// The council's view of the sidecar LLM: a small port so the council never depends on connections or settings.
import type { HostError } from '../../../shared/errors';
import type { JsonSchema } from '../../../shared/types/spindle';

export interface SidecarCompleteInput {
  system: string;
  prompt: string;
  maxTokens?: number;
}

export interface SidecarPlanInput {
  system: string;
  prompt: string;
  /** `name` must be provider-safe (`[A-Za-z0-9_-]{1,64}`): pass the registry alias. */
  tool: { name: string; description: string; parameters: JsonSchema };
  /** Why planned arguments would be refused (the tool's schema), or null: a refused plan is asked for once more. */
  validate?: (args: Record<string, unknown>) => HostError | null;
}

/** Planned arguments, and how they came: under a grammar from the schema (local models), after a retry. */
export interface PlannedArguments {
  args: Record<string, unknown>;
  constrained: boolean;
  repaired: boolean;
}

export interface SidecarPort {
  /** False when no sidecar connection is chosen: prompt tools and argument planning then fail with SIDECAR_NOT_CONFIGURED. */
  isConfigured(): boolean;
  /** The text of one completion. Rejects with a HostFailure (CANCELLED after the signal aborts). */
  complete(input: SidecarCompleteInput, signal: AbortSignal): Promise<string>;
  /** Arguments from one forced function call of `tool`, checked with `validate` (one retry) when given. */
  planArguments(input: SidecarPlanInput, signal: AbortSignal): Promise<PlannedArguments>;
  /** Identifies the connection, so concurrent calls can be limited per connection. */
  connectionKey(): string;
}

export const SIDECAR_NOT_CONFIGURED: HostError = {
  code: 'SIDECAR_NOT_CONFIGURED',
  message: 'No sidecar LLM is configured, so this council tool cannot run.',
  hint: 'Choose a connection in Sidecar (the CLI: sidecar set), or switch the council to inline mode.',
};

/** The port before anyone plugs a real sidecar in. */
export const unconfiguredSidecar: SidecarPort = {
  isConfigured: () => false,
  complete: () => Promise.reject(new Error(SIDECAR_NOT_CONFIGURED.message)),
  planArguments: () => Promise.reject(new Error(SIDECAR_NOT_CONFIGURED.message)),
  connectionKey: () => 'none',
};
