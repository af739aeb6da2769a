// The Memory Cortex's answers in Lumiverse's shapes (CortexResultDTO and the snapshots in it), and how an entity is
// recognised in a text: its name or an alias as a whole word, in any case.
import { plainFact, sameName, type MemoryEntity } from './memory-graph';
import type { MemoryRelation } from './memory-relations';
import { fold, queryTerms, wordPattern } from './memory-recall';
import type { VaultDoc } from './memory-vaults';

export interface CortexMemory {
  source: 'chunk' | 'consolidation';
  sourceId: string;
  content: string;
  finalScore: number;
  components: { semantic: number; salience: number; recency: number; reinforcement: number; emotional: number; entity: number };
  emotionalTags: string[];
  entityNames: string[];
  messageRange: [number, number];
  timeRange: [number, number];
}

export interface RelationEdge {
  sourceName: string;
  targetName: string;
  type: string;
  label: string | null;
  strength: number;
  sentiment: number;
}

export interface CortexResult {
  memories: CortexMemory[];
  entityContext: ReturnType<typeof entitySnapshot>[];
  activeRelationships: RelationEdge[];
  arcContext: string | null;
  stats: { candidatePoolSize: number; vectorSearchResults: number; entitiesMatched: number; scoreFusionApplied: boolean; topScore: number; retrievalTimeMs: number };
}

/**
 * Which entities a text names: each entity's name or an alias as whole words, in any case and accents, all found in
 * one pass over the text (a chat's graph may hold thousands of names).
 */
export function entityFinder(entities: readonly MemoryEntity[]): (text: string) => MemoryEntity[] {
  const byName = new Map<string, MemoryEntity[]>();
  for (const e of entities) {
    for (const name of [e.name, ...e.aliases]) {
      const key = fold(name.trim());
      if (!key) continue;
      const named = byName.get(key) ?? [];
      if (!named.includes(e)) named.push(e);
      byName.set(key, named);
    }
  }
  if (!byName.size) return () => [];
  const pattern = wordPattern([...byName.keys()]);
  return (text) => {
    const found = new Set<MemoryEntity>();
    for (const match of fold(text).matchAll(pattern)) for (const e of byName.get(match[0]) ?? []) found.add(e);
    return [...found];
  };
}

/** Whether `query` (an entity filter's item) names the entity: its id, or its name or an alias as findByName matches them. */
export const isNamed = (query: string, e: MemoryEntity) => query === e.id || [e.name, ...e.aliases].some((n) => sameName(n.trim(), query.trim()));

export function relationEdge(r: MemoryRelation, byId: ReadonlyMap<string, MemoryEntity>): RelationEdge {
  return { sourceName: byId.get(r.sourceEntityId)?.name ?? '', targetName: byId.get(r.targetEntityId)?.name ?? '', type: r.relationType, label: r.relationLabel, strength: r.strength, sentiment: r.sentiment };
}

/** Lumiverse's EntitySnapshotDTO: the entity, its first facts and its relations to others. */
export function entitySnapshot(e: MemoryEntity, relations: readonly MemoryRelation[], byId: ReadonlyMap<string, MemoryEntity>) {
  return {
    id: e.id,
    name: e.name,
    type: e.entityType,
    status: e.status,
    description: e.description,
    lastSeenAt: e.lastSeenAt,
    mentionCount: e.mentionCount,
    topFacts: e.facts.slice(0, 5).map(plainFact),
    emotionalProfile: { ...e.emotionalValence },
    relationships: relations
      .filter((r) => r.sourceEntityId === e.id && byId.has(r.targetEntityId))
      .map((r) => ({ targetName: byId.get(r.targetEntityId)!.name, type: r.relationType, label: r.relationLabel, strength: r.strength, sentiment: r.sentiment })),
  };
}

/** Lumiverse's VaultCortexDataDTO: a vault's graph as snapshots, and its chunks ranked by the query's words. */
export function vaultCortexData(doc: VaultDoc, queryText: string | undefined) {
  const terms = queryText ? queryTerms(queryText) : [];
  const pattern = terms.length ? wordPattern(terms) : null;
  // A chunk's relevance: how many of the query's words it holds (a vault's chunks are a copy, read whole).
  const scored = pattern
    ? doc.chunks
        .map((c) => ({ c, hits: new Set(Array.from(fold(c.content).matchAll(pattern), (m) => m[0])).size }))
        .filter((x) => x.hits > 0)
        .sort((a, b) => b.hits - a.hits)
        .slice(0, 5)
    : [];
  const top = scored[0]?.hits ?? 1;
  const edge = (r: VaultDoc['relations'][number]): RelationEdge => ({ sourceName: r.sourceEntityName, targetName: r.targetEntityName, type: r.relationType, label: r.relationLabel, strength: r.strength, sentiment: r.sentiment });
  return {
    vaultId: doc.vault.id,
    vaultName: doc.vault.name,
    ...(doc.vault.sourceChatId ? { sourceChatId: doc.vault.sourceChatId } : {}),
    entities: doc.entities.map((e) => ({
      id: e.id,
      name: e.name,
      type: e.entityType,
      status: e.status,
      description: e.description,
      lastSeenAt: null,
      mentionCount: 0,
      topFacts: e.facts.slice(0, 5).map(plainFact),
      emotionalProfile: { ...e.emotionalValence },
      relationships: doc.relations.filter((r) => r.sourceEntityName === e.name).map((r) => ({ targetName: r.targetEntityName, type: r.relationType, label: r.relationLabel, strength: r.strength, sentiment: r.sentiment })),
    })),
    relations: doc.relations.map(edge),
    ...(queryText
      ? {
          memories: scored.map(({ c, hits }) => ({
            source: 'chunk',
            sourceId: c.sourceChunkId,
            content: c.content,
            finalScore: hits / top,
            components: { semantic: hits / top, salience: 0, recency: 0, reinforcement: 0, emotional: 0, entity: 0 },
            emotionalTags: [],
            entityNames: c.entityNames,
            messageRange: [0, 0],
            timeRange: [c.sourceCreatedAt, c.sourceCreatedAt],
          })),
        }
      : {}),
    arcContext: null,
  };
}
