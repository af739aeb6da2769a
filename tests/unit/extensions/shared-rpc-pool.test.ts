// The shared RPC pool's rules, as Lumiverse's: owned names under the owner's prefix, a cap per owner, a policy the owner
// itself must meet, and a reader refused without the permissions it would borrow.
import { describe, expect, it } from 'vitest';
import { MAX_ENDPOINTS, MAX_OWNER_CHARS, MAX_READS_IN_FLIGHT, MAX_VALUE_CHARS, SharedRpcPool, type PoolPeer } from '../../../electron/core/extensions/spindle-host/shared-rpc-pool';
import type { HostError } from '../../../shared/errors';
import { isValidEndpoint, ownedEndpoint } from '../../../shared/spindle/rpc-pool-names';

const call = { signal: new AbortController().signal, emit: () => undefined } as never;

/** A pool over extensions granted `granted`; an on-demand owner answers with `answer` (its endpoint by default). */
function pool(granted: Record<string, string[]>, answer?: () => Promise<{ ok: true; value: unknown } | { ok: false; error: HostError }>) {
  const calls: unknown[] = [];
  const peer = (id: string): PoolPeer | null =>
    granted[id] ? { granted: granted[id]!, call: async (endpoint, context) => (calls.push(context), answer ? answer() : { ok: true, value: { endpoint } }) } : null;
  const changed: string[] = [];
  const handlers = new SharedRpcPool(peer, (id) => changed.push(id)).handlers();
  // The reader's permissions come with its request, as the host asks them of its entry.
  const as = (extensionId: string) => ({ extensionId, allowed: (permission: string) => (granted[extensionId] ?? []).includes(permission) });
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
    // Another extension's unregister names an endpoint under its own prefix: the owner's stays.
    handlers['rpcPool.unregister']({ endpoint: 'owner.e1' }, as('reader'), call);
    expect(await handlers['rpcPool.read']({ endpoint: 'owner.e1' }, as('reader'), call)).toBe('again');
  });

  it('caps a value and what one owner holds in all; a new value is not news for its card, a new endpoint is', () => {
    const { handlers, as, changed } = pool({ owner: [] });
    const big = (chars: number) => 'x'.repeat(chars - 2);
    expect(() => handlers['rpcPool.sync']({ endpoint: 'huge', value: big(MAX_VALUE_CHARS + 1) }, as('owner'), call)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'INPUT_TOO_LARGE', path: '/value' }) }));
    const per = MAX_VALUE_CHARS;
    for (let i = 0; i < MAX_OWNER_CHARS / per; i++) handlers['rpcPool.sync']({ endpoint: `part${i}`, value: big(per) }, as('owner'), call);
    expect(() => handlers['rpcPool.sync']({ endpoint: 'one-more', value: 1 }, as('owner'), call)).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'QUOTA_EXCEEDED' }) }));
    // Replacing a value with a smaller one is always room.
    handlers['rpcPool.sync']({ endpoint: 'part0', value: 'small' }, as('owner'), call);
    const told = changed.length;
    handlers['rpcPool.sync']({ endpoint: 'part0', value: 'smaller' }, as('owner'), call);
    expect(changed.length).toBe(told);
    handlers['rpcPool.sync']({ endpoint: 'part0', value: 'smaller', policy: { requires: [] } }, as('owner'), call);
    expect(changed.length).toBe(told + 1);
  });

  it('a reader without what the owner holds is refused (its own grants, asked with its request); its worker gone is TOOL_UNAVAILABLE; a handler code the contract lacks is TOOL_ERROR', async () => {
    let answer: { ok: false; error: HostError } = { ok: false, error: { code: 'WORKER_CRASHED', message: 'It crashed.' } };
    const { handlers, as } = pool({ owner: ['chats'], reader: [], friend: ['chats'] }, async () => answer);
    handlers['rpcPool.handle']({ endpoint: 'live' }, as('owner'), call);
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.live' }, as('reader'), call)).rejects.toMatchObject({ error: { code: 'PERMISSION_DENIED' } });
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.live' }, as('friend'), call)).rejects.toMatchObject({ error: { code: 'TOOL_UNAVAILABLE', message: 'It crashed.' } });
    answer = { ok: false, error: { code: 'LLM_TIMEOUT', message: 'Its own call timed out.' } };
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.live' }, as('friend'), call)).rejects.toMatchObject({ error: { code: 'TOOL_ERROR', message: 'Its own call timed out.' } });
    answer = { ok: false, error: { code: 'TOOL_TIMEOUT', message: 'Too slow.' } };
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.live' }, as('friend'), call)).rejects.toMatchObject({ error: { code: 'TOOL_TIMEOUT' } });
  });

  it('at most a few on-demand reads wait on one owner; the next is RATE_LIMITED, and room comes back as they end', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { handlers, as } = pool({ owner: [], reader: [] }, async () => (await gate, { ok: true, value: 1 }));
    handlers['rpcPool.handle']({ endpoint: 'slow', policy: { requires: [] } }, as('owner'), call);
    const waiting = Array.from({ length: MAX_READS_IN_FLIGHT }, () => handlers['rpcPool.read']({ endpoint: 'owner.slow' }, as('reader'), call));
    await expect(handlers['rpcPool.read']({ endpoint: 'owner.slow' }, as('reader'), call)).rejects.toMatchObject({ error: { code: 'RATE_LIMITED' } });
    release();
    expect(await Promise.all(waiting)).toEqual(Array(MAX_READS_IN_FLIGHT).fill(1));
    expect(await handlers['rpcPool.read']({ endpoint: 'owner.slow' }, as('reader'), call)).toBe(1);
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
