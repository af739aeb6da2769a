// Runs slice (placeholder): tool invocations and council runs with their streamed events; token streams are batched per frame.
import type { Slice } from './slice';

/** Placeholder entry until the shared DTO for this domain exists; replace with it, keep the slice's shape. */
export interface RunsEntry {
  id: string;
}

export interface RunsSlice {
  runs: {
    /** Host truth as last reported; empty until the domain's contract methods and events land. */
    items: readonly RunsEntry[];
  };
}

export const createRunsSlice: Slice<RunsSlice> = () => ({
  runs: { items: [] },
});
