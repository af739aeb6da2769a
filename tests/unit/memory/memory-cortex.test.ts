// spindle.memories over the real chats' database, through the contract's dispatcher, as published extensions call it
// (entities.findByName → upsert → addFacts, cortex.query, chatMemory.get, vaults and links): Lumiverse's shapes and
// rules, the chat's own messages recalled by their words, and bad input refused with its field.
import { afterEach, describe, expect, it } from 'vitest';
import { testChatReads } from '../../helpers/chat-reads';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { memoryHandlers } from '../../../electron/core/extensions/spindle-host/memories';
import { MemoryCortex } from '../../../electron/core/memory/memory-cortex';
import { MEMORY_LIMITS } from '../../../electron/core/memory/memory-graph';
import { VAULT_LIMITS } from '../../../electron/core/memory/memory-vaults';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

const LINES = [
  'We reached the harbour at dusk; the lighthouse was dark.',
  'Mara says the smugglers hide their boats under the old pier.',
  'The innkeeper pours two cups of bitter tea.',
  'Captain Ilsa Varn swore she would never return to Greyport.',
  'A storm rolls in from the west and the lamps gutter.',
];

async function setup(options: { filler?: number } = {}) {
  const dir = tempDir();
  const clock = { t: 1_750_000_000_000, now() { return this.t; } };
  const sessions = new SessionStore({ dataDir: dir, clock });
  const messages = [...LINES, ...Array.from({ length: options.filler ?? 0 }, (_, i) => `Small talk number ${i} about the weather.`)].map((content, i) => ({ id: `m${i}`, role: i % 2 ? ('assistant' as const) : ('user' as const), content, createdAt: clock.t + i * 1000 }));
  const session = await sessions.add({ title: 'Greyport', messages });
  const other = sessions.create({ title: 'Elsewhere' });
  const reads = testChatReads(sessions, { activeSessionId: session.id });
  const cortex = new MemoryCortex({ db: sessions.db, clock });
  const handlers = memoryHandlers(() => cortex, () => reads);
  const call = (method: string, ...args: unknown[]) => callSpindle(handlers, anyCaller('x'), method, { args });
  return { sessions, session, other, cortex, clock, call, dir };
}

type Entity = { id: string; name: string; aliases: string[]; mentionCount: number; facts: string[]; status: string; confidence: string; emotionalValence: Record<string, number> };

describe('the memory graph', () => {
  it('upserts by name or alias in any case, counts mentions, learns aliases and keeps facts once', async () => {
    const { session, call } = await setup();
    expect(await call('memories.entities.findByName', session.id, 'Ilsa')).toBeNull();
    const made = (await call('memories.entities.upsert', session.id, { name: 'Ilsa Varn', type: 'character', aliases: ['Captain Varn'] }, { chunkId: 'm3' })) as Entity;
    expect(made).toMatchObject({ name: 'Ilsa Varn', entityType: 'character', aliases: ['Captain Varn'], mentionCount: 1, status: 'active', confidence: 'confirmed', firstSeenChunkId: 'm3' });
    const again = (await call('memories.entities.upsert', session.id, { name: 'captain varn', type: 'character', aliases: ['Ilsa'] })) as Entity;
    expect(again.id).toBe(made.id);
    expect(again.mentionCount).toBe(2);
    expect(again.aliases).toEqual(['Captain Varn', 'Ilsa']);
    // Lumiverse's trailing userId is let through.
    expect(((await call('memories.entities.findByName', session.id, 'ILSA', 'user-1')) as Entity).id).toBe(made.id);

    await call('memories.entities.addFacts', made.id, ['Swore never to return to Greyport.', 'swore never to return to greyport.', '  ', '[i:9] Commands the Gull.']);
    expect(await call('memories.entities.getFacts', made.id)).toEqual(['Swore never to return to Greyport.', 'Commands the Gull.']);
    // Past 30 facts the least important go first, the important one stays.
    const many = (await call('memories.entities.addFacts', made.id, Array.from({ length: 35 }, (_, i) => `Fact ${i}`))) as Entity;
    expect(many.facts).toHaveLength(30);
    expect(many.facts).toContain('[i:9] Commands the Gull.');

    const felt = (await call('memories.entities.updateEmotionalValence', made.id, { dread: 0.8 })) as Entity;
    expect(felt.emotionalValence.dread).toBeCloseTo(0.4);
    await call('memories.entities.updateStatus', made.id, { status: 'deceased' });
    expect(await call('memories.entities.list', session.id)).toEqual([]);
    expect(((await call('memories.entities.list', session.id, { activeOnly: false })) as Entity[]).map((e) => e.status)).toEqual(['deceased']);
    // A kind Lumiverse does not name is kept as a concept.
    expect(await call('memories.entities.upsert', session.id, { name: 'The Gull', type: 'ship' })).toMatchObject({ entityType: 'concept' });
  });

  it('upserts relations between known entities, reinforcing the same edge, and drops one whose end is unknown', async () => {
    const { session, call } = await setup();
    await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' });
    await call('memories.entities.upsert', session.id, { name: 'Ilsa Varn', type: 'character', aliases: ['Ilsa'] });
    expect(await call('memories.relations.upsert', session.id, { source: 'Mara', target: 'Nobody', type: 'ally', label: 'x', sentiment: 1 })).toBeNull();
    const first = (await call('memories.relations.upsert', session.id, { source: 'Mara', target: 'ilsa', type: 'rival', label: 'old rivals', sentiment: -0.6 })) as { id: string; strength: number; sentiment: number };
    const second = (await call('memories.relations.upsert', session.id, { source: 'mara', target: 'Ilsa Varn', type: 'rival', label: 'old rivals', sentiment: 0 })) as { id: string; strength: number; sentiment: number; sentimentRange: number[] };
    expect(second.id).toBe(first.id);
    expect(second.strength).toBeGreaterThan(first.strength);
    expect(second.sentiment).toBeCloseTo(-0.3);
    expect(second.sentimentRange).toEqual([-0.6, 0]);
    const unnamed = (await call('memories.relations.upsert', session.id, { source: 'Ilsa', target: 'Mara', type: 'owes_money_to' })) as { relationType: string; relationLabel: string };
    expect(unnamed).toMatchObject({ relationType: 'custom', relationLabel: 'owes_money_to' });
    expect(await call('memories.relations.list', session.id)).toHaveLength(2);
    expect(await call('memories.stats.usage', session.id)).toMatchObject({ entityCount: 2, relationCount: 2 });
  });

  it('refuses an unknown chat or entity, a missing name and a wrong type, with the field, changing nothing', async () => {
    const { session, call } = await setup();
    await expect(call('memories.entities.list', 'no-such-chat')).rejects.toMatchObject({ error: { code: 'NOT_FOUND', message: 'Chat not found', path: '/chatId' } });
    await expect(call('memories.entities.addFacts', 'no-such-entity', ['x'])).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/entityId' } });
    await expect(call('memories.entities.upsert', session.id, { type: 'character' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/entity/name' } });
    await expect(call('memories.entities.upsert', session.id, { name: 'Mara', type: 7 })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/entity/type' } });
    await expect(call('memories.entities.updateStatus', 'x', { status: 'asleep' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/patch/status' } });
    await expect(call('memories.cortex.query', { queryText: 'harbour' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/query/chatId' } });
    await expect(call('memories.entities.upsert', session.id, { name: '   ', type: 'character' })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/entity/name' } });
    const mara = (await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' })) as Entity;
    await expect(call('memories.entities.updateEmotionalValence', mara.id, { ['x'.repeat(65)]: 1 })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/valence' } });
    await expect(call('memories.entities.updateEmotionalValence', mara.id, Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, 1])))).rejects.toMatchObject({ error: { code: 'INVALID_INPUT', path: '/valence' } });
    // Aliases are kept once each, 50 at most.
    const many = (await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character', aliases: Array.from({ length: 80 }, (_, i) => `Alias ${i}`) })) as Entity;
    expect(many.aliases).toHaveLength(50);
    expect(((await call('memories.entities.list', session.id, { activeOnly: false })) as Entity[]).map((e) => e.name)).toEqual(['Mara']);
  });

  it('keeps no memory for a chat that is not saved (a council run’s chat from elsewhere)', async () => {
    const { sessions, cortex } = await setup();
    const reads = testChatReads(sessions, { activeSessionId: null }, { runningCouncilChat: () => ({ messages: [{ role: 'user', content: 'hi' }] }) as never });
    expect(reads.head('council-run')).not.toBeNull();
    const call = (method: string, ...args: unknown[]) => callSpindle(memoryHandlers(() => cortex, () => reads), anyCaller('x'), method, { args });
    await expect(call('memories.entities.upsert', 'council-run', { name: 'Mara', type: 'character' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', message: 'Chat not found' } });
    // Nor is it a link's end.
    const saved = sessions.create({ title: 'Saved' });
    await expect(call('memories.links.attach', { chatId: saved.id, linkType: 'interlink', targetChatId: 'council-run', bidirectional: true })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/input/targetChatId' } });
    expect(await call('memories.links.list', saved.id)).toEqual([]);
  });

  it('asks for the memories permission, and chats.getMemories for chats', async () => {
    const { session, cortex, sessions } = await setup();
    const reads = testChatReads(sessions, { activeSessionId: session.id });
    const only = (permission: string) => ({ extensionId: 'x', allowed: (p: string) => p === permission });
    const handlers = memoryHandlers(() => cortex, () => reads);
    await expect(callSpindle(handlers, only('chats'), 'memories.entities.list', { args: [session.id] })).rejects.toMatchObject({ error: { code: 'PERMISSION_DENIED' } });
    expect(await callSpindle(handlers, only('chats'), 'chats.getMemories', { args: [session.id] })).toMatchObject({ enabled: true });
    await expect(callSpindle(handlers, only('memories'), 'chats.getMemories', { args: [session.id] })).rejects.toMatchObject({ error: { code: 'PERMISSION_DENIED' } });
  });
});

describe('recall', () => {
  it('cortex.query finds the chat’s messages by their words, best first, with the entities they name and their relations', async () => {
    const { session, other, call } = await setup();
    await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' });
    await call('memories.entities.upsert', session.id, { name: 'Greyport', type: 'location' });
    await call('memories.entities.upsert', session.id, { name: 'Ilsa Varn', type: 'character', aliases: ['Captain Ilsa Varn'] });
    await call('memories.relations.upsert', session.id, { source: 'Ilsa Varn', target: 'Greyport', type: 'fears', label: 'will not return', sentiment: -0.5 });
    const result = (await call('memories.cortex.query', { chatId: session.id, queryText: 'Where do the smugglers hide at the pier?', topK: 3 })) as {
      memories: Array<{ sourceId: string; content: string; finalScore: number; entityNames: string[]; messageRange: number[] }>;
      entityContext: Array<{ name: string }>;
      stats: { entitiesMatched: number; vectorSearchResults: number };
    };
    expect(result.memories[0]).toMatchObject({ sourceId: 'm1', finalScore: 1, entityNames: ['Mara'], messageRange: [1, 1] });
    expect(result.entityContext.map((e) => e.name)).toEqual(['Mara']);
    expect(result.stats).toMatchObject({ entitiesMatched: 1, vectorSearchResults: 0 });

    const captain = (await call('memories.cortex.query', { chatId: session.id, queryText: 'captain greyport' })) as { memories: Array<{ sourceId: string }>; entityContext: Array<{ name: string; relationships: unknown[] }>; activeRelationships: unknown[] };
    expect(captain.memories.map((m) => m.sourceId)).toEqual(['m3']);
    expect(captain.entityContext.map((e) => e.name).sort()).toEqual(['Greyport', 'Ilsa Varn']);
    expect(captain.activeRelationships).toEqual([{ sourceName: 'Ilsa Varn', targetName: 'Greyport', type: 'fears', label: 'will not return', strength: expect.any(Number), sentiment: -0.5 }]);
    // Left out when asked, and another chat's memory is its own.
    expect(((await call('memories.cortex.query', { chatId: session.id, queryText: 'captain greyport', excludeMessageIds: ['m3'] })) as { memories: unknown[] }).memories).toEqual([]);
    expect(((await call('memories.cortex.query', { chatId: other.id, queryText: 'captain greyport' })) as { memories: unknown[] }).memories).toEqual([]);
    // With no text, the newest messages, newest first, less those left out.
    const newest = (await call('memories.cortex.query', { chatId: session.id, topK: 2, excludeMessageIds: ['m4'] })) as { memories: Array<{ sourceId: string }> };
    expect(newest.memories.map((m) => m.sourceId)).toEqual(['m3', 'm2']);
    // An entity filter keeps the memories that name it.
    const filtered = (await call('memories.cortex.query', { chatId: session.id, queryText: 'harbour smugglers greyport', entityFilter: ['Mara'] })) as { memories: Array<{ sourceId: string }> };
    expect(filtered.memories.map((m) => m.sourceId)).toEqual(['m1']);
  });

  it('getCached answers the last query for five minutes, and invalidateCache drops it', async () => {
    const { session, clock, call } = await setup();
    expect(await call('memories.cortex.getCached', session.id)).toBeNull();
    const result = await call('memories.cortex.query', { chatId: session.id, queryText: 'tea' });
    expect(await call('memories.cortex.getCached', session.id)).toEqual(result);
    clock.t += 5 * 60 * 1000 + 1;
    expect(await call('memories.cortex.getCached', session.id)).toBeNull();
    await call('memories.cortex.query', { chatId: session.id, queryText: 'tea' });
    await call('memories.cortex.invalidateCache', session.id);
    expect(await call('memories.cortex.getCached', session.id)).toBeNull();
  });

  it('chatMemory.get recalls older messages by the last ones’ words, leaving out the last 20 and hidden ones; by recency when no word matches', async () => {
    const { sessions, session, call } = await setup({ filler: 20 });
    // The last six messages (the query) talk of the weather, which the filler shares: it is the last 20 and left out.
    const memory = (await call('memories.chatMemory.get', session.id, { topK: 2 })) as { chunks: Array<{ content: string; score: null; metadata: { messageId: string } }>; enabled: boolean; formatted: string; chunksAvailable: number; retrievalMode?: string };
    // None of the older messages shares their words: the newest older ones come back by recency.
    expect(memory).toMatchObject({ enabled: true, chunksAvailable: LINES.length, retrievalMode: 'recency' });
    expect(memory.chunks.map((c) => c.metadata.messageId)).toEqual(['m3', 'm4']);

    sessions.mutate(session.id, (s) => {
      s.messages.push({ id: 'q', role: 'user', content: 'Tell me again about the lighthouse and the harbour.', createdAt: 1 });
    });
    const about = (await call('memories.chatMemory.get', session.id)) as { chunks: Array<{ metadata: { messageId: string }; score: null }>; retrievalMode?: string; formatted: string };
    // The only older message with the lighthouse and the harbour; the first of the small talk shares the others' words.
    expect(about.chunks.map((c) => c.metadata.messageId)).toEqual(['m5', 'm0']);
    expect(about.chunks[1]).toMatchObject({ score: null });
    expect(about.retrievalMode).toBeUndefined();
    expect(about.formatted).toContain('We reached the harbour at dusk');
    // A hidden message is kept out of memory, as in Lumiverse.
    sessions.mutate(session.id, (s) => {
      s.messages[0] = { ...s.messages[0]!, hidden: true };
    });
    expect(((await call('memories.chatMemory.get', session.id)) as { chunks: Array<{ metadata: { messageId: string } }> }).chunks.map((c) => c.metadata.messageId)).toEqual(['m5']);
    expect(await call('chats.getMemories', session.id)).toMatchObject({ enabled: true });
    expect(await call('memories.chatMemory.warm', session.id)).toMatchObject({ status: 'complete' });
    expect(((await call('memories.chatMemory.listChunks', session.id)) as Array<{ id: string; messageIds: string[] }>)[0]).toMatchObject({ id: 'm1', messageIds: ['m1'] });
  });

  it('a cortex switched off (putConfig) answers memory disabled and skips warming; the setting is kept', async () => {
    const { session, call, sessions } = await setup();
    expect(await call('memories.cortex.getConfig')).toMatchObject({ enabled: true, entityTracking: false });
    await call('memories.cortex.putConfig', { enabled: false, retrieval: { topK: 3 } });
    expect(await call('chats.getMemories', session.id)).toMatchObject({ enabled: false, retrievalMode: 'disabled', chunks: [] });
    expect(await call('memories.chatMemory.warm', session.id)).toMatchObject({ status: 'skipped' });
    expect(((await call('memories.cortex.query', { chatId: session.id, queryText: 'harbour' })) as { memories: unknown[] }).memories).toEqual([]);
    const again = new MemoryCortex({ db: sessions.db, clock: { now: () => 0 } });
    expect(again.getConfig()).toMatchObject({ enabled: false, retrieval: { topK: 3 } });
  });
});

describe('limits', () => {
  it('refuses a relation, a link or a vault past its cap, and keeps feelings to their cap', async () => {
    const { session, other, call } = await setup();
    const saved = { ...MEMORY_LIMITS, ...VAULT_LIMITS };
    try {
      Object.assign(MEMORY_LIMITS, { relationsPerChat: 1, feelingsPerEntity: 2 });
      Object.assign(VAULT_LIMITS, { linksPerChat: 1, vaultBytes: 100 });
      for (const name of ['Mara', 'Tom', 'Ilsa']) await call('memories.entities.upsert', session.id, { name, type: 'character' });
      await call('memories.relations.upsert', session.id, { source: 'Mara', target: 'Tom', type: 'ally' });
      // The same edge again is a reinforcement, not a new one.
      await call('memories.relations.upsert', session.id, { source: 'Mara', target: 'Tom', type: 'ally' });
      await expect(call('memories.relations.upsert', session.id, { source: 'Mara', target: 'Ilsa', type: 'ally' })).rejects.toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
      await call('memories.links.attach', { chatId: session.id, linkType: 'interlink', targetChatId: other.id });
      await expect(call('memories.links.attach', { chatId: session.id, linkType: 'interlink', targetChatId: other.id })).rejects.toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
      await expect(call('memories.vaults.create', { chatId: session.id, name: 'Too big' })).rejects.toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
      const mara = (await call('memories.entities.findByName', session.id, 'Mara')) as Entity;
      const felt = (await call('memories.entities.updateEmotionalValence', mara.id, { dread: 1, awe: 1, joy: 1 })) as Entity;
      expect(Object.keys(felt.emotionalValence)).toEqual(['dread', 'awe']);
    } finally {
      Object.assign(MEMORY_LIMITS, saved);
      Object.assign(VAULT_LIMITS, { linksPerChat: saved.linksPerChat, vaultBytes: saved.vaultBytes, vaults: saved.vaults });
    }
    expect(await call('memories.relations.list', session.id)).toHaveLength(1);
  });

  it('finds names in any case and accents, regex characters and all; a linked chat’s answer leaves its own cached one', async () => {
    const { session, other, call, sessions } = await setup();
    sessions.mutate(other.id, (s) => {
      s.messages.push({ id: 'o1', role: 'user', content: 'JOSÉ met (the) Dr. Who? at the pier.', createdAt: 1 });
    });
    await call('memories.entities.upsert', other.id, { name: 'José', type: 'character' });
    await call('memories.entities.upsert', other.id, { name: 'Dr. Who?', type: 'character' });
    const found = (await call('memories.cortex.query', { chatId: other.id, queryText: 'pier' })) as { memories: Array<{ entityNames: string[] }> };
    expect(found.memories[0]!.entityNames.sort()).toEqual(['Dr. Who?', 'José']);
    const own = await call('memories.cortex.getCached', other.id);
    await call('memories.links.attach', { chatId: session.id, linkType: 'interlink', targetChatId: other.id });
    await call('memories.cortex.queryLinked', session.id, { queryText: 'harbour' });
    expect(await call('memories.cortex.getCached', other.id)).toEqual(own);
  });
});

describe('vaults and links', () => {
  it('a vault copies the chat’s graph and chunks, is linked to another chat, and answers queryLinked; an interlink answers the other chat', async () => {
    const { session, other, call } = await setup();
    await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' });
    await call('memories.entities.upsert', session.id, { name: 'Greyport', type: 'location' });
    await call('memories.relations.upsert', session.id, { source: 'Mara', target: 'Greyport', type: 'located_in', label: 'lives in' });
    const vault = (await call('memories.vaults.create', { chatId: session.id, name: 'Greyport saga' })) as { id: string; entityCount: number; relationCount: number; chunkCount: number; sourceChatName: string };
    expect(vault).toMatchObject({ entityCount: 2, relationCount: 1, chunkCount: LINES.length, sourceChatName: 'Greyport' });
    expect(((await call('memories.vaults.getChunks', vault.id)) as Array<{ entityNames: string[] }>)[1]!.entityNames).toEqual(['Mara']);
    expect(await call('memories.vaults.rename', vault.id, 'Greyport, book one')).toBe(true);

    const [link] = (await call('memories.links.attach', { chatId: other.id, linkType: 'vault', vaultId: vault.id })) as Array<{ id: string; vaultName: string }>;
    expect(link).toMatchObject({ vaultName: 'Greyport, book one', enabled: true, linkType: 'vault' });
    const linked = (await call('memories.cortex.queryLinked', other.id, { queryText: 'smugglers pier' })) as { vaults: Array<{ vaultName: string; entities: Array<{ name: string }>; relations: unknown[]; memories: Array<{ content: string }> }> };
    expect(linked.vaults[0]).toMatchObject({ vaultName: 'Greyport, book one', relations: [{ sourceName: 'Mara', targetName: 'Greyport', type: 'located_in' }] });
    expect(linked.vaults[0]!.memories[0]!.content).toContain('smugglers');
    expect(await call('memories.cortex.getCachedLinked', other.id)).toEqual(linked);
    expect(await call('memories.links.toggle', other.id, link!.id, false)).toBe(true);
    expect(((await call('memories.cortex.queryLinked', other.id)) as { vaults: unknown[] }).vaults).toEqual([]);

    const both = (await call('memories.links.attach', { chatId: other.id, linkType: 'interlink', targetChatId: session.id, bidirectional: true })) as Array<{ chatId: string; targetChatId: string; targetChatExists: boolean }>;
    expect(both.map((l) => [l.chatId, l.targetChatId, l.targetChatExists])).toEqual([
      [other.id, session.id, true],
      [session.id, other.id, true],
    ]);
    const inter = (await call('memories.cortex.queryLinked', other.id, { queryText: 'lighthouse' })) as { interlinks: Array<{ targetChatName: string; result: { memories: Array<{ sourceId: string }> } }> };
    expect(inter.interlinks[0]).toMatchObject({ targetChatName: 'Greyport', result: { memories: [{ sourceId: 'm0' }] } });
    await expect(call('memories.links.attach', { chatId: other.id, linkType: 'interlink', targetChatId: other.id })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
    await expect(call('memories.links.attach', { chatId: other.id, linkType: 'vault', vaultId: 'nope' })).rejects.toMatchObject({ error: { code: 'NOT_FOUND', path: '/input/vaultId' } });

    // Deleting the vault takes its links; deleting a chat takes its graph and links, the vault stays.
    expect(await call('memories.vaults.delete', vault.id)).toBe(true);
    expect(((await call('memories.links.list', other.id)) as Array<{ linkType: string }>).map((l) => l.linkType)).toEqual(['interlink']);
  });

  it('a deleted chat’s graph and links go with it; a vault of it stays', async () => {
    const { sessions, session, other, call, cortex } = await setup();
    const mara = (await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' })) as Entity;
    await call('memories.links.attach', { chatId: session.id, linkType: 'interlink', targetChatId: other.id, bidirectional: true });
    await call('memories.entities.upsert', other.id, { name: 'Tom', type: 'character' });
    const vault = (await call('memories.vaults.create', { chatId: session.id, name: 'Kept' })) as { id: string };
    sessions.delete(session.id);
    // Out of reach at once, as the chat is; its rows are swept at the next start.
    expect(await call('memories.entities.get', mara.id)).toBeNull();
    await expect(call('memories.entities.list', session.id)).rejects.toMatchObject({ error: { code: 'NOT_FOUND' } });
    await sessions.dropped();
    expect(cortex.graph.entity(mara.id)).not.toBeNull();
    const restarted = new MemoryCortex({ db: sessions.db, clock: { now: () => 0 } });
    expect(restarted.graph.entity(mara.id)).toBeNull();
    expect(restarted.vaults.links(session.id, () => null)).toEqual([]);
    // A chat still saved keeps its own.
    expect(restarted.graph.entities(other.id).map((e) => e.name)).toEqual(['Tom']);
    expect(restarted.vaults.links(other.id, () => null)).toHaveLength(1);
    expect(await call('memories.vaults.get', vault.id)).toMatchObject({ vault: { name: 'Kept', sourceChatName: 'Greyport' }, entities: [{ name: 'Mara' }] });
  });

  it('a long chat written again under its id (a restore) keeps its memory', async () => {
    const { sessions, session, call, cortex } = await setup({ filler: 80 });
    const mara = (await call('memories.entities.upsert', session.id, { name: 'Mara', type: 'character' })) as Entity;
    const copy = sessions.get(session.id);
    // Over a step's worth of messages: the old rows are dropped in steps and the new written in steps, under one id.
    await sessions.writeWhole({ ...copy, title: 'Greyport, restored', messages: copy.messages.slice(0, 70) });
    await sessions.dropped();
    expect(sessions.get(session.id).title).toBe('Greyport, restored');
    expect(await call('memories.entities.get', mara.id)).toMatchObject({ name: 'Mara' });
    expect(new MemoryCortex({ db: sessions.db, clock: { now: () => 0 } }).graph.entity(mara.id)).not.toBeNull();
    expect(cortex.recall.count(session.id)).toBe(70);
  });
});
