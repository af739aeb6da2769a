// Seed 002 result caching: per-tool LRU with a TTL, successful read results only, with hit/miss/eviction counters.
import type { ToolCacheStats } from '../../../shared/types/safety';
import type { ToolOutcome } from '../../../shared/types/tools';
import type { Clock } from '../ports';

export interface CachePolicy {
  ttl_ms: number;
  max_entries: number;
}

interface Entry {
  outcome: Extract<ToolOutcome, { ok: true }>;
  expiresAt: number;
}

interface ToolCache {
  policy: CachePolicy;
  entries: Map<string, Entry>;
  hits: number;
  misses: number;
  evictions: number;
  expirations: number;
}

export class ToolResultCache {
  private readonly tools = new Map<string, ToolCache>();

  constructor(private readonly clock: Clock) {}

  private cacheFor(qualifiedName: string, policy: CachePolicy): ToolCache {
    let cache = this.tools.get(qualifiedName);
    if (!cache || cache.policy.ttl_ms !== policy.ttl_ms || cache.policy.max_entries !== policy.max_entries) {
      cache = { policy: { ...policy }, entries: new Map(), hits: 0, misses: 0, evictions: 0, expirations: 0 };
      this.tools.set(qualifiedName, cache);
    }
    return cache;
  }

  /** A hit refreshes the entry's LRU position; an expired entry counts as a miss and is dropped. */
  get(qualifiedName: string, policy: CachePolicy, key: string): Extract<ToolOutcome, { ok: true }> | undefined {
    const cache = this.cacheFor(qualifiedName, policy);
    const entry = cache.entries.get(key);
    if (entry && entry.expiresAt > this.clock.now()) {
      cache.entries.delete(key);
      cache.entries.set(key, entry);
      cache.hits++;
      return entry.outcome;
    }
    if (entry) {
      cache.entries.delete(key);
      cache.expirations++;
    }
    cache.misses++;
    return undefined;
  }

  set(qualifiedName: string, policy: CachePolicy, key: string, outcome: Extract<ToolOutcome, { ok: true }>): void {
    const cache = this.cacheFor(qualifiedName, policy);
    cache.entries.delete(key);
    cache.entries.set(key, { outcome, expiresAt: this.clock.now() + policy.ttl_ms });
    while (cache.entries.size > policy.max_entries) {
      cache.entries.delete(cache.entries.keys().next().value!);
      cache.evictions++;
    }
  }

  stats(qualifiedName?: string): ToolCacheStats[] {
    const out: ToolCacheStats[] = [];
    for (const [name, cache] of this.tools) {
      if (qualifiedName !== undefined && name !== qualifiedName) continue;
      const lookups = cache.hits + cache.misses;
      out.push({
        qualifiedName: name,
        ttlMs: cache.policy.ttl_ms,
        maxEntries: cache.policy.max_entries,
        size: cache.entries.size,
        hits: cache.hits,
        misses: cache.misses,
        hitRate: lookups === 0 ? 0 : cache.hits / lookups,
        evictions: cache.evictions,
        expirations: cache.expirations,
      });
    }
    return out.sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  }

  /** Empties the entries (counters stay); returns how many entries were dropped. */
  clear(qualifiedName?: string): number {
    let dropped = 0;
    for (const [name, cache] of this.tools) {
      if (qualifiedName !== undefined && name !== qualifiedName) continue;
      dropped += cache.entries.size;
      cache.entries.clear();
    }
    return dropped;
  }

  /** The tool changed or went away: its results and counters are forgotten. */
  forget(qualifiedName: string): void {
    this.tools.delete(qualifiedName);
  }
}
