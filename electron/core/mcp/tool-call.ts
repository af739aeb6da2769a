// One call of an MCP server's tool: only its own arguments go out (the host's __deadlineMs never, `context` only
// to tools that declare it), the remaining time is the request's timeout, and every failure becomes a HostError.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { HostError } from '../../../shared/errors';
import type { ExecuteRequest, ExecuteResult } from '../registry-port';
import { isConnectionLoss } from './connection-loss';
import { toExecuteResult } from './flatten-result';
import type { McpSession } from './mcp-connection';

export interface ToolCallTarget {
  id: string;
  transport: 'stdio' | 'http';
  conn: McpSession;
  wantsContext: boolean;
  now: number;
  redact(text: string): string;
  /** An HTTP server that cannot be reached: it is treated as crashed (reconnect with backoff). */
  lost(error: HostError): void;
}

export async function callMcpTool(target: ToolCallTarget, request: ExecuteRequest): Promise<ExecuteResult> {
  const { id, conn } = target;
  const args: Record<string, unknown> = { ...request.args };
  delete args.__deadlineMs;
  if (!target.wantsContext) delete args.context;
  const remaining = request.deadline - target.now;
  if (remaining <= 0) return { ok: false, error: timeoutError(id, request.toolName) };
  const signal = request.signal;
  try {
    const result = await conn.callTool(request.toolName, args, { signal, timeout: remaining });
    return toExecuteResult(result, request.toolName);
  } catch (error) {
    if (signal.aborted) return { ok: false, error: { code: 'CANCELLED', message: `Call to MCP tool "${request.toolName}" was cancelled` } };
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return { ok: false, error: timeoutError(id, request.toolName) };
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return { ok: false, error: { code: 'WORKER_CRASHED', message: `MCP server "${id}" closed while "${request.toolName}" was running` } };
    }
    const detail = error instanceof Error ? error.message : String(error);
    if (target.transport === 'http' && isConnectionLoss(error)) {
      // Like a stdio server that exited: its tools turn unavailable and it reconnects with backoff
      // (once, for the first of the calls that find it gone).
      const lost: HostError = { code: 'WORKER_CRASHED', message: target.redact(`MCP server "${id}" cannot be reached (${detail}) while "${request.toolName}" was called`) };
      target.lost(lost);
      return { ok: false, error: lost };
    }
    return { ok: false, error: { code: 'TOOL_ERROR', message: target.redact(`MCP tool "${request.toolName}" failed: ${detail}`) } };
  }
}

function timeoutError(id: string, tool: string): HostError {
  return {
    code: 'TOOL_TIMEOUT',
    message: `MCP tool "${tool}" on server "${id}" did not answer in time; the request was cancelled`,
    hint: 'The tool may be slow or stuck; continue without it or try again later.',
  };
}
