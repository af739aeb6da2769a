// Contract handlers for approvals.* and the tool result caches.
import type { Handlers } from '../../../shared/contract';
import type { ToolRegistry } from '../registry/tool-registry';
import type { ApprovalService } from './approvals';
import type { ToolResultCache } from './tool-cache';

type SafetyHandlers = Pick<
  Handlers,
  'approvals.list' | 'approvals.respond' | 'approvals.allowed.list' | 'approvals.allowed.revoke' | 'tools.cacheStats' | 'tools.clearCache'
>;

export function safetyHandlers(approvals: ApprovalService, cache: ToolResultCache, registry: ToolRegistry): SafetyHandlers {
  return {
    'approvals.list': () => approvals.list(),
    'approvals.respond': (input) => approvals.respond(input),
    'approvals.allowed.list': () =>
      approvals.alwaysAllowList().map((entry) => {
        const info = registry.get(entry.qualifiedName);
        return { ...entry, displayName: info?.displayName ?? null, current: info?.definitionHash === entry.definitionHash };
      }),
    'approvals.allowed.revoke': async ({ qualifiedName }) => ({ revoked: await approvals.revoke(qualifiedName) }),
    'tools.cacheStats': ({ qualifiedName }) => cache.stats(qualifiedName),
    'tools.clearCache': ({ qualifiedName }) => ({ cleared: cache.clear(qualifiedName) }),
  };
}
