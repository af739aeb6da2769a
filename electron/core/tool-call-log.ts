// One log line per tool call, for the log of the extension or MCP server that ran it: the tool, how it ended (ok
// or the error code) and how long it took. Never the arguments or the result: they may hold anything.
import type { ExecuteResult } from './registry-port';

export function toolCallLine(tool: string, result: ExecuteResult, ms: number, verb: 'call' | 'simulate' = 'call'): { level: 'info' | 'warn'; text: string } {
  const name = tool.length > 64 ? `${tool.slice(0, 64)}…` : tool;
  const duration = `${Math.max(0, Math.round(ms))} ms`;
  return result.ok ? { level: 'info', text: `${verb} ${name}: ok, ${duration}` } : { level: 'warn', text: `${verb} ${name}: ${String(result.error.code).slice(0, 64)}, ${duration}` };
}
