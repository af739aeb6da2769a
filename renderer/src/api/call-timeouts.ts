// How long the renderer waits for the host to answer a call before it reports a timeout.
import type { MethodName } from '../../../shared/contract';

/** Most calls answer at once; a host silent for this long is treated as stuck. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * Calls that wait for tools, models or a person. The host ends each of them itself — council and
 * tool timeouts (up to 10 minutes), approval deadlines, MCP start-up and LLM request timeouts — and
 * at their defaults these already reach 30 s, so the renderer's own limit is only a safety net that
 * lets the host's answer (or its precise error) arrive first.
 */
export const WAITING_CALL_TIMEOUT_MS = 15 * 60_000;

const WAITING_CALLS: ReadonlySet<MethodName> = new Set<MethodName>([
  'tools.invoke',
  'council.run',
  'council.retryFailed',
  'mcp.connect',
  'mcp.restart',
  'connections.test',
  'connections.models',
]);

export interface CallTimeouts {
  /** For ordinary calls (default DEFAULT_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number;
  /** For calls that wait for tools, models or a person (default WAITING_CALL_TIMEOUT_MS). */
  waitingCallTimeoutMs?: number;
}

export function callTimeoutFor(method: MethodName, options: CallTimeouts): number {
  return WAITING_CALLS.has(method) ? (options.waitingCallTimeoutMs ?? WAITING_CALL_TIMEOUT_MS) : (options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
}
