// Sidecar slice (placeholder): the sidecar LLM configuration and health as the host reports them.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface SidecarEntry {
  id: string;
}

export interface SidecarSlice {
  sidecar: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly SidecarEntry[];
  };
}

export const createSidecarSlice: Slice<SidecarSlice> = () => ({
  sidecar: { items: [] },
});
