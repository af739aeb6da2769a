// Safety actions: answer an approval, manage the always-allowed list, change the safety settings, read and clear tool caches.
import type { MethodOutput } from '../../../../shared/contract';
import type { Result } from '../../../../shared/errors';
import type { Settings } from '../../../../shared/settings';
import { defaultSafetySettings, type ApprovalDecision, type ApprovalRequest, type SafetySettings } from '../../../../shared/types/safety';
import type { HostConnection } from '../../api/connection';
import type { AppStore } from '../app/app-store';

/** Answers the request as shown: its own argsHash goes back, so a changed argument list cannot be approved by accident. */
export async function respondToApproval(
  store: AppStore,
  host: HostConnection,
  request: Pick<ApprovalRequest, 'id' | 'argsHash' | 'toolQualifiedName'>,
  decision: ApprovalDecision,
  message?: string,
): Promise<Result<MethodOutput<'approvals.respond'>>> {
  const trimmed = message?.trim() ?? '';
  const result = await host.invoke('approvals.respond', {
    id: request.id,
    argsHash: request.argsHash,
    decision,
    ...(decision === 'reject' && trimmed ? { message: trimmed } : {}),
  });
  if (result.ok) {
    const resolution = result.value.status === 'approved' ? decision : result.value.status === 'mismatch' ? 'mismatch' : 'reject';
    store.getState().approvalResolved(request.id, request.toolQualifiedName, resolution);
  }
  return result;
}

export async function reloadApprovals(store: AppStore, host: HostConnection): Promise<void> {
  const result = await host.invoke('approvals.list', {});
  if (result.ok) store.getState().approvalsReplaced(result.value);
}

export async function reloadAllowed(store: AppStore, host: HostConnection): Promise<Result<MethodOutput<'approvals.allowed.list'>>> {
  const result = await host.invoke('approvals.allowed.list', {});
  if (result.ok) store.getState().allowedReplaced(result.value);
  else if (result.error.code !== 'HOST_SHUTDOWN') store.getState().allowedLoadFailed(result.error);
  return result;
}

export async function revokeAllowed(store: AppStore, host: HostConnection, qualifiedName: string): Promise<Result<{ revoked: boolean }>> {
  const result = await host.invoke('approvals.allowed.revoke', { qualifiedName });
  if (result.ok) await reloadAllowed(store, host);
  return result;
}

type SafetyPatch = Partial<Pick<SafetySettings, 'approveAllWrites' | 'dryRun'>> & { workbench?: SafetySettings['workbench'] };

/**
 * Changes part of the safety section. Only the changed keys travel when the section exists (the host deep-merges,
 * arrays replace), so a stale copy of alwaysAllow is never written back over a newer one.
 */
export async function updateSafety(store: AppStore, host: HostConnection, patch: SafetyPatch): Promise<Result<Settings>> {
  const current = store.getState().settings?.safety;
  const safety = current ? patch : { ...defaultSafetySettings(), ...patch };
  const result = await host.invoke('settings.update', { patch: { safety } });
  if (result.ok) store.getState().settingsLoaded(result.value);
  return result;
}

export function cacheStats(host: HostConnection, qualifiedName: string) {
  return host.invoke('tools.cacheStats', { qualifiedName });
}

export function clearCache(host: HostConnection, qualifiedName: string) {
  return host.invoke('tools.clearCache', { qualifiedName });
}
