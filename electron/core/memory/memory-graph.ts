// A chat's memory graph as Lumiverse's Memory Cortex keeps it (spindle.memories.entities and .relations): the
// people, places and things an extension names, matched by name or alias in any case, with their facts, status and
// feelings, and the relations between them, reinforced each time they are seen again. A row each in the chats'
// database, in Lumiverse's DTO shapes; they go when their chat is deleted.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';
import { relationUpserted, type MemoryRelation, type RelationInput } from './memory-relations';

export const ENTITY_TYPES = ['character', 'location', 'item', 'faction', 'concept', 'event'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export type EntityStatus = 'active' | 'inactive' | 'deceased' | 'destroyed' | 'unknown';

/** Lumiverse's MemoryEntityDTO. */
export interface MemoryEntity {
  id: string;
  chatId: string;
  name: string;
  entityType: EntityType;
  aliases: string[];
  description: string;
  firstSeenChunkId: string | null;
  lastSeenChunkId: string | null;
  firstSeenAt: number | null;
  lastSeenAt: number | null;
  mentionCount: number;
  salienceAvg: number;
  status: EntityStatus;
  statusChangedAt: number | null;
  facts: string[];
  emotionalValence: Record<string, number>;
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  factExtractionStatus: 'never' | 'attempted_empty' | 'ok';
  factExtractionLastAttempt: number | null;
  salienceBreakdown: { mentionComponent: number; arcComponent: number; graphComponent: number; total: number };
  lastMentionTimestamp: number | null;
  recentMentionCount: number;
  confidence: 'confirmed' | 'provisional';
  userEditedAt: number | null;
}

export interface EntityInput {
  name: string;
  type: EntityType;
  aliases?: string[];
  provisional?: boolean;
  markUserEdited?: boolean;
}

/** Lumiverse keeps the 30 facts that matter most; untagged facts weigh 5 ("[i:8] …" weighs 8). */
const MAX_FACTS = 30;
export const MEMORY_LIMITS = { entitiesPerChat: 2000, relationsPerChat: 5000, aliasesPerEntity: 50, feelingsPerEntity: 64 };
const importance = (fact: string) => Number(/^\[i:(\d+)\]\s*/.exec(fact)?.[1] ?? 5);
/** A fact as read: without its importance and branch tags. */
export const plainFact = (fact: string) => fact.replace(/^\[i:\d+\]\s*/, '').replace(/^\[branch:[^\]]+\]\s*/, '');
/** Two names are one in any case, accents counting (as Lumiverse's NOCASE lookup). */
export const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

export class MemoryGraph extends DbStore {
  private readonly sql;

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text).raw(true);
    this.sql = {
      entities: p('SELECT doc FROM memory_entities WHERE chat_id = ?'),
      entity: p('SELECT doc FROM memory_entities WHERE id = ?'),
      entityCount: p('SELECT COUNT(*) FROM memory_entities WHERE chat_id = ?'),
      relationCount: p('SELECT COUNT(*) FROM memory_relations WHERE chat_id = ?'),
      putEntity: db.prepare('INSERT INTO memory_entities (id, chat_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      relations: p('SELECT doc FROM memory_relations WHERE chat_id = ?'),
      // The live edge of this kind between these two (one per kind and direction), found without reading the others.
      edge: p(
        `SELECT doc FROM memory_relations WHERE chat_id = ? AND json_extract(doc, '$.sourceEntityId') = ? AND json_extract(doc, '$.targetEntityId') = ?
           AND json_extract(doc, '$.relationType') = ? AND json_extract(doc, '$.supersededBy') IS NULL AND json_extract(doc, '$.mergedInto') IS NULL`,
      ),
      putRelation: db.prepare('INSERT INTO memory_relations (id, chat_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
    };
  }

  /** The chat's entities, the most mentioned first (Lumiverse's order), active ones only unless asked. */
  entities(chatId: string, options: { activeOnly?: boolean; limit?: number } = {}): MemoryEntity[] {
    const all = (this.sql.entities.all(chatId) as Array<[string]>).map(([doc]) => JSON.parse(doc) as MemoryEntity);
    const shown = options.activeOnly === false ? all : all.filter((e) => e.status === 'active');
    shown.sort((a, b) => b.mentionCount - a.mentionCount || b.salienceAvg - a.salienceAvg || a.createdAt - b.createdAt);
    return options.limit && options.limit > 0 ? shown.slice(0, Math.floor(options.limit)) : shown;
  }

  entity(id: string): MemoryEntity | null {
    const row = this.sql.entity.get(id) as [string] | undefined;
    return row ? (JSON.parse(row[0]) as MemoryEntity) : null;
  }

  /** By name, then by alias, in any case (Lumiverse's findEntityByName). */
  findByName(chatId: string, name: string): MemoryEntity | null {
    const all = this.entities(chatId, { activeOnly: false });
    return all.find((e) => sameName(e.name, name)) ?? all.find((e) => e.aliases.some((a) => sameName(a, name))) ?? null;
  }

  /** A mention: a known entity (by name or alias) is seen again and learns the new aliases; an unknown one is added. */
  upsert(chatId: string, input: EntityInput, seen: { chunkId?: string | null; createdAt?: number } = {}): MemoryEntity {
    const now = this.seconds();
    const at = seen.createdAt && seen.createdAt > 0 ? seen.createdAt : now;
    const chunk = seen.chunkId ?? '';
    // Each alias once in any case, the first spelling kept, never the name itself; the first 50.
    const aliases = (list: string[], name: string) =>
      list
        .map((a) => a.trim())
        .filter((a, i, all) => a && !sameName(a, name) && all.findIndex((b) => sameName(a, b)) === i)
        .slice(0, MEMORY_LIMITS.aliasesPerEntity);
    return this.write(() => {
      const existing = this.findByName(chatId, input.name);
      let entity: MemoryEntity;
      if (existing) {
        // A curated row keeps its name, type and aliases; its counters still follow what is seen.
        const curated = existing.userEditedAt !== null;
        entity = {
          ...existing,
          ...(curated ? {} : { aliases: aliases([...existing.aliases, ...(input.aliases ?? []), ...(sameName(input.name, existing.name) ? [] : [input.name])], existing.name) }),
          ...(curated || input.provisional ? {} : { confidence: 'confirmed' as const }),
          lastSeenChunkId: chunk,
          lastSeenAt: at,
          lastMentionTimestamp: at,
          mentionCount: existing.mentionCount + 1,
          recentMentionCount: existing.recentMentionCount + 1,
          updatedAt: now,
        };
      } else {
        if ((this.sql.entityCount.get(chatId) as [number])[0] >= MEMORY_LIMITS.entitiesPerChat) {
          fail('QUOTA_EXCEEDED', `A chat's memory keeps at most ${MEMORY_LIMITS.entitiesPerChat} entities.`);
        }
        entity = {
          id: randomUUID(),
          chatId,
          name: input.name.trim(),
          entityType: input.type,
          aliases: aliases(input.aliases ?? [], input.name),
          description: '',
          firstSeenChunkId: chunk,
          lastSeenChunkId: chunk,
          firstSeenAt: at,
          lastSeenAt: at,
          mentionCount: 1,
          salienceAvg: 0,
          status: 'active',
          statusChangedAt: null,
          facts: [],
          emotionalValence: {},
          metadata: {},
          createdAt: now,
          updatedAt: now,
          factExtractionStatus: 'never',
          factExtractionLastAttempt: null,
          salienceBreakdown: { mentionComponent: 0, arcComponent: 0, graphComponent: 0, total: 0 },
          lastMentionTimestamp: at,
          recentMentionCount: 1,
          confidence: input.provisional ? 'provisional' : 'confirmed',
          userEditedAt: null,
        };
      }
      if (input.markUserEdited) entity.userEditedAt = now;
      this.put(entity);
      return entity;
    });
  }

  updateStatus(id: string, status: EntityStatus, changedAt?: number): MemoryEntity {
    return this.change(id, (e) => ({ ...e, status, statusChangedAt: changedAt ?? this.seconds() }));
  }

  /** New facts, each once in any case; past 30, the least important (then the oldest) go. */
  addFacts(id: string, facts: string[]): MemoryEntity {
    return this.change(id, (e) => {
      const known = new Set(e.facts.map((f) => plainFact(f).toLowerCase()));
      const merged = [...e.facts];
      for (const fact of facts.map((f) => f.trim()).filter(Boolean)) {
        const key = plainFact(fact).toLowerCase();
        if (known.has(key)) continue;
        known.add(key);
        merged.push(fact);
      }
      const kept =
        merged.length > MAX_FACTS
          ? merged
              .map((fact, i) => ({ fact, i }))
              .sort((a, b) => importance(b.fact) - importance(a.fact) || b.i - a.i)
              .slice(0, MAX_FACTS)
              .sort((a, b) => a.i - b.i)
              .map((x) => x.fact)
          : merged;
      return { ...e, facts: kept, ...(kept.length > e.facts.length ? { factExtractionStatus: 'ok' as const } : {}) };
    });
  }

  /** Facts as read: without their importance and branch tags. */
  facts(id: string): string[] | null {
    return this.entity(id)?.facts.map(plainFact) ?? null;
  }

  /** A running average per feeling over the entity's mentions (Lumiverse's). */
  updateEmotionalValence(id: string, valence: Record<string, number>): MemoryEntity {
    return this.change(id, (e) => {
      const next = { ...e.emotionalValence };
      const count = e.mentionCount || 1;
      for (const [tag, value] of Object.entries(valence)) {
        // A new feeling past the cap is not kept; the ones it has go on averaging.
        if (!Number.isFinite(value) || (!(tag in next) && Object.keys(next).length >= MEMORY_LIMITS.feelingsPerEntity)) continue;
        const previous = next[tag] ?? 0;
        next[tag] = previous + (value - previous) / count;
      }
      return { ...e, emotionalValence: next };
    });
  }

  /** Every relation of the chat; `activeOnly` leaves out those superseded or merged into another. */
  relations(chatId: string, activeOnly = true): MemoryRelation[] {
    const all = (this.sql.relations.all(chatId) as Array<[string]>).map(([doc]) => JSON.parse(doc) as MemoryRelation);
    const shown = activeOnly ? all.filter((r) => !r.supersededBy && !r.mergedInto) : all;
    return shown.sort((a, b) => b.strength - a.strength || a.createdAt - b.createdAt);
  }

  /**
   * An edge between two entities named as they are known (name or alias): reinforced when the same kind of edge
   * joins them already, else added. Null when either end is not in the graph, as Lumiverse drops it.
   */
  upsertRelation(chatId: string, input: RelationInput, chunkId: string | null = null): MemoryRelation | null {
    return this.write(() => {
      const source = this.findByName(chatId, input.source);
      const target = this.findByName(chatId, input.target);
      if (!source || !target) return null;
      const row = this.sql.edge.get(chatId, source.id, target.id, input.type) as [string] | undefined;
      const existing = row ? (JSON.parse(row[0]) as MemoryRelation) : undefined;
      if (!existing && (this.sql.relationCount.get(chatId) as [number])[0] >= MEMORY_LIMITS.relationsPerChat) {
        fail('QUOTA_EXCEEDED', `A chat's memory keeps at most ${MEMORY_LIMITS.relationsPerChat} relations.`);
      }
      const relation = relationUpserted(existing ?? null, { chatId, sourceId: source.id, targetId: target.id, input, chunkId, now: this.seconds() });
      this.sql.putRelation.run(relation.id, chatId, JSON.stringify(relation));
      return relation;
    });
  }

  private change(id: string, edit: (entity: MemoryEntity) => MemoryEntity): MemoryEntity {
    return this.write(() => {
      const entity = this.entity(id);
      if (!entity) fail('NOT_FOUND', 'Entity not found', { path: '/entityId' });
      const next = { ...edit(entity), updatedAt: this.seconds() };
      this.put(next);
      return next;
    });
  }

  private put(entity: MemoryEntity): void {
    this.sql.putEntity.run(entity.id, entity.chatId, JSON.stringify(entity));
  }
}
