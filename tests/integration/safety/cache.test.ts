// Result caching (seed 002): canonical keys, members kept apart, TTL, LRU eviction, stats, never for writes or failures.
import { afterEach, describe, expect, it } from 'vitest';
import { patternApprovalPolicy } from '../../../electron/core/safety/approval-policy';
import type { ToolCacheStats } from '../../../shared/types/safety';
import type { CouncilMemberContext } from '../../../shared/types/spindle';
import type { ToolOutcome } from '../../../shared/types/tools';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { call, ManualClock, probe, register, safetyHost, type SafetyHost } from './helpers';

let host: SafetyHost;
afterEach(async () => {
  await host?.dispose();
  cleanupTempDirs();
});

const SEARCH = {
  name: 'search',
  mode: 'read',
  parameters: { type: 'object', properties: { q: { type: 'string' }, opts: { type: 'object' } } },
  cache: { ttl_ms: 1000, max_entries: 2 },
};

const member = (memberId: string): CouncilMemberContext => ({
  memberId,
  itemId: 'i',
  packId: 'p',
  packName: 'P',
  name: `Member ${memberId}`,
  role: '',
  chance: 100,
  avatarUrl: null,
  definition: '',
  personality: '',
  behavior: '',
  genderIdentity: 3,
});

const search = (args: Record<string, unknown>) => call<ToolOutcome>(host, 'tools.invoke', { qualifiedName: 'probe:search', args });
const stats = async () => (await call<ToolCacheStats[]>(host, 'tools.cacheStats', { qualifiedName: 'probe:search' }))[0];

describe('tool result cache', () => {
  it('the same arguments with reordered JSON keys are one key (a hit); different values are not', async () => {
    host = await safetyHost();
    let n = 0;
    const tool = probe(() => `result ${++n}`);
    register(host, SEARCH, tool);
    const first = await search({ q: 'lighthouse', opts: { limit: 5, lang: 'en' } });
    const second = await search({ opts: { lang: 'en', limit: 5 }, q: 'lighthouse' });
    expect(first).toMatchObject({ ok: true, content: 'result 1' });
    expect(first.cached).toBeUndefined();
    expect(second).toMatchObject({ ok: true, content: 'result 1', cached: true });
    expect(await search({ q: 'lighthouse', opts: { limit: 6, lang: 'en' } })).toMatchObject({ content: 'result 2' });
    expect(tool.calls).toHaveLength(2);
    expect(await stats()).toEqual({ qualifiedName: 'probe:search', ttlMs: 1000, maxEntries: 2, size: 2, hits: 1, misses: 2, hitRate: 1 / 3, evictions: 0, expirations: 0 });
  });

  it('a tool that receives the member (council calls) gets one key per member; a key collision across members is impossible', async () => {
    host = await safetyHost();
    const tool = probe((_args, request) => `for ${request.councilMember?.memberId ?? 'nobody'}`);
    register(host, SEARCH, tool);
    const as = (id: string) => host.safety.guard.invoke('probe:search', { q: 'x' }, { timeoutMs: 5000, councilMember: member(id), origin: 'council' });
    expect(await as('a')).toMatchObject({ content: 'for a' });
    expect(await as('b')).toMatchObject({ content: 'for b' });
    expect(await as('a')).toMatchObject({ content: 'for a', cached: true });
    expect(await as('b')).toMatchObject({ content: 'for b', cached: true });
    // A member-less call (by hand) is yet another key, and a member id smuggled into args is stripped.
    expect(await host.safety.guard.invoke('probe:search', { q: 'x', councilMember: member('a') }, { timeoutMs: 5000 })).toMatchObject({ content: 'for nobody' });
    expect(tool.calls).toHaveLength(3);
  });

  it('entries expire after ttl_ms; the least recently used entry is evicted past max_entries; clearCache empties', async () => {
    const clock = new ManualClock();
    host = await safetyHost({ clock });
    const tool = probe((args) => `r:${String(args.q)}`);
    register(host, SEARCH, tool);
    await search({ q: 'a' });
    await search({ q: 'b' });
    await search({ q: 'a' }); // hit: a becomes most recent
    await search({ q: 'c' }); // evicts b
    expect(await stats()).toMatchObject({ size: 2, hits: 1, misses: 3, evictions: 1 });
    expect(await search({ q: 'a' })).toMatchObject({ cached: true });
    expect(await search({ q: 'b' })).not.toHaveProperty('cached');
    clock.time += 1001;
    expect(await search({ q: 'a' })).not.toHaveProperty('cached');
    expect((await stats())!.expirations).toBe(1);
    expect(await call(host, 'tools.clearCache', { qualifiedName: 'probe:search' })).toEqual({ cleared: 2 });
    expect(await stats()).toMatchObject({ size: 0 });
    expect(await search({ q: 'a' })).not.toHaveProperty('cached');
  });

  it('write tools and failed calls are never cached; a changed definition drops the cache', async () => {
    host = await safetyHost({ policy: patternApprovalPolicy(['*']) });
    let fail = true;
    const flaky = probe(() => {
      if (fail) throw new Error('flaky');
      return 'fine';
    });
    register(host, SEARCH, flaky);
    expect(await search({ q: 'x' })).toMatchObject({ ok: false });
    fail = false;
    expect(await search({ q: 'x' })).toMatchObject({ ok: true, content: 'fine' });
    expect(await search({ q: 'x' })).toMatchObject({ cached: true });

    const writer = probe(() => 'written');
    register(host, { ...SEARCH, name: 'save', mode: 'write' }, writer);
    for (let i = 0; i < 3; i++) await call(host, 'tools.invoke', { qualifiedName: 'probe:save', args: { q: 'x' } });
    expect(writer.calls).toHaveLength(3);
    expect(await call(host, 'tools.cacheStats', { qualifiedName: 'probe:save' })).toEqual([]);

    register(host, { ...SEARCH, description: 'Search, now differently.' }, flaky);
    expect(await stats()).toBeUndefined();
    expect(await search({ q: 'x' })).not.toHaveProperty('cached');
  });
});
