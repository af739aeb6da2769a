// Safe tool use for the fake host: the approval queue and answers, the always-allowed list, tool caches, and
// settings.update deep-merging the safety section (arrays replace), the way the real host does.
import type { MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { Settings } from '../../shared/settings';
import { defaultSafetySettings, type ApprovalRequest, type ToolCacheStats } from '../../shared/types/safety';
import type { FakeHost } from './harness';

export { XSS } from '../fixtures/xss-corpus';

type Allowed = MethodOutput<'approvals.allowed.list'>[number];

export interface SafetyFakes {
  queue: ApprovalRequest[];
  allowed: Allowed[];
  caches: Record<string, ToolCacheStats>;
  /** What approvals.respond answers (default: approved / rejected by decision, mismatch when the hash differs). */
  respond?: (input: { id: string; argsHash: string; decision: string; message?: string }) => Result<MethodOutput<'approvals.respond'>>;
}

export function approval(partial: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const args = partial.args ?? { page: 'Plans/Trip', content: 'pack the tent\nbuy stove fuel' };
  const argsJson = partial.argsJson ?? JSON.stringify(args);
  return {
    id: 'ap-1',
    toolQualifiedName: 'notes:create_note',
    toolDisplayName: 'Create note',
    description: 'Create a new page (fails if it exists).',
    mode: 'write',
    reason: 'requires_approval',
    definitionHash: 'b'.repeat(64),
    memberName: 'Archivist Wren',
    memberRole: 'Continuity',
    origin: 'council',
    args,
    argsJson,
    argsHash: 'c'.repeat(64),
    diff: {
      path: 'Plans/Trip.md',
      before: '',
      after: 'pack the tent\nbuy stove fuel\n',
      unified: '--- a/Plans/Trip.md\n+++ b/Plans/Trip.md\n@@ -0,0 +1,2 @@\n+pack the tent\n+buy stove fuel\n',
      created: true,
      inferred: false,
    },
    requestedAt: Date.UTC(2026, 0, 2, 9, 30),
    deadline: Date.UTC(2026, 0, 2, 9, 30, 30),
    ...partial,
  };
}

export function cacheStatsOf(qualifiedName: string, partial: Partial<ToolCacheStats> = {}): ToolCacheStats {
  return { qualifiedName, ttlMs: 60_000, maxEntries: 50, size: 3, hits: 6, misses: 2, hitRate: 0.75, evictions: 1, expirations: 0, ...partial };
}

function merge(base: unknown, patch: unknown): unknown {
  const plain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!plain(base) || !plain(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = v === undefined ? base[k] : merge(base[k], v);
  return out;
}

export function installSafety(host: FakeHost, init: Partial<SafetyFakes> = {}): SafetyFakes {
  const f: SafetyFakes = { queue: init.queue ?? [], allowed: init.allowed ?? [], caches: init.caches ?? {}, ...(init.respond ? { respond: init.respond } : {}) };
  host.settings = { ...host.settings, safety: host.settings.safety ?? defaultSafetySettings() };
  const ok = <T>(value: T): Result<T> => ({ ok: true, value });
  const h = host.handlers;
  h['approvals.list'] = () => ok(structuredClone(f.queue));
  h['approvals.respond'] = (input) => {
    if (f.respond) return f.respond(input);
    const request = f.queue.find((r) => r.id === input.id);
    if (!request) return { ok: false, error: { code: 'NOT_FOUND', message: `No pending approval ${input.id}.` } };
    f.queue = f.queue.filter((r) => r.id !== input.id);
    if (input.argsHash !== request.argsHash) return ok({ status: 'mismatch' as const });
    return ok({ status: input.decision === 'reject' ? ('rejected' as const) : ('approved' as const) });
  };
  h['approvals.allowed.list'] = () => ok(structuredClone(f.allowed));
  h['approvals.allowed.revoke'] = ({ qualifiedName }) => {
    const before = f.allowed.length;
    f.allowed = f.allowed.filter((a) => a.qualifiedName !== qualifiedName);
    return ok({ revoked: f.allowed.length < before });
  };
  h['tools.cacheStats'] = ({ qualifiedName }) => ok(Object.values(f.caches).filter((c) => !qualifiedName || c.qualifiedName === qualifiedName));
  h['tools.clearCache'] = ({ qualifiedName }) => {
    let cleared = 0;
    for (const c of Object.values(f.caches)) {
      if (qualifiedName && c.qualifiedName !== qualifiedName) continue;
      cleared += c.size;
      c.size = 0;
    }
    return ok({ cleared });
  };
  h['settings.update'] = ({ patch }) => {
    host.settings = merge(host.settings, patch) as Settings;
    return ok(structuredClone(host.settings));
  };
  return f;
}
