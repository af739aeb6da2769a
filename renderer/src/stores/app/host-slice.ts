// Host slice: what host.status reports (data dir, mode, counts, settings version); notices live in their own slice.
import type { MethodOutput } from '../../../../shared/contract';
import type { Slice } from './slice';

export type HostStatus = Omit<MethodOutput<'host.status'>, 'notices'>;

export interface HostSlice {
  /** Null until the first host.status answer. */
  hostStatus: HostStatus | null;
  hostStatusLoaded(status: HostStatus): void;
}

export const createHostSlice: Slice<HostSlice> = (set) => ({
  hostStatus: null,
  hostStatusLoaded: (status) => set({ hostStatus: status }),
});
