// Safe tool use on the real core, for renderer tests: tool calls that wait for a person, and tools of a test's own.
import type { ApprovalRequest } from '../../shared/types/safety';
import type { CouncilMemberContext } from '../../shared/types/spindle';
import type { ToolOutcome } from '../../shared/types/tools';
import type { RealHost } from './real-host';

export const TRIP = { page: 'Plans/Trip', content: 'pack the tent\nbuy stove fuel' };
export const WREN = { name: 'Archivist Wren', role: 'Continuity' };

export interface Ask {
  tool?: string;
  args?: Record<string, unknown>;
  /** The council member the call is made for; null: a call by hand (Tools section). */
  member?: { name: string; role: string } | null;
  timeoutMs?: number;
}

/**
 * A tool call through the core's guarded invoker, as the council (or Try it) makes it; resolves once the core has queued
 * the approval, with the request as the core made it. The call itself goes on waiting for an answer.
 */
export async function ask(host: RealHost, { tool = 'notes:create_note', args = TRIP, member = WREN, timeoutMs = 30_000 }: Ask = {}): Promise<{ request: ApprovalRequest; outcome: Promise<ToolOutcome> }> {
  const requested = new Promise<ApprovalRequest>((resolve) => {
    const off = host.core.onEvent((event) => {
      if (event.type !== 'approval.requested' || event.request.toolQualifiedName !== tool) return;
      off();
      resolve(event.request);
    });
  });
  const councilMember: CouncilMemberContext | undefined = member
    ? { memberId: 'm-wren', itemId: 'i-wren', packId: 'pack', packName: 'Pack', chance: 100, avatarUrl: null, definition: '', personality: '', behavior: '', genderIdentity: 0, ...member }
    : undefined;
  const outcome = host.core.safety.guard.invoke(tool, args, { timeoutMs, origin: member ? 'council' : 'manual', ...(councilMember ? { councilMember } : {}) });
  // A call that ends without asking (refused by path permissions, say) fails the test instead of waiting for ever.
  const ended = outcome.then((o) => Promise.reject(new Error(`${tool} ended without asking: ${JSON.stringify(o)}`)));
  return { request: await Promise.race([requested, ended]), outcome };
}

/**
 * Registers a tool of a builtin source `sourceId` in the core's registry (as the note tools are), answering with
 * `execute`; returns its qualified name.
 */
export function registerTool(host: RealHost, sourceId: string, dto: Record<string, unknown>, execute: (args: Record<string, unknown>) => unknown = () => 'done'): string {
  const registered = host.core.registry.register({ kind: 'builtin', id: sourceId }, dto, {
    execute: async (request) => ({ ok: true, value: await execute(request.args) }),
  });
  if (!registered.ok) throw new Error(`${sourceId}: ${registered.error.message}`);
  return registered.value.qualifiedName;
}
