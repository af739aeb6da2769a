// The spindle.memories requests: Lumiverse's Memory Cortex and long-term chat memory over the Workbench's chats, in
// its DTO shapes (lumiverse-spindle-types 0.6.20, memories.ts), with the `memories` permission. Part of the one
// request table (requests.ts). A chat-scoped call names a chat the Workbench has, or is NOT_FOUND.
import { Type, type TProperties } from '@sinclair/typebox';
import { endpoint } from '../rpc/endpoint';
import { Any, Dto, Id, Opt, Options, OrNull, PageOptions, positional } from './request-schema';

const ChatId = Id(128);
const EntityId = Id(128);
/** A name with something in it besides spaces. */
const Name = Type.String({ minLength: 1, maxLength: 256, pattern: '\\S' });
/** Lumiverse checks only that a type is a string; an unknown one is kept as a concept (the host maps it). */
const Kind = Type.String({ minLength: 1, maxLength: 64 });
const Entity = Dto({ id: Type.String(), chatId: Type.String(), name: Type.String(), entityType: Type.String(), aliases: Type.Array(Type.String()), facts: Type.Array(Type.String()) });
const Relation = Dto({ id: Type.String(), sourceEntityId: Type.String(), targetEntityId: Type.String(), relationType: Type.String() });
const CortexResult = Dto({ memories: Type.Array(Any), entityContext: Type.Array(Any), activeRelationships: Type.Array(Any), stats: Type.Object({}) });
const Linked = Dto({ vaults: Type.Array(Any), interlinks: Type.Array(Any) });
const Vault = Dto({ id: Type.String(), name: Type.String() });
const Link = Dto({ id: Type.String(), chatId: Type.String(), linkType: Type.String(), enabled: Type.Boolean() });
const ChatMemory = Dto({ chunks: Type.Array(Any), formatted: Type.String(), enabled: Type.Boolean() });
const ERRORS = ['NOT_FOUND', 'UNSUPPORTED_HERE'];
const WRITE_ERRORS = [...ERRORS, 'QUOTA_EXCEEDED', 'INPUT_TOO_LARGE'];

const memory = <P extends TProperties>(props: P, result: Parameters<typeof endpoint>[0]['result'], errors: readonly string[] = ERRORS) =>
  endpoint({ ...positional(props), result, errors, permission: 'memories' as const });
const chat = { chatId: ChatId };

export const MEMORY_REQUESTS = {
  'memories.cortex.getConfig': memory({}, Type.Record(Type.String(), Any)),
  'memories.cortex.putConfig': memory({ patch: Type.Record(Type.String(), Any) }, Type.Record(Type.String(), Any), WRITE_ERRORS),
  'memories.cortex.query': memory(
    {
      query: Type.Object({
        chatId: ChatId,
        queryText: Opt(Type.String({ maxLength: 100_000 })),
        entityFilter: Opt(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 200 })),
        timeRange: Opt(Type.Object({ start: Opt(Type.Number()), end: Opt(Type.Number()) })),
        emotionalContext: Opt(Type.Array(Type.String())),
        generationType: Opt(Type.String()),
        topK: Opt(Type.Number()),
        includeConsolidations: Opt(Type.Boolean()),
        includeRelationships: Opt(Type.Boolean()),
        excludeMessageIds: Opt(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 5000 })),
      }),
    },
    CortexResult,
  ),
  'memories.cortex.getCached': memory(chat, OrNull(CortexResult)),
  'memories.cortex.queryLinked': memory({ ...chat, options: Options({ queryText: Opt(Type.String({ maxLength: 100_000 })) }) }, Linked),
  'memories.cortex.getCachedLinked': memory(chat, OrNull(Linked)),
  'memories.cortex.invalidateCache': memory(chat, Type.Null()),
  'memories.cortex.invalidateLinkedCache': memory(chat, Type.Null()),
  'memories.entities.list': memory({ ...chat, options: Options({ activeOnly: Opt(Type.Boolean()), limit: Opt(Type.Number()) }) }, Type.Array(Entity)),
  'memories.entities.get': memory({ entityId: EntityId }, OrNull(Entity)),
  'memories.entities.findByName': memory({ ...chat, name: Name }, OrNull(Entity)),
  'memories.entities.upsert': memory(
    {
      ...chat,
      entity: Type.Object({
        name: Name,
        type: Kind,
        aliases: Opt(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 })),
        confidence: Opt(Type.Number()),
        role: Opt(Type.String()),
        provisional: Opt(Type.Boolean()),
        markUserEdited: Opt(Type.Boolean()),
      }),
      options: Options({ chunkId: Opt(Type.Union([Type.String({ maxLength: 128 }), Type.Null()])), createdAt: Opt(Type.Number()) }),
    },
    Entity,
    WRITE_ERRORS,
  ),
  'memories.entities.updateStatus': memory(
    { entityId: EntityId, patch: Type.Object({ status: Type.Union(['active', 'inactive', 'deceased', 'destroyed', 'unknown'].map((s) => Type.Literal(s))), statusChangedAt: Opt(Type.Number()) }) },
    Entity,
    WRITE_ERRORS,
  ),
  'memories.entities.addFacts': memory({ entityId: EntityId, facts: Type.Array(Type.String({ maxLength: 4000 }), { maxItems: 200 }) }, Entity, WRITE_ERRORS),
  'memories.entities.getFacts': memory({ entityId: EntityId }, Type.Array(Type.String())),
  'memories.entities.updateEmotionalValence': memory({ entityId: EntityId, valence: Type.Record(Type.String(), Type.Number(), { maxProperties: 64 }) }, Entity, WRITE_ERRORS),
  'memories.relations.list': memory(chat, Type.Array(Relation)),
  'memories.relations.listAll': memory(chat, Type.Array(Relation)),
  'memories.relations.forEntity': memory({ ...chat, entityId: EntityId }, Type.Array(Relation)),
  'memories.relations.forEntities': memory({ ...chat, entityIds: Type.Array(EntityId, { maxItems: 1000 }), options: Options({ limit: Opt(Type.Number()) }) }, Type.Array(Relation)),
  'memories.relations.upsert': memory(
    {
      ...chat,
      relation: Type.Object({ source: Name, target: Name, type: Kind, label: Opt(Type.String({ maxLength: 256 })), sentiment: Opt(Type.Number()), markUserEdited: Opt(Type.Boolean()) }),
      options: Options({ chunkId: Opt(Type.Union([Type.String({ maxLength: 128 }), Type.Null()])) }),
    },
    OrNull(Relation),
    WRITE_ERRORS,
  ),
  // Arcs and salience come from Lumiverse's sidecar passes, which the Workbench does not run: none are produced.
  'memories.consolidations.list': memory({ ...chat, options: Options({ tier: Opt(Type.Number()) }) }, Type.Array(Any)),
  'memories.consolidations.latestArc': memory(chat, Type.Null()),
  'memories.consolidations.run': memory(chat, Type.Null()),
  'memories.salience.list': memory({ ...chat, options: PageOptions }, Type.Array(Any)),
  'memories.vaults.list': memory({}, Type.Array(Vault)),
  'memories.vaults.get': memory({ vaultId: Id(128) }, OrNull(Dto({ vault: Vault, entities: Type.Array(Any), relations: Type.Array(Any) }))),
  'memories.vaults.getChunks': memory({ vaultId: Id(128) }, Type.Array(Any)),
  'memories.vaults.create': memory({ input: Type.Object({ chatId: ChatId, name: Name, description: Opt(Type.String({ maxLength: 4000 })) }) }, Vault, WRITE_ERRORS),
  'memories.vaults.rename': memory({ vaultId: Id(128), name: Name }, Type.Boolean(), WRITE_ERRORS),
  'memories.vaults.delete': memory({ vaultId: Id(128) }, Type.Boolean(), WRITE_ERRORS),
  'memories.vaults.reindex': memory({ vaultId: Id(128) }, Dto({ mode: Type.String(), chunkCount: Type.Number() })),
  'memories.links.list': memory(chat, Type.Array(Link)),
  'memories.links.attach': memory(
    {
      input: Type.Object({
        chatId: ChatId,
        linkType: Type.Union([Type.Literal('vault'), Type.Literal('interlink')]),
        vaultId: Opt(Id(128)),
        targetChatId: Opt(ChatId),
        label: Opt(Type.String({ maxLength: 256 })),
        bidirectional: Opt(Type.Boolean()),
      }),
    },
    Type.Array(Link),
    WRITE_ERRORS,
  ),
  'memories.links.remove': memory({ ...chat, linkId: Id(128) }, Type.Boolean(), WRITE_ERRORS),
  'memories.links.toggle': memory({ ...chat, linkId: Id(128), enabled: Type.Boolean() }, Type.Boolean(), WRITE_ERRORS),
  'memories.chatMemory.listChunks': memory(chat, Type.Array(Any)),
  'memories.chatMemory.get': memory({ ...chat, options: Options({ topK: Opt(Type.Number()) }) }, ChatMemory),
  'memories.chatMemory.warm': memory({ ...chat, options: Options({ force: Opt(Type.Boolean()) }) }, Dto({ status: Type.String() })),
  'memories.chatMemory.invalidate': memory(chat, Type.Null()),
  // Lumiverse: the same answer as chatMemory.get, under the chats permission.
  'chats.getMemories': endpoint({ ...positional({ ...chat, options: Options({ topK: Opt(Type.Number()) }) }), result: ChatMemory, errors: ERRORS, permission: 'chats' }),
  'memories.stats.usage': memory(chat, Dto({ entityCount: Type.Number(), relationCount: Type.Number() })),
  'memories.stats.ingestionStatus': memory(chat, Type.Null()),
  'memories.stats.ingestionTelemetry': memory(chat, Dto({ samples: Type.Number() })),
} as const;
