// What the tool registry tells its listeners (UI mirrors, approvals, the worker host) when tools change.
import type { ToolInfo, ToolStatus } from '../../../shared/types/tools';

export type RegistryEvent =
  | { type: 'tool.registered'; tool: ToolInfo }
  /** Same qualified name registered again. definitionChanged ⇒ approvals bound to previousHash are stale. */
  | { type: 'tool.replaced'; tool: ToolInfo; previousHash: string; definitionChanged: boolean }
  | { type: 'tool.unregistered'; qualifiedName: string; alias: string; sourceId: string }
  | { type: 'source.status'; sourceId: string; status: ToolStatus };

export type RegistryEventListener = (event: RegistryEvent) => void;
