// The registry's public shapes: where a tool comes from, how a call is asked for, list filters, the guard in front of a call.
import type { CouncilMemberContext, LlmMessageDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { Result } from '../../../shared/errors';
import type { ToolInfo, ToolOutcome, ToolSource, ToolStatus } from '../../../shared/types/tools';
import type { Clock, Logger } from '../ports';
import type { RegistryLimits } from './limits';
import type { Timers } from '../ports';

export interface ToolSourceRef {
  kind: ToolSource;
  id: string;
}

export interface ToolRegistryDeps {
  clock?: Clock;
  timers?: Timers;
  log?: Logger;
  limits?: Partial<RegistryLimits>;
  newRequestId?: () => string;
}

export interface InvokeOptions {
  /** From the council timeout setting; becomes the executor's deadline and args.__deadlineMs. */
  timeoutMs: number;
  councilMember?: CouncilMemberContext;
  contextMessages?: LlmMessageDTO[];
  /** Flattened chat context; delivered as args.context (seed 000, council invocations). */
  context?: string;
  signal?: AbortSignal;
  requestId?: string;
  /**
   * Dry run of a write tool (seed 001): the executor's simulate() when the tool declares
   * has_simulate, else the seed's placeholder; the outcome carries `simulated` (and `unvalidated`).
   */
  simulate?: boolean;
  /** Passed on to the executor (ExecuteRequest.mayWrite). */
  mayWrite?: (path: string) => boolean;
  /**
   * A council call whose arguments nobody planned (Lumiverse's own contract: only the host's
   * `context` and `__deadlineMs`): the schema is not checked, since its required arguments are absent.
   */
  unplanned?: boolean;
}

/** The seed's stand-in result for a write tool simulated without a simulate handler. */
export const SIMULATION_PLACEHOLDER_TEXT = JSON.stringify({ ok: true, simulated: true, unvalidated: true });

export interface ToolFilter {
  sourceId?: string;
  extensionId?: string;
  source?: ToolSource;
  status?: ToolStatus;
  councilEligible?: boolean;
  inlineAvailable?: boolean;
}

/** One call as the registry checked it: what the guard's steps decide on. */
export interface CheckedCall {
  readonly info: ToolInfo;
  /** The registry's own normalized registration: read it, never change it. */
  readonly definition: Readonly<ToolRegistrationDTO>;
  /** A fresh copy this call owns: sanitized, then schema-checked once after the guard's `normalize`. */
  readonly args: Record<string, unknown>;
}

/** Runs the checked call now; a dry run asks for the simulation. */
export type RunCall = (options?: { simulate?: boolean }) => Promise<ToolOutcome>;

/**
 * One step in front of the run: it answers itself (a refusal, a cache hit), passes the call on to the
 * next step, or runs it at once (a simulated write needs neither cache nor approval).
 */
export type GuardStep = (call: CheckedCall, next: () => Promise<ToolOutcome>, run: RunCall) => Promise<ToolOutcome>;

/** What `normalize` makes of the sanitized arguments. */
export interface NormalizedArgs {
  args: Record<string, unknown>;
  /** Passed on to the executor (ExecuteRequest.mayWrite). */
  mayWrite?: (path: string) => boolean;
}

/** The safety pipeline a caller puts in front of one invoke() (safety/guarded-invoke.ts). */
export interface CallGuard {
  /** Before the one schema check: rewrites the arguments (normalized paths) or refuses them. */
  normalize?(call: CheckedCall): Result<NormalizedArgs>;
  steps: readonly GuardStep[];
}
