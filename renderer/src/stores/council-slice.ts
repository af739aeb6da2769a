// Council slice (placeholder): council members and deliberation state, mirrored from the council contract once it lands.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface CouncilEntry {
  id: string;
}

export interface CouncilSlice {
  council: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly CouncilEntry[];
  };
}

export const createCouncilSlice: Slice<CouncilSlice> = () => ({
  council: { items: [] },
});
