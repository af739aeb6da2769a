// Vaults and chat links of the Memory Cortex (spindle.memories.vaults, .links), as Lumiverse keeps them: a vault is a
// frozen copy of a chat's graph and chunks, kept after the chat is gone; a link attaches a vault to a chat, or joins
// two chats (both ways when asked), and can be switched off without being removed.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';
import type { MemoryEntity } from './memory-graph';
import type { MemoryRelation } from './memory-relations';

/** The one local user, as Lumiverse's DTOs name their owner. */
const USER_ID = 'local';
export const VAULT_LIMITS = { vaults: 200, linksPerChat: 100, vaultBytes: 32 * 1024 * 1024 };

export interface VaultChunk {
  id: string;
  vaultId: string;
  sourceChunkId: string;
  content: string;
  salienceScore: number | null;
  emotionalTags: string[];
  entityNames: string[];
  sourceCreatedAt: number;
  copiedAt: number;
}

/** Lumiverse's VaultDTO: what lists show (its own column, so they read no contents). */
export type VaultHeader = { id: string; userId: string; sourceChatId: string | null; sourceChatName: string | null; name: string; description: string; entityCount: number; relationCount: number; chunkCount: number; createdAt: number };

export interface VaultDoc {
  vault: VaultHeader;
  entities: Array<{ id: string; vaultId: string; name: string; entityType: string; aliases: string[]; description: string; status: string; facts: string[]; emotionalValence: Record<string, number>; salienceAvg: number }>;
  relations: Array<{ id: string; vaultId: string; sourceEntityName: string; targetEntityName: string; relationType: string; relationLabel: string | null; strength: number; sentiment: number; status: string }>;
  chunks: VaultChunk[];
}

interface LinkDoc {
  id: string;
  chatId: string;
  linkType: 'vault' | 'interlink';
  vaultId: string | null;
  targetChatId: string | null;
  label: string;
  enabled: boolean;
  priority: number;
  createdAt: number;
}

export class MemoryVaults extends DbStore {
  private readonly sql;

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text).raw(true);
    this.sql = {
      headers: p('SELECT header FROM memory_vaults ORDER BY created_at DESC, id'),
      header: p('SELECT header FROM memory_vaults WHERE id = ?'),
      vault: p('SELECT header, doc FROM memory_vaults WHERE id = ?'),
      count: p('SELECT COUNT(*) FROM memory_vaults'),
      putVault: db.prepare('INSERT INTO memory_vaults (id, created_at, header, doc) VALUES (?, ?, ?, ?)'),
      rename: db.prepare('UPDATE memory_vaults SET header = ? WHERE id = ?'),
      dropVault: db.prepare('DELETE FROM memory_vaults WHERE id = ?'),
      links: p('SELECT doc FROM memory_links WHERE chat_id = ?'),
      linkCount: p('SELECT COUNT(*) FROM memory_links WHERE chat_id = ?'),
      putLink: db.prepare('INSERT INTO memory_links (id, chat_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      dropLink: db.prepare('DELETE FROM memory_links WHERE id = ? AND chat_id = ?'),
      dropVaultLinks: db.prepare("DELETE FROM memory_links WHERE json_extract(doc, '$.vaultId') = ?"),
    };
  }

  list(): VaultHeader[] {
    return (this.sql.headers.all() as Array<[string]>).map(([header]) => JSON.parse(header) as VaultHeader);
  }

  header(id: string): VaultHeader | null {
    const row = this.sql.header.get(id) as [string] | undefined;
    return row ? (JSON.parse(row[0]) as VaultHeader) : null;
  }

  /** The vault with its contents (its chunks too: up to 1,000 messages). */
  get(id: string): VaultDoc | null {
    const row = this.sql.vault.get(id) as [string, string] | undefined;
    return row ? { vault: JSON.parse(row[0]) as VaultHeader, ...(JSON.parse(row[1]) as Omit<VaultDoc, 'vault'>) } : null;
  }

  /** Copies the chat's graph and chunks as they are now. */
  create(source: { chatId: string; chatName: string | null; name: string; description?: string; entities: MemoryEntity[]; relations: MemoryRelation[]; chunks: Array<{ id: string; content: string; createdAt: number; entityNames: string[] }> }): VaultHeader {
    const id = randomUUID();
    const now = this.seconds();
    const names = new Map(source.entities.map((e) => [e.id, e.name]));
    const doc: VaultDoc = {
      vault: { id, userId: USER_ID, sourceChatId: source.chatId, sourceChatName: source.chatName, name: source.name, description: source.description ?? '', entityCount: source.entities.length, relationCount: 0, chunkCount: source.chunks.length, createdAt: now },
      entities: source.entities.map((e) => ({ id: randomUUID(), vaultId: id, name: e.name, entityType: e.entityType, aliases: [...e.aliases], description: e.description, status: e.status, facts: [...e.facts], emotionalValence: { ...e.emotionalValence }, salienceAvg: e.salienceAvg })),
      relations: source.relations
        .filter((r) => names.has(r.sourceEntityId) && names.has(r.targetEntityId))
        .map((r) => ({ id: randomUUID(), vaultId: id, sourceEntityName: names.get(r.sourceEntityId)!, targetEntityName: names.get(r.targetEntityId)!, relationType: r.relationType, relationLabel: r.relationLabel, strength: r.strength, sentiment: r.sentiment, status: r.status })),
      chunks: source.chunks.map((c) => ({ id: randomUUID(), vaultId: id, sourceChunkId: c.id, content: c.content, salienceScore: null, emotionalTags: [], entityNames: c.entityNames, sourceCreatedAt: c.createdAt, copiedAt: now })),
    };
    doc.vault.relationCount = doc.relations.length;
    const { vault, ...contents } = doc;
    const json = JSON.stringify(contents);
    if (Buffer.byteLength(json) > VAULT_LIMITS.vaultBytes) fail('QUOTA_EXCEEDED', `A vault holds at most ${VAULT_LIMITS.vaultBytes / 1024 / 1024} MB; this chat's memory is larger.`);
    this.write(() => {
      if ((this.sql.count.get() as [number])[0] >= VAULT_LIMITS.vaults) fail('QUOTA_EXCEEDED', `At most ${VAULT_LIMITS.vaults} vaults are kept.`);
      this.sql.putVault.run(id, now, JSON.stringify(vault), json);
    });
    return vault;
  }

  rename(id: string, name: string): boolean {
    return this.write(() => {
      const header = this.header(id);
      if (!header) return false;
      this.sql.rename.run(JSON.stringify({ ...header, name }), id);
      return true;
    });
  }

  /** The vault and the links that attach it. */
  delete(id: string): boolean {
    return this.write(() => {
      this.sql.dropVaultLinks.run(id);
      return this.sql.dropVault.run(id).changes > 0;
    });
  }

  /** A chat's links, highest priority first, in Lumiverse's ChatLinkDTO (names looked up now). */
  links(chatId: string, chatName: (id: string) => string | null) {
    const docs = (this.sql.links.all(chatId) as Array<[string]>).map(([doc]) => JSON.parse(doc) as LinkDoc);
    return docs.sort((a, b) => b.priority - a.priority || a.createdAt - b.createdAt).map((l) => this.linkDto(l, chatName));
  }

  /** Attaches a vault, or joins two chats (the reverse link too when `bidirectional`); the links made. */
  attach(input: { chatId: string; linkType: 'vault' | 'interlink'; vaultId?: string; targetChatId?: string; label?: string; bidirectional?: boolean }, chatName: (id: string) => string | null) {
    const now = this.seconds();
    const link = (chatId: string, target: string | null, vaultId: string | null, label: string): LinkDoc => ({ id: randomUUID(), chatId, linkType: input.linkType, vaultId, targetChatId: target, label, enabled: true, priority: 0, createdAt: now });
    let made: LinkDoc[];
    if (input.linkType === 'vault') {
      const vault = (input.vaultId && this.header(input.vaultId)) || fail('NOT_FOUND', 'Vault not found', { path: '/input/vaultId' });
      made = [link(input.chatId, null, vault.id, input.label ?? vault.name)];
    } else {
      const target = input.targetChatId;
      if (!target || chatName(target) === null) fail('NOT_FOUND', 'Target chat not found', { path: '/input/targetChatId' });
      if (target === input.chatId) fail('INVALID_INPUT', 'A chat cannot be linked to itself.', { path: '/input/targetChatId' });
      made = [link(input.chatId, target!, null, input.label ?? chatName(target!) ?? '')];
      if (input.bidirectional) made.push(link(target!, input.chatId, null, input.label ?? chatName(input.chatId) ?? ''));
    }
    this.write(() => {
      for (const l of made) {
        if ((this.sql.linkCount.get(l.chatId) as [number])[0] >= VAULT_LIMITS.linksPerChat) fail('QUOTA_EXCEEDED', `A chat keeps at most ${VAULT_LIMITS.linksPerChat} links.`);
        this.sql.putLink.run(l.id, l.chatId, JSON.stringify(l));
      }
    });
    return made.map((l) => this.linkDto(l, chatName));
  }

  remove(chatId: string, linkId: string): boolean {
    return this.write(() => this.sql.dropLink.run(linkId, chatId).changes > 0);
  }

  toggle(chatId: string, linkId: string, enabled: boolean): boolean {
    return this.write(() => {
      const doc = (this.sql.links.all(chatId) as Array<[string]>).map(([d]) => JSON.parse(d) as LinkDoc).find((l) => l.id === linkId);
      if (!doc) return false;
      doc.enabled = enabled;
      this.sql.putLink.run(doc.id, chatId, JSON.stringify(doc));
      return true;
    });
  }

  private linkDto(l: LinkDoc, chatName: (id: string) => string | null) {
    const vault = l.vaultId ? this.header(l.vaultId) : null;
    const targetName = l.targetChatId ? chatName(l.targetChatId) : null;
    return {
      ...l,
      userId: USER_ID,
      vaultName: vault?.name ?? null,
      vaultEntityCount: vault?.entityCount ?? null,
      vaultRelationCount: vault?.relationCount ?? null,
      targetChatName: targetName,
      targetChatExists: l.targetChatId ? targetName !== null : false,
    };
  }
}
