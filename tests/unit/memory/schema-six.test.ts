// A chats' database written by the build that first kept presets and memories (schema 5: a trigger dropping a chat's
// memory with its session row, no preset update time, a vault's header inside its contents) is brought to schema 6
// at open, its presets and vaults kept.
import path from 'node:path';
import Database from 'libsql';
import { afterEach, expect, it } from 'vitest';
import { SessionStore } from '../../../electron/core/chat/session-store';
import { CHATS_DB_FILE, SCHEMA_STEPS, pluck } from '../../../electron/core/db/chat-db';
import { MemoryCortex } from '../../../electron/core/memory/memory-cortex';
import { PresetStore } from '../../../electron/core/presets/preset-store';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

it('migrates a schema 5 file: the trigger goes, presets get their update time, a vault its header column', async () => {
  const dir = tempDir();
  const old = new Database(path.join(dir, CHATS_DB_FILE));
  for (const step of SCHEMA_STEPS.slice(0, 5)) old.exec(step);
  old.exec('PRAGMA user_version = 5');
  const preset = { id: 'p1', name: 'Old', provider: 'loom', engine: 'classic', parameters: {}, prompt_order: [], prompts: {}, metadata: {}, created_at: 100, updated_at: 200 };
  old.prepare('INSERT INTO presets (id, created_at, cache_revision, doc) VALUES (?, ?, ?, ?)').run('p1', 100, 3, JSON.stringify(preset));
  // Made later and changed earlier, its id first: listed after p1 only if the update times are read from the presets
  // (by creation time, or with no time, it would come first).
  const second = { ...preset, id: 'p0', name: 'Second', created_at: 150, updated_at: 160 };
  old.prepare('INSERT INTO presets (id, created_at, cache_revision, doc) VALUES (?, ?, ?, ?)').run('p0', 150, 0, JSON.stringify(second));
  const vault = { id: 'v1', userId: 'local', sourceChatId: 'gone', sourceChatName: 'Gone', name: 'Old vault', description: '', entityCount: 0, relationCount: 0, chunkCount: 1, createdAt: 100 };
  const chunk = { id: 'c1', vaultId: 'v1', sourceChunkId: 'm1', content: 'The harbour at dusk.', salienceScore: null, emotionalTags: [], entityNames: [], sourceCreatedAt: 1, copiedAt: 100 };
  old.prepare('INSERT INTO memory_vaults (id, created_at, doc) VALUES (?, ?, ?)').run('v1', 100, JSON.stringify({ vault, entities: [], relations: [], chunks: [chunk] }));
  old.close();

  const sessions = new SessionStore({ dataDir: dir });
  expect(pluck<number>(sessions.db, 'PRAGMA user_version')).toBe(SCHEMA_STEPS.length);
  expect(pluck<number>(sessions.db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'memory_follows_chat'")).toBe(0);
  const clock = { now: () => 1_000_000 };
  expect(new PresetStore(sessions.db, clock).list()).toEqual({ data: [{ ...preset, cache_revision: 3 }, { ...second, cache_revision: 0 }], total: 2 });
  const cortex = new MemoryCortex({ db: sessions.db, clock });
  expect(cortex.vaults.list()).toEqual([vault]);
  expect(cortex.vaults.get('v1')).toEqual({ vault, entities: [], relations: [], chunks: [chunk] });

  // A deleted chat's memory stays until the next start sweeps it (no trigger drops it with the row).
  const chat = sessions.create({ title: 'Harbour' });
  const mara = cortex.graph.upsert(chat.id, { name: 'Mara', type: 'character' });
  sessions.delete(chat.id);
  await sessions.dropped();
  expect(cortex.graph.entity(mara.id)).not.toBeNull();
  expect(new MemoryCortex({ db: sessions.db, clock }).graph.entity(mara.id)).toBeNull();
  await sessions.close();
});
