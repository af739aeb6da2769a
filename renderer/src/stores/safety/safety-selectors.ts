// Selectors over the safety slice and the safety settings section (absent parts read as the defaults).
import { readSafetySettings } from '../../../../shared/types/safety';
import type { AppState } from '../app/app-store';

export const selectApprovalQueue = (s: AppState) => s.approvals.queue;
export const selectPendingApproval = (s: AppState) => s.approvals.queue[0] ?? null;
export const selectApprovalCount = (s: AppState) => s.approvals.queue.length;
export const selectLastResolved = (s: AppState) => s.approvals.lastResolved;
export const selectAllowed = (s: AppState) => s.allowed;
/** The raw safety section (null until settings arrived). Pair with readSafetySettings when defaults matter. */
export const selectSafetySection = (s: AppState) => s.settings?.safety ?? null;
export const selectApproveAllWrites = (s: AppState) => readSafetySettings(s.settings?.safety).approveAllWrites;
export const selectDryRunDefault = (s: AppState) => readSafetySettings(s.settings?.safety).dryRun;
