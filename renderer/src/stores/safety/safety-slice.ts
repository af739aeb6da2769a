// Safety slice: tool calls waiting for a person (approval.requested / approval.resolved / approvals.list) and the
// "always allowed" list (approvals.allowed.list, refreshed on approvals.allowed.changed). Host truth, mirrored.
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import type { ApprovalRequest, ApprovalResolution } from '../../../../shared/types/safety';
import type { Slice } from '../app/slice';

export type AllowedEntry = MethodOutput<'approvals.allowed.list'>[number];

export interface SafetySlice {
  approvals: {
    /** Pending requests, oldest first (the host's queue order). The dialog shows the first. */
    queue: readonly ApprovalRequest[];
    /** The last request that left the queue and how (for the dialog's announcement). */
    lastResolved: { id: string; toolQualifiedName: string; resolution: ApprovalResolution } | null;
  };
  allowed: {
    items: readonly AllowedEntry[];
    loaded: boolean;
    error: HostError | null;
  };
  approvalsReplaced(queue: readonly ApprovalRequest[]): void;
  approvalRequested(request: ApprovalRequest): void;
  approvalResolved(id: string, toolQualifiedName: string, resolution: ApprovalResolution): void;
  allowedReplaced(items: readonly AllowedEntry[]): void;
  allowedLoadFailed(error: HostError): void;
}

export const createSafetySlice: Slice<SafetySlice> = (set) => ({
  approvals: { queue: [], lastResolved: null },
  allowed: { items: [], loaded: false, error: null },
  approvalsReplaced: (queue) => set((s) => ({ approvals: { ...s.approvals, queue: [...queue] } })),
  approvalRequested: (request) =>
    set((s) => {
      const queue = s.approvals.queue.filter((r) => r.id !== request.id);
      queue.push(request);
      return { approvals: { ...s.approvals, queue } };
    }),
  approvalResolved: (id, toolQualifiedName, resolution) =>
    set((s) => {
      if (!s.approvals.queue.some((r) => r.id === id)) return {};
      return { approvals: { queue: s.approvals.queue.filter((r) => r.id !== id), lastResolved: { id, toolQualifiedName, resolution } } };
    }),
  allowedReplaced: (items) => set({ allowed: { items: [...items], loaded: true, error: null } }),
  allowedLoadFailed: (error) => set((s) => ({ allowed: { ...s.allowed, loaded: true, error } })),
});
