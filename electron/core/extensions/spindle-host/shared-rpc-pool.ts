// spindle.rpcPool: Lumiverse's shared RPC pool. An extension publishes a value (sync) or answers on demand (handle)
// under `<its id>.<channel>`; another reads it. Kept in the host, in memory, and gone with the owner's worker. A read
// is permission-checked as in Lumiverse: by default the reader must hold every permission the owner was granted (no
// extension reads another's data through it as a confused deputy); a policy's `requires` narrows that to the
// permissions named, which both must hold.
import type { HostError } from '../../../../shared/errors';
import { invalidEndpointMessage, ownedEndpoint, qualifiedEndpoint } from '../../../../shared/spindle/rpc-pool-names';
import { fail, type HandlersOf } from './handlers';

/** An owner's worker, as the pool reaches it: what it was granted, and a call to its handler. */
export interface PoolPeer {
  granted: readonly string[];
  call(endpoint: string, context: unknown, timeoutMs: number, signal: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; error: HostError }>;
}

/** As Lumiverse: a reader waits at most this long for an on-demand handler. */
export const READ_TIMEOUT_MS = 10_000;
/** Endpoints one extension may own at a time. */
export const MAX_ENDPOINTS = 256;

type Record_ = { owner: string; endpoint: string; requires: readonly string[] | null } & ({ mode: 'sync'; value: unknown } | { mode: 'handle' });

export class SharedRpcPool {
  private readonly endpoints = new Map<string, Record_>();

  constructor(
    /** A running extension's worker; null when it is not running. */
    private readonly peer: (extensionId: string) => PoolPeer | null,
    private readonly changed: (extensionId: string) => void,
  ) {}

  /** What an extension owns now (its card lists them). */
  ownedBy(extensionId: string): string[] {
    return [...this.endpoints.values()].filter((r) => r.owner === extensionId).map((r) => `${r.endpoint} (${r.mode === 'sync' ? 'value' : 'on demand'})`);
  }

  /** Its worker stopped: its endpoints go with it. */
  clear(extensionId: string): void {
    let any = false;
    for (const [name, record] of this.endpoints) if (record.owner === extensionId) any = this.endpoints.delete(name);
    if (any) this.changed(extensionId);
  }

  handlers(): HandlersOf<'rpcPool'> {
    const owned = (owner: string, endpoint: string) => ownedEndpoint(owner, endpoint) ?? fail('INVALID_INPUT', invalidEndpointMessage(endpoint), '/endpoint');
    const put = (record: Record_) => {
      const count = [...this.endpoints.values()].filter((r) => r.owner === record.owner && r.endpoint !== record.endpoint).length;
      if (count >= MAX_ENDPOINTS) fail('QUOTA_EXCEEDED', `An extension owns at most ${MAX_ENDPOINTS} shared RPC endpoints.`, '/endpoint');
      this.endpoints.set(record.endpoint, record);
      this.changed(record.owner);
      return null;
    };
    const requires = (policy: { requires?: string[] } | undefined) => (policy?.requires ? [...new Set(policy.requires.map((p) => p.trim()).filter(Boolean))].sort() : null);
    return {
      'rpcPool.sync': ({ endpoint, value, policy }, caller) =>
        put({ owner: caller.extensionId, endpoint: owned(caller.extensionId, endpoint), requires: requires(policy), mode: 'sync', value: value ?? null }),
      'rpcPool.handle': ({ endpoint, policy }, caller) => put({ owner: caller.extensionId, endpoint: owned(caller.extensionId, endpoint), requires: requires(policy), mode: 'handle' }),
      'rpcPool.unregister': ({ endpoint }, caller) => {
        const name = owned(caller.extensionId, endpoint);
        if (this.endpoints.get(name)?.owner === caller.extensionId && this.endpoints.delete(name)) this.changed(caller.extensionId);
        return null;
      },
      'rpcPool.read': async ({ endpoint }, caller, call) => {
        const name = qualifiedEndpoint(endpoint) ?? fail('INVALID_INPUT', invalidEndpointMessage(endpoint), '/endpoint');
        const record = this.endpoints.get(name) ?? fail('NOT_FOUND', `Shared RPC endpoint "${name}" is not registered`, '/endpoint');
        const owner = this.peer(record.owner) ?? fail('NOT_FOUND', `Shared RPC endpoint "${name}" is not registered`, '/endpoint');
        const reader = caller.extensionId === record.owner ? owner.granted : (this.peer(caller.extensionId)?.granted ?? []);
        const effective = checkRead(name, caller.extensionId, reader, record, owner.granted);
        if (record.mode === 'sync') return record.value;
        const context = { endpoint: name, requesterExtensionId: caller.extensionId, effectivePermissions: effective };
        const answer = await owner.call(name, context, READ_TIMEOUT_MS, call.signal);
        if (!answer.ok) fail(answer.error.code, answer.error.message);
        return answer.value ?? null;
      },
    };
  }
}

/** Refuses a read the reader may not make; the permissions an on-demand handler runs with (as Lumiverse). */
function checkRead(endpoint: string, reader: string, readerGranted: readonly string[], record: Record_, ownerGranted: readonly string[]): string[] {
  const has = new Set(readerGranted);
  const owns = new Set(ownerGranted);
  const required = record.requires ?? [...owns].sort();
  const ownerLacks = record.requires ? required.filter((p) => !owns.has(p)) : [];
  if (ownerLacks.length) fail('PERMISSION_DENIED', `Shared RPC endpoint "${endpoint}" requires owner "${record.owner}" permissions: ${ownerLacks.join(', ')}`, '/endpoint');
  const readerLacks = required.filter((p) => !has.has(p));
  if (readerLacks.length) {
    fail(
      'PERMISSION_DENIED',
      record.requires
        ? `Shared RPC endpoint "${endpoint}" requires requester "${reader}" permissions: ${readerLacks.join(', ')}`
        : `Shared RPC endpoint "${endpoint}" requires requester "${reader}" to inherit owner "${record.owner}" permissions: ${readerLacks.join(', ')}`,
      '/endpoint',
    );
  }
  return record.requires ? [...record.requires] : [...owns].filter((p) => has.has(p)).sort();
}
