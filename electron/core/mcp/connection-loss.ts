// Telling a Streamable HTTP server that went away (or forgot our session) from a tool that failed.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * True when a request to an HTTP MCP server failed below MCP: the connection was refused or dropped
 * (fetch's "fetch failed" with a network cause), or the server answered 404 to our session id,
 * which the spec uses for "this session no longer exists". Either way only a new session helps.
 */
export function isConnectionLoss(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    if (current instanceof StreamableHTTPError && current.code === 404) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
