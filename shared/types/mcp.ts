// MCP server types derived from the contract schemas (shared/contract/mcp.ts).
import type { Static } from '@sinclair/typebox';
import type { McpAnnotationsSchema, McpServerConfigSchema, McpServerInfoSchema, McpStatusSchema, McpToolViewSchema } from '../contract/mcp';

export type McpServerConfig = Static<typeof McpServerConfigSchema>;
export type McpServerStatus = Static<typeof McpStatusSchema>;
export type McpServerInfo = Static<typeof McpServerInfoSchema>;
export type McpToolAnnotations = Static<typeof McpAnnotationsSchema>;
export type McpToolView = Static<typeof McpToolViewSchema>;

/** Registry source id of a server: tools are `mcp-<id>:<tool>`. */
export function mcpSourceId(serverId: string): string {
  return `mcp-${serverId}`;
}
