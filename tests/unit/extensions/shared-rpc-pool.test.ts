// The shared RPC pool's rules, as Lumiverse's: owned names under the owner's prefix, a cap per owner, a policy the owner
// itself must meet, and a reader refused without the permissions it would borrow.
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS, SharedRpcPool, type PoolPeer } from '../../../electron/core/extensions/spindle-host/shared-rpc-pool';
import { isValidEndpoint, ownedEndpoint } from '../../../shared/spindle/rpc-pool-names';

const call = { signal: new AbortController().signal, emit: () => undefined } as never;

function pool(granted: Record<string, string[]>) {
  const calls: unknown[] = [];
  const peer = (id: string): PoolPeer | null =>
    granted[id] ? { granted: granted[id]!, call: async (endpoint, context) => (calls.push(context), { ok: true, value: { endpoint } }) } : null;
  const changed: string[] = [];
  const handlers = new SharedRpcPool(peer, (id) => changed.push(id)).handlers();
  const as = (extensionId: string) => ({ extensionId, allowed: () => true });
  return { handlers, as, calls, changed };
}

describe('shared RPC pool', () => {
  it('names: a bare channel goes under the owner, its own full name stays, another owner or a bad segment is refused', () => {
    expect(ownedEndpoint('weather', 'status.current')).toBe('weather.status.current');
    expect(ownedEndpoint('weather', 'weather.status')).toBe('weather.status');
    expect(ownedEndpoint('weather', 'other.status')).toBe('weather.other.status');
    for (const bad of ['', 'Status', 'x y', '-x', 'a.B']) expect(ownedEndpoint('weather', bad), bad).toBeNull();
    expect(isValidEndpoint('weather')).toBe(false);
    expect(isValidEndpoint(`weather.${'a'.repeat(300)}`)).toBe(false);
  });

  it('a policy the owner does not meet refuses every reader; a cap per owner; unregister by another extension does nothing', async () => {
    const { handlers, as } = pool({ owner: ['tools'], reader: ['tools', 'images'] });
    handlers['rpcPool.sync']({ endpoint: 'pics', value: 1, policy: { requires: ['images'] } }, as('owner'), call);
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.pics' }, as('reader'), call)).rejects.toMatchObject({ error: { code: 'PERMISSION_DENIED', message: expect.stringContaining('requires owner "owner" permissions: images') } });
    for (let i = 1; i < MAX_ENDPOINTS; i++) handlers['rpcPool.sync']({ endpoint: `e${i}`, value: i }, as('owner'), call);
    expect(() => handlers['rpcPool.sync']({ endpoint: 'one-more', value: 0 }, as('owner'), call)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'QUOTA_EXCEEDED' }) }));
    // Replacing an endpoint it has is not one more.
    expect(handlers['rpcPool.sync']({ endpoint: 'e1', value: 'again' }, as('owner'), call)).toBeNull();
    handlers['rpcPool.unregister']({ endpoint: 'owner.e1' }, as('reader'), call);
    expect(await handlers['rpcPool.read']({ endpoint: 'owner.e1' }, as('reader'), call)).toBe('again');
  });

  it('an on-demand handler hears the reader and the permissions delegated: the declared ones, else those both hold', async () => {
    const { handlers, as, calls } = pool({ owner: ['tools', 'chats', 'images'], reader: ['tools', 'chats', 'images', 'memories'] });
    handlers['rpcPool.handle']({ endpoint: 'live' }, as('owner'), call);
    handlers['rpcPool.handle']({ endpoint: 'narrow', policy: { requires: ['chats'] } }, as('owner'), call);
    await handlers['rpcPool.read']({ endpoint: 'owner.live' }, as('reader'), call);
    await handlers['rpcPool.read']({ endpoint: 'owner.narrow' }, as('reader'), call);
    expect(calls).toEqual([
      { endpoint: 'owner.live', requesterExtensionId: 'reader', effectivePermissions: ['chats', 'images', 'tools'] },
      { endpoint: 'owner.narrow', requesterExtensionId: 'reader', effectivePermissions: ['chats'] },
    ]);
  });
});
