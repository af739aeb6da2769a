// The seam between the tool registry and whatever executes a tool (a worker, a builtin, an MCP server).
import type { HostError } from '../../shared/errors';
import type { CouncilMemberContext, LlmMessageDTO } from '../../shared/types/spindle';

export interface ExecuteRequest {
  /** Bare tool name as registered. */
  toolName: string;
  /** Already validated and sanitized; host-supplied fields (context, __deadlineMs) included. */
  args: Record<string, unknown>;
  requestId: string;
  councilMember?: CouncilMemberContext;
  contextMessages?: LlmMessageDTO[];
  /** Absolute epoch ms after which the executor must give up with TOOL_TIMEOUT. */
  deadline: number;
  /** Aborted when the caller cancels; the executor cancels the work and resolves CANCELLED. */
  signal: AbortSignal;
  /**
   * Whether the caller's path lists allow writing `path` (a note name, as path arguments carry it),
   * for builtin tools that change more files than their path arguments name: rename_note rewrites
   * links in other notes. Absent when no lists apply (the registry called directly).
   */
  mayWrite?: (path: string) => boolean;
}

/** Raw value as the tool returned it (string or JSON-able), or a structured error. */
export type ExecuteResult = { ok: true; value: unknown } | { ok: false; error: HostError };

export interface ToolExecutor {
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
  /**
   * The executor ends every call at its deadline itself (the worker host's timer, the MCP request timeout). Once
   * such a call has its turn the registry arms no backstop timer of its own: each call has one timer.
   */
  readonly ownsDeadline?: boolean;
  /** Dry run of a write tool that declares has_simulate (the worker's TOOL_SIMULATION handler). */
  simulate?(request: ExecuteRequest): Promise<ExecuteResult>;
}
