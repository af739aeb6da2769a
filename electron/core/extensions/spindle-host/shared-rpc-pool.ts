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
/** A published value, in characters of JSON (Lumiverse's provider results are capped the same). */
export const MAX_VALUE_CHARS = 1024 * 1024;
/** What one extension's published values hold in all, in characters of JSON: the host's memory is not its to fill. */
export const MAX_OWNER_CHARS = 8 * 1024 * 1024;
/** On-demand reads waiting on one owner at once: its worker's calls (tools, the chat's handlers) keep their room. */
export const MAX_READS_IN_FLIGHT = 16;
/** Codes an owner's failure may end a read with (the contract declares them); any other is its handler's error. */
const READ_FAILURES = new Set(['TOOL_TIMEOUT', 'TOOL_UNAVAILABLE', 'RESULT_TOO_LARGE', 'INVALID_RESULT', 'CANCELLED']);

type Record_ = { owner: string; endpoint: string; requires: readonly string[] | null } & ({ mode: 'sync'; value: unknown; chars: number } | { mode: 'handle' });

export class SharedRpcPool {
  private readonly endpoints = new Map<string, Record_>();
  /** On-demand reads in flight, by owner. */
  private readonly reading = new Map<string, number>();

  constructor(
    /** A running extension's worker; null when it is not running. */
    private readonly peer: (extensionId: string) => PoolPeer | null,
    private readonly changed: (extensionId: string) => void,
  ) {}

  /** What an extension owns now (its card lists them). */
  ownedBy(extensionId: string): string[] {
    return [...this.endpoints.values()].filter((r) => r.owner === extensionId).map((r) => `${r.endpoint} (${r.mode === 'sync' ? 'value' : 'on demand'})`);
  }

  /**
   * A permission of its was revoked: values it published under the default policy go, since they may hold what that
   * permission guarded and readers are now checked against less. Policy endpoints are checked against the owner's grants
   * at every read, and handlers run with its grants of the moment: those stay.
   */
  revoked(extensionId: string): void {
    let any = false;
    for (const [name, record] of this.endpoints) if (record.owner === extensionId && record.mode === 'sync' && record.requires === null) any = this.endpoints.delete(name);
    if (any) this.changed(extensionId);
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
      const others = [...this.endpoints.values()].filter((r) => r.owner === record.owner && r.endpoint !== record.endpoint);
      if (others.length >= MAX_ENDPOINTS) fail('QUOTA_EXCEEDED', `An extension owns at most ${MAX_ENDPOINTS} shared RPC endpoints.`, '/endpoint');
      if (record.mode === 'sync') {
        if (record.chars > MAX_VALUE_CHARS) fail('INPUT_TOO_LARGE', `A shared value is at most ${MAX_VALUE_CHARS} characters of JSON; this one is ${record.chars}.`, '/value');
        const held = others.reduce((n, r) => n + (r.mode === 'sync' ? r.chars : 0), record.chars);
        if (held > MAX_OWNER_CHARS) fail('QUOTA_EXCEEDED', `An extension's shared values hold at most ${MAX_OWNER_CHARS} characters of JSON in all.`, '/value');
      }
      const before = this.endpoints.get(record.endpoint);
      this.endpoints.set(record.endpoint, record);
      // A new value is not news for its card; a new endpoint, mode or policy is.
      if (!before || before.mode !== record.mode || JSON.stringify(before.requires) !== JSON.stringify(record.requires)) this.changed(record.owner);
      return null;
    };
    const requires = (policy: { requires?: string[] } | undefined) => (policy?.requires ? [...new Set(policy.requires.map((p) => p.trim()).filter(Boolean))].sort() : null);
    return {
      'rpcPool.sync': ({ endpoint, value, policy }, caller) =>
        put({ owner: caller.extensionId, endpoint: owned(caller.extensionId, endpoint), requires: requires(policy), mode: 'sync', value: value ?? null, chars: JSON.stringify(value ?? null).length }),
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
        // The reader's permissions as its own request carries them (asked now, whether or not it has finished starting).
        const effective = checkRead(name, caller.extensionId, (p) => caller.allowed(p as never), record, owner.granted);
        if (record.mode === 'sync') return record.value;
        const inFlight = this.reading.get(record.owner) ?? 0;
        if (inFlight >= MAX_READS_IN_FLIGHT) fail('RATE_LIMITED', `Shared RPC endpoint "${name}": ${MAX_READS_IN_FLIGHT} reads of ${record.owner} are already waiting; try again shortly.`);
        this.reading.set(record.owner, inFlight + 1);
        try {
          const context = { endpoint: name, requesterExtensionId: caller.extensionId, effectivePermissions: effective };
          const answer = await owner.call(name, context, READ_TIMEOUT_MS, call.signal);
          if (answer.ok) return answer.value ?? null;
          // Its worker gone (crashed, stopped) is the endpoint unavailable; any other code is its handler's failure.
          const code = answer.error.code.startsWith('WORKER_') ? 'TOOL_UNAVAILABLE' : READ_FAILURES.has(answer.error.code) ? answer.error.code : 'TOOL_ERROR';
          return fail(code, answer.error.message);
        } finally {
          const left = (this.reading.get(record.owner) ?? 1) - 1;
          if (left > 0) this.reading.set(record.owner, left);
          else this.reading.delete(record.owner);
        }
      },
    };
  }
}

/** Refuses a read the reader may not make; the permissions an on-demand handler runs with (as Lumiverse). */
function checkRead(endpoint: string, reader: string, readerHas: (permission: string) => boolean, record: Record_, ownerGranted: readonly string[]): string[] {
  const has = { has: readerHas };
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
