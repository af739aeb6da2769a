// Connections slice (placeholder): LLM provider and MCP server connections (never their secrets), mirrored from the host.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface ConnectionsEntry {
  id: string;
}

export interface ConnectionsSlice {
  connections: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly ConnectionsEntry[];
  };
}

export const createConnectionsSlice: Slice<ConnectionsSlice> = () => ({
  connections: { items: [] },
});
