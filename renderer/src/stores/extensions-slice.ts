// Extensions slice (placeholder): installed extensions, their worker state and grants, mirrored from the host.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface ExtensionsEntry {
  id: string;
}

export interface ExtensionsSlice {
  extensions: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly ExtensionsEntry[];
  };
}

export const createExtensionsSlice: Slice<ExtensionsSlice> = () => ({
  extensions: { items: [] },
});
