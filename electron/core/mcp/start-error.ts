// Why an MCP server did not start, in words that say what to check (and the last line it wrote to stderr).
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { HostError } from '../../../shared/errors';
import type { McpServerConfig } from '../../../shared/types/mcp';
import type { ExtensionLog } from '../extensions/extension-log';
import { lastStderr } from './last-stderr';

export function startError(config: McpServerConfig, log: ExtensionLog, error: unknown, initializeTimeoutMs: number): HostError {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return {
      code: 'MCP_INIT_TIMEOUT',
      message: `MCP server "${config.id}" did not answer initialize within ${initializeTimeoutMs} ms`,
      hint: 'Check the command and its arguments; the server may be waiting for input or writing logs to stdout.',
    };
  }
  const errno = (error as NodeJS.ErrnoException)?.code;
  if (errno === 'ENOENT') {
    return {
      code: 'MCP_CONNECT_FAILED',
      message: `MCP server "${config.id}": command not found: ${JSON.stringify(config.command)}`,
      hint: 'Use the full path of the program, or add its folder to PATH in the server env.',
      path: '/command',
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'MCP_CONNECT_FAILED', message: `MCP server "${config.id}" failed to start: ${detail.slice(0, 500)}${lastStderr(log)}` };
}
