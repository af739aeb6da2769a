// Which panel renders each section. The sections a person opens now and then (MCP servers, Safety) load as a chunk of
// their own, asked for as soon as the app has started: the first paint parses less, and opening them rarely waits.
import { lazy, type ComponentType } from 'react';
import type { SectionId } from '../app/sections';
import { ConnectionsPanel } from './connections/ConnectionsPanel';
import { CouncilPanel } from './council/CouncilPanel';
import { ExtensionsPanel } from './extensions/ExtensionsPanel';
import { SidecarPanel } from './sidecar/SidecarPanel';
import { ToolsPanel } from './tools/ToolsPanel';
import { WorkbenchPanel } from './workbench/WorkbenchPanel';

const mcp = () => import('./mcp/McpPanel').then((m) => ({ default: m.McpPanel }));
const safety = () => import('./safety/SafetyPanel').then((m) => ({ default: m.SafetyPanel }));

/** Loads the sections that load apart (the app starts it once it has drawn; a test awaits it). */
export async function preloadPanels(): Promise<void> {
  await Promise.all([mcp(), safety()]);
}

export const PANELS: Record<SectionId, ComponentType> = {
  council: CouncilPanel,
  tools: ToolsPanel,
  extensions: ExtensionsPanel,
  sidecar: SidecarPanel,
  connections: ConnectionsPanel,
  workbench: WorkbenchPanel,
  mcp: lazy(mcp),
  safety: lazy(safety),
};
