// The Memory Cortex as extensions reach it (spindle.memories): a chat's memory graph, recall over its saved messages,
// vaults and links, and the person's cortex settings, answered in Lumiverse's shapes. Retrieval ranks the chat's
// messages by their words (memory-recall.ts), with the graph's entities named in the query or the memories as their
// context; the Workbench extracts no entities itself, so the graph holds what extensions put in it.
import { fail } from '../../../shared/errors';
import { pluck, write, type Db } from '../db/chat-db';
import type { Clock, Logger } from '../ports';
import { MemoryGraph, type MemoryEntity } from './memory-graph';
import { MemoryRecall, type RecalledMessage } from './memory-recall';
import { MemoryVaults } from './memory-vaults';
import { entityFinder, entitySnapshot, isNamed, relationEdge, vaultCortexData, type CortexMemory, type CortexResult } from './cortex-shapes';
import { TimedCache } from './timed-cache';

export interface CortexQuery {
  chatId: string;
  queryText?: string;
  entityFilter?: string[];
  timeRange?: { start?: number; end?: number };
  topK?: number;
  includeRelationships?: boolean;
  excludeMessageIds?: string[];
}

/** What the Workbench's cortex does: no extraction or scoring of its own, retrieval on. */
const DEFAULT_CONFIG = { enabled: true, entityTracking: false, entityExtractionMode: 'off', salienceScoring: false };
/** How long a query's result is read back by getCached (Lumiverse's warm cache: about five minutes). */
const CACHE_MS = 5 * 60 * 1000;
/** Long-term chat memory as Lumiverse sets it by default: 4 chunks, the query from the last 6 messages, the last 20 left out. */
export const CHAT_MEMORY = { topK: 4, queryMessages: 6, exclusionWindow: 20 };
/** The chunks listed (and copied into a vault) at most: the newest. */
export const MAX_CHUNKS = 1000;

const MAX_CONFIG_CHARS = 256 * 1024;
const HEADER = 'Earlier in this conversation (recalled, not the live history; for continuity only):\n\n';

export class MemoryCortex {
  readonly graph: MemoryGraph;
  readonly recall: MemoryRecall;
  readonly vaults: MemoryVaults;
  private readonly sql;
  private readonly committed: () => void;
  private readonly cached: TimedCache<CortexResult>;
  private readonly cachedLinked: TimedCache<{ vaults: unknown[]; interlinks: unknown[] }>;

  constructor(private readonly options: { db: Db; clock: Clock; committed?: () => void; log?: Logger }) {
    this.graph = new MemoryGraph(options.db, options.clock, options.committed);
    this.recall = new MemoryRecall(options.db);
    this.vaults = new MemoryVaults(options.db, options.clock, options.committed);
    this.cached = new TimedCache(options.clock, CACHE_MS);
    this.cachedLinked = new TimedCache(options.clock, CACHE_MS);
    this.committed = options.committed ?? (() => undefined);
    this.sql = {
      config: options.db.prepare('SELECT doc FROM memory_config WHERE id = 1').raw(true),
      putConfig: options.db.prepare('INSERT INTO memory_config (id, doc) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
    };
    this.sweep();
  }

  /**
   * Drops what chats deleted since the last start left (the handlers reach a chat's rows only while it is saved). It
   * waits for no other writer: busy, it leaves them for the next start (out of reach meanwhile) and the start goes on.
   */
  private sweep(): void {
    const { db } = this.options;
    const busy = pluck<number>(db, 'PRAGMA busy_timeout');
    try {
      db.exec('PRAGMA busy_timeout = 0');
      write(db, this.committed, () => {
        for (const table of ['memory_entities', 'memory_relations', 'memory_links']) db.exec(`DELETE FROM ${table} WHERE chat_id NOT IN (SELECT id FROM sessions)`);
      });
    } catch (err) {
      this.options.log?.warn(`memories: what deleted chats left was not swept (${(err as Error).message}); the next start tries again`);
    } finally {
      db.exec(`PRAGMA busy_timeout = ${busy}`);
    }
  }

  /** The person's settings over the Workbench's defaults (Lumiverse's advanced fields pass through as given). */
  getConfig(): Record<string, unknown> {
    const row = this.sql.config.get() as [string] | undefined;
    return { ...DEFAULT_CONFIG, ...(row ? (JSON.parse(row[0]) as Record<string, unknown>) : {}) };
  }

  /** Patches the settings: fields not named stay as they were. */
  putConfig(patch: Record<string, unknown>): Record<string, unknown> {
    const saved = { ...this.getConfig(), ...patch };
    const json = JSON.stringify(saved);
    if (json.length > MAX_CONFIG_CHARS) fail('INPUT_TOO_LARGE', `The cortex settings hold at most ${MAX_CONFIG_CHARS} characters.`, { path: '/patch' });
    write(this.options.db, this.committed, () => this.sql.putConfig.run(json));
    return saved;
  }

  private enabled(): boolean {
    return this.getConfig().enabled !== false;
  }

  /**
   * Lumiverse's cortex query: the best memories for the text (the newest, with no text), the entities they involve,
   * and those entities' relations. Kept for getCached unless `remember` is false (a linked chat's answer).
   */
  async query(q: CortexQuery, remember = true): Promise<CortexResult> {
    const started = performance.now();
    const topK = Math.max(1, Math.min(50, Math.floor(q.topK ?? 10)));
    const entities = this.graph.entities(q.chatId);
    const named = entityFinder(entities);
    const relations = q.includeRelationships === false ? [] : this.graph.relations(q.chatId);
    const wanted = q.entityFilter?.length ? entities.filter((e) => q.entityFilter!.some((f) => isNamed(f, e))) : null;
    let hits: RecalledMessage[] = [];
    if (this.enabled()) {
      const text = q.queryText?.trim() ?? '';
      const exclude = new Set(q.excludeMessageIds ?? []);
      // Asked for more than topK when filtering, which drops some after ranking.
      const pool = wanted || q.timeRange || exclude.size ? topK * 5 : topK;
      hits = text ? await this.recall.search(q.chatId, text, pool, { exclude }) : this.recall.recent(q.chatId, pool).reverse();
      hits = hits.filter((h) => !exclude.has(h.id) && inRange(h.createdAt / 1000, q.timeRange) && (!wanted || named(h.content).some((e) => wanted.includes(e))));
      hits = hits.slice(0, topK);
    }
    const namedIn = hits.map((h) => named(h.content));
    const involved = new Map<string, MemoryEntity>();
    for (const e of wanted ?? [...named(q.queryText ?? ''), ...namedIn.flat()]) involved.set(e.id, e);
    const byId = new Map(entities.map((e) => [e.id, e]));
    const memories: CortexMemory[] = hits.map((h, i) => {
      const seconds = Math.floor(h.createdAt / 1000);
      return {
        source: 'chunk',
        sourceId: h.id,
        content: h.content,
        finalScore: h.relevance,
        // Word relevance stands where Lumiverse puts vector similarity; no salience or feelings are scored here.
        components: { semantic: h.relevance, salience: 0, recency: 0, reinforcement: 0, emotional: 0, entity: involved.size ? namedIn[i]!.length / involved.size : 0 },
        emotionalTags: [],
        entityNames: namedIn[i]!.map((e) => e.name),
        messageRange: [h.index, h.index],
        timeRange: [seconds, seconds],
      };
    });
    const edges = relations.filter((r) => involved.has(r.sourceEntityId) || involved.has(r.targetEntityId));
    const result: CortexResult = {
      memories,
      entityContext: [...involved.values()].map((e) => entitySnapshot(e, edges, byId)),
      activeRelationships: edges.filter((r) => byId.has(r.sourceEntityId) && byId.has(r.targetEntityId)).map((r) => relationEdge(r, byId)),
      arcContext: null,
      stats: {
        candidatePoolSize: hits.length,
        vectorSearchResults: 0,
        entitiesMatched: involved.size,
        scoreFusionApplied: false,
        topScore: memories[0]?.finalScore ?? 0,
        retrievalTimeMs: Math.round((performance.now() - started) * 100) / 100,
      },
    };
    if (remember) this.cached.set(q.chatId, result);
    return result;
  }

  getCached(chatId: string): CortexResult | null {
    return this.cached.get(chatId);
  }

  invalidate(chatId: string): void {
    this.cached.delete(chatId);
  }

  /**
   * Long-term chat memory (the `{{memories}}` retrieval): the chat's last messages are the query, the recent ones are
   * left out, the best `topK` older messages by words; by recency when the words find none.
   */
  async chatMemory(chatId: string, topK = CHAT_MEMORY.topK) {
    const total = this.recall.count(chatId);
    const available = Math.max(0, total - CHAT_MEMORY.exclusionWindow);
    const base = { count: 0, settingsSource: 'global' as const, chunksAvailable: available, chunksPending: 0 };
    if (!this.enabled()) return { ...base, chunks: [], formatted: '', enabled: false, queryPreview: '', retrievalMode: 'disabled' as const };
    const query = this.recall.recent(chatId, CHAT_MEMORY.queryMessages).map((m) => m.content).join('\n');
    let hits = await this.recall.search(chatId, query, topK, { skipLast: CHAT_MEMORY.exclusionWindow });
    const byWords = hits.length > 0;
    if (!byWords) hits = this.recall.recent(chatId, Math.min(topK, available), CHAT_MEMORY.exclusionWindow);
    const chunks = hits.map((h) => ({ content: h.content, score: null, metadata: { messageId: h.id, role: h.role, startIndex: h.index, endIndex: h.index, createdAt: h.createdAt } }));
    return {
      ...base,
      chunks,
      count: chunks.length,
      formatted: chunks.length ? HEADER + chunks.map((c) => c.content).join('\n---\n') : '',
      enabled: true,
      queryPreview: query.slice(0, 200),
      // No vector distance here: a hit by words has none (Lumiverse's null score), and the mode is left unsaid.
      ...(byWords ? {} : { retrievalMode: chunks.length ? ('recency' as const) : ('empty' as const) }),
    };
  }

  /** The chat's chunks (a message each), the newest MAX_CHUNKS. */
  chunks(chatId: string) {
    const total = this.recall.count(chatId);
    const from = Math.max(0, total - MAX_CHUNKS);
    return this.recall.slice(chatId, from, MAX_CHUNKS).map((m) => chunkDto(chatId, m));
  }

  warm(chatId: string) {
    if (!this.enabled()) return { status: 'skipped' as const, reason: 'The memory cortex is switched off.' };
    return { status: 'complete' as const, rebuilt: false, vectorizationsQueued: 0, reason: `${this.recall.count(chatId)} messages indexed as they are saved; no embeddings are made here.` };
  }

  /** A vault of the chat as it is now: its graph and its newest chunks, each with the entities it names. */
  createVault(input: { chatId: string; name: string; description?: string }, chatName: string | null) {
    const entities = this.graph.entities(input.chatId, { activeOnly: false });
    const named = entityFinder(entities);
    const total = this.recall.count(input.chatId);
    const chunks = this.recall.slice(input.chatId, Math.max(0, total - MAX_CHUNKS), MAX_CHUNKS).map((m) => ({ id: m.id, content: m.content, createdAt: Math.floor(m.createdAt / 1000), entityNames: named(m.content).map((e) => e.name) }));
    return this.vaults.create({ ...input, chatName, entities, relations: this.graph.relations(input.chatId), chunks });
  }

  /**
   * What the chat's enabled links bring: each vault's entities and relations (and, with a query, its chunks that
   * share the most words with it), and each linked chat's own cortex answer.
   */
  async queryLinked(chatId: string, queryText: string | undefined, chatName: (id: string) => string | null) {
    const result = { vaults: [] as unknown[], interlinks: [] as unknown[] };
    for (const link of this.vaults.links(chatId, chatName).filter((l) => l.enabled)) {
      if (link.vaultId) {
        const doc = this.vaults.get(link.vaultId);
        if (doc) result.vaults.push(vaultCortexData(doc, queryText));
      } else if (link.targetChatId && link.targetChatExists) {
        result.interlinks.push({ targetChatId: link.targetChatId, targetChatName: link.targetChatName ?? '', result: await this.query({ chatId: link.targetChatId, queryText: queryText ?? '', topK: 5 }, false) });
      }
    }
    this.cachedLinked.set(chatId, result);
    return result;
  }

  getCachedLinked(chatId: string) {
    return this.cachedLinked.get(chatId);
  }

  invalidateLinked(chatId: string): void {
    this.cachedLinked.delete(chatId);
  }

  usage(chatId: string) {
    return { entityCount: this.graph.entities(chatId, { activeOnly: false }).length, relationCount: this.graph.relations(chatId).length, salienceRecordCount: 0, consolidationCount: 0 };
  }
}

export function chunkDto(chatId: string, m: RecalledMessage) {
  const seconds = Math.floor(m.createdAt / 1000);
  return {
    id: m.id,
    chatId,
    startMessageId: m.id,
    endMessageId: m.id,
    messageIds: [m.id],
    content: m.content,
    // About four characters a token, as a size to show, not a count for a model.
    tokenCount: Math.ceil(m.content.length / 4),
    messageCount: 1,
    vectorizedAt: null,
    vectorModel: null,
    retrievalCount: 0,
    lastRetrievedAt: null,
    createdAt: seconds,
    updatedAt: seconds,
  };
}

function inRange(seconds: number, range: CortexQuery['timeRange']): boolean {
  return !range || ((range.start === undefined || seconds >= range.start) && (range.end === undefined || seconds <= range.end));
}
