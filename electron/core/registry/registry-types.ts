// The registry's public shapes: where a tool comes from, how a call is asked for, list filters, a prepared call.
import type { CouncilMemberContext, LlmMessageDTO, ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ToolInfo, ToolSource, ToolStatus } from '../../../shared/types/tools';
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

/**
 * Arguments checked by prepareCall() for one tool, with its info and definition: what the guard
 * decides on. invokePrepared() runs exactly these arguments without checking them a second time.
 */
export interface PreparedCall {
  readonly info: ToolInfo;
  /** The registry's own normalized registration: read it, never change it. */
  readonly definition: Readonly<ToolRegistrationDTO>;
  /** A fresh copy this call owns, sanitized and schema-checked. */
  readonly args: Record<string, unknown>;
}
