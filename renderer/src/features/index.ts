// Which panel renders each section.
import type { ComponentType } from 'react';
import type { SectionId } from '../app/sections';
import { ConnectionsPanel } from './connections/ConnectionsPanel';
import { CouncilPanel } from './council/CouncilPanel';
import { ExtensionsPanel } from './extensions/ExtensionsPanel';
import { McpPanel } from './mcp/McpPanel';
import { SafetyPanel } from './safety/SafetyPanel';
import { SidecarPanel } from './sidecar/SidecarPanel';
import { ToolsPanel } from './tools/ToolsPanel';
import { WorkbenchPanel } from './workbench/WorkbenchPanel';

export const PANELS: Record<SectionId, ComponentType> = {
  council: CouncilPanel,
  tools: ToolsPanel,
  extensions: ExtensionsPanel,
  sidecar: SidecarPanel,
  connections: ConnectionsPanel,
  workbench: WorkbenchPanel,
  mcp: McpPanel,
  safety: SafetyPanel,
};
