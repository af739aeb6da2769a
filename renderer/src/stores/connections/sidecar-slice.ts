// Sidecar slice: the sidecar LLM settings (seed 000 SidecarConfig) and whether the host can use them, as sidecar.get reports.
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import type { Slice } from '../app/slice';

export type SidecarState = MethodOutput<'sidecar.get'>;

export interface SidecarSlice {
  sidecar: {
    /** Null until the first sidecar.get answer. */
    state: SidecarState | null;
    loadError: HostError | null;
  };
  sidecarLoaded(state: SidecarState): void;
  sidecarLoadFailed(error: HostError): void;
}

export const createSidecarSlice: Slice<SidecarSlice> = (set) => ({
  sidecar: { state: null, loadError: null },
  sidecarLoaded: (state) => set({ sidecar: { state, loadError: null } }),
  sidecarLoadFailed: (error) => set((s) => ({ sidecar: { ...s.sidecar, loadError: error } })),
});
