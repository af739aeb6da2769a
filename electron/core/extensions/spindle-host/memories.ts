// spindle.memories (permission `memories`) and spindle.chats.getMemories (`chats`), answered by the Workbench's
// memory cortex (electron/core/memory) in Lumiverse's shapes. Every chat-scoped call names a chat the Workbench has,
// and an entity, relation or link is reached only through its chat (Lumiverse's ownership check, here one person's).
import type { MemoryCortex } from '../../memory/memory-cortex';
import { ENTITY_TYPES, type EntityStatus, type EntityType } from '../../memory/memory-graph';
import { RELATION_TYPES, type RelationType } from '../../memory/memory-relations';
import type { ChatReads } from './chat-data';
import { fail, type HandlersOf } from './handlers';

const known = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);
/** A feeling's name, as a valence key (the schema cannot bound a record's keys). */
const FEELING = /^(?=.*[\p{L}\p{N}])[\p{L}\p{M}\p{N}_ '-]{1,64}$/u;

type MemoryHandlers = HandlersOf<'memories'> & Pick<HandlersOf<'chats'>, 'chats.getMemories'>;

export function memoryHandlers(cortexOf: () => MemoryCortex | null, reads: () => ChatReads | null): MemoryHandlers {
  const cortex = () => cortexOf() ?? fail('UNSUPPORTED_HERE', 'The memory cortex is not open yet.');
  /** A saved chat's name; null for any other (a council run's chat from elsewhere is no link's end). */
  const chatName = (id: string) => (reads()?.saved(id) ? (reads()?.head(id)?.name ?? null) : null);
  /** A saved chat (Lumiverse's "Chat not found"; a council run's chat from elsewhere keeps no memory). */
  const chat = (id: string, path = '/chatId') => {
    if (!reads()?.saved(id)) fail('NOT_FOUND', 'Chat not found', path);
    return id;
  };
  /** The entity, in a chat the Workbench still has. */
  const entity = (id: string) => {
    const found = cortex().graph.entity(id) ?? fail('NOT_FOUND', 'Entity not found', '/entityId');
    if (!reads()?.saved(found.chatId)) fail('NOT_FOUND', 'Entity not owned by caller', '/entityId');
    return found;
  };
  const vault = (id: string) => cortex().vaults.get(id) ?? fail('NOT_FOUND', 'Vault not found', '/vaultId');
  const chatMemory = ({ chatId, options }: { chatId: string; options?: { topK?: number } }) =>
    cortex().chatMemory(chat(chatId), options?.topK && options.topK > 0 ? Math.min(50, Math.floor(options.topK)) : undefined);
  return {
    'memories.cortex.getConfig': () => cortex().getConfig(),
    'memories.cortex.putConfig': ({ patch }) => cortex().putConfig(patch),
    'memories.cortex.query': ({ query }) => cortex().query({ ...query, chatId: chat(query.chatId, '/query/chatId') }),
    'memories.cortex.getCached': ({ chatId }) => cortex().getCached(chat(chatId)),
    'memories.cortex.queryLinked': ({ chatId, options }) => cortex().queryLinked(chat(chatId), options?.queryText, chatName),
    'memories.cortex.getCachedLinked': ({ chatId }) => cortex().getCachedLinked(chat(chatId)),
    'memories.cortex.invalidateCache': ({ chatId }) => (cortex().invalidate(chat(chatId)), null),
    'memories.cortex.invalidateLinkedCache': ({ chatId }) => (cortex().invalidateLinked(chat(chatId)), null),
    'memories.entities.list': ({ chatId, options }) => cortex().graph.entities(chat(chatId), options ?? {}),
    'memories.entities.get': ({ entityId }) => {
      const found = cortex().graph.entity(entityId);
      return found && reads()?.saved(found.chatId) ? found : null;
    },
    'memories.entities.findByName': ({ chatId, name }) => cortex().graph.findByName(chat(chatId), name),
    'memories.entities.upsert': ({ chatId, entity: input, options }) =>
      cortex().graph.upsert(chat(chatId), { ...input, type: known<EntityType>(ENTITY_TYPES, input.type) ? input.type : 'concept' }, options ?? {}),
    'memories.entities.updateStatus': ({ entityId, patch }) => cortex().graph.updateStatus(entity(entityId).id, patch.status as EntityStatus, patch.statusChangedAt),
    'memories.entities.addFacts': ({ entityId, facts }) => cortex().graph.addFacts(entity(entityId).id, facts),
    'memories.entities.getFacts': ({ entityId }) => cortex().graph.facts(entity(entityId).id) ?? [],
    'memories.entities.updateEmotionalValence': ({ entityId, valence }) => {
      const bad = Object.keys(valence).find((tag) => !FEELING.test(tag));
      if (bad !== undefined) fail('INVALID_INPUT', `A feeling is named by 1 to 64 letters, digits, spaces, apostrophes, hyphens or underscores: ${JSON.stringify(bad.slice(0, 80))}.`, '/valence');
      return cortex().graph.updateEmotionalValence(entity(entityId).id, valence);
    },
    'memories.relations.list': ({ chatId }) => cortex().graph.relations(chat(chatId)),
    'memories.relations.listAll': ({ chatId }) => cortex().graph.relations(chat(chatId), false),
    'memories.relations.forEntity': ({ chatId, entityId }) => cortex().graph.relations(chat(chatId)).filter((r) => r.sourceEntityId === entityId || r.targetEntityId === entityId),
    'memories.relations.forEntities': ({ chatId, entityIds, options }) => {
      const ids = new Set(entityIds);
      const found = cortex().graph.relations(chat(chatId)).filter((r) => ids.has(r.sourceEntityId) || ids.has(r.targetEntityId));
      return options?.limit && options.limit > 0 ? found.slice(0, Math.floor(options.limit)) : found;
    },
    'memories.relations.upsert': ({ chatId, relation, options }) => {
      const named = known<RelationType>(RELATION_TYPES, relation.type);
      // A kind Lumiverse does not name is a custom relation labelled with it.
      const input = { ...relation, type: named ? (relation.type as RelationType) : ('custom' as const), label: relation.label || (named ? '' : relation.type) };
      return cortex().graph.upsertRelation(chat(chatId), input, options?.chunkId ?? null);
    },
    'memories.consolidations.list': ({ chatId }) => (chat(chatId), []),
    'memories.consolidations.latestArc': ({ chatId }) => (chat(chatId), null),
    'memories.consolidations.run': ({ chatId }) => (chat(chatId), null),
    'memories.salience.list': ({ chatId }) => (chat(chatId), []),
    'memories.vaults.list': () => cortex().vaults.list(),
    'memories.vaults.get': ({ vaultId }) => {
      const doc = cortex().vaults.get(vaultId);
      return doc && { vault: doc.vault, entities: doc.entities, relations: doc.relations };
    },
    'memories.vaults.getChunks': ({ vaultId }) => vault(vaultId).chunks,
    'memories.vaults.create': ({ input }) => cortex().createVault({ ...input, chatId: chat(input.chatId, '/input/chatId') }, chatName(input.chatId)),
    'memories.vaults.rename': ({ vaultId, name }) => cortex().vaults.rename(vaultId, name),
    'memories.vaults.delete': ({ vaultId }) => cortex().vaults.delete(vaultId),
    // Its chunks are a copy already, with no embeddings to make again.
    'memories.vaults.reindex': ({ vaultId }) => ({ mode: 'copy', chunkCount: vault(vaultId).chunks.length }),
    'memories.links.list': ({ chatId }) => cortex().vaults.links(chat(chatId), chatName),
    'memories.links.attach': ({ input }) => cortex().vaults.attach({ ...input, chatId: chat(input.chatId, '/input/chatId') }, chatName),
    'memories.links.remove': ({ chatId, linkId }) => cortex().vaults.remove(chat(chatId), linkId),
    'memories.links.toggle': ({ chatId, linkId, enabled }) => cortex().vaults.toggle(chat(chatId), linkId, enabled),
    'memories.chatMemory.listChunks': ({ chatId }) => cortex().chunks(chat(chatId)),
    'memories.chatMemory.get': chatMemory,
    'memories.chatMemory.warm': ({ chatId }) => cortex().warm(chat(chatId)),
    // Nothing is kept between calls: each get reads the index as it is.
    'memories.chatMemory.invalidate': ({ chatId }) => (chat(chatId), null),
    'chats.getMemories': chatMemory,
    'memories.stats.usage': ({ chatId }) => cortex().usage(chat(chatId)),
    'memories.stats.ingestionStatus': ({ chatId }) => (chat(chatId), null),
    'memories.stats.ingestionTelemetry': ({ chatId }) => (chat(chatId), { samples: 0, last: null, averages: { fontMs: 0, heuristicMs: 0, sidecarMs: 0, graphMs: 0, dbMs: 0, totalMs: 0 } }),
  };
}
