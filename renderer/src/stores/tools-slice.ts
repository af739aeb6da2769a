// Tools slice (placeholder): the host's tool registry (extensions, built-ins, MCP), mirrored once tools.* methods and events land.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface ToolsEntry {
  id: string;
}

export interface ToolsSlice {
  tools: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly ToolsEntry[];
  };
}

export const createToolsSlice: Slice<ToolsSlice> = () => ({
  tools: { items: [] },
});
