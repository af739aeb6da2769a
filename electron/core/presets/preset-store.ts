// The person's generation presets as Lumiverse keeps them (spindle.presets): a row each in the chats' database, its
// prompt blocks in order, and a revision every change bumps, so a writer holding an old one is refused
// (PRESET_REVISION_CONFLICT) instead of undoing another's change. Block changes are preset changes.
import { randomUUID } from 'node:crypto';
import { fail } from '../../../shared/errors';
import type { Db } from '../db/chat-db';
import { DbStore } from '../db/db-store';
import type { Clock } from '../ports';
import { categoryGroups, normalizeBlock, normalizeBlocks, pruneVariableValues, type PromptBlock } from './preset-blocks';

export interface PresetDto {
  id: string;
  name: string;
  provider: string;
  engine: string;
  parameters: Record<string, unknown>;
  prompt_order: PromptBlock[];
  prompts: Record<string, unknown>;
  metadata: Record<string, unknown>;
  cache_revision: number;
  created_at: number;
  updated_at: number;
}

export type PresetCreate = Pick<PresetDto, 'name' | 'provider'> & Partial<Pick<PresetDto, 'engine' | 'parameters' | 'prompts' | 'metadata'>> & { prompt_order?: Record<string, unknown>[] };
export type PresetUpdate = Partial<PresetCreate> & { expected_cache_revision: number };

const EDITABLE = ['name', 'provider', 'engine', 'parameters', 'prompts', 'metadata'] as const;

export const PRESET_LIMITS = { maxPresets: 1000, maxPresetBytes: 4 * 1024 * 1024 };

/** A preset written (made, changed, restored) or deleted, told once the write is done. */
export type PresetChange = { kind: 'changed'; preset: PresetDto } | { kind: 'deleted'; id: string };

/**
 * A preset's stored document: its blocks normalized, stale prompt variables pruned, defaults filled, and its fields
 * in one order, so the same preset is the same text (a restore of an unchanged one is no change).
 */
function presetDoc(p: PresetCreate & Pick<PresetDto, 'id' | 'created_at' | 'updated_at'>): Omit<PresetDto, 'cache_revision'> {
  const blocks = normalizeBlocks(p.prompt_order ?? []);
  return {
    id: p.id,
    name: p.name,
    provider: p.provider,
    engine: p.engine || 'classic',
    parameters: p.parameters ?? {},
    prompt_order: blocks,
    prompts: p.prompts ?? {},
    metadata: pruneVariableValues(blocks, p.metadata ?? {}),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export class PresetStore extends DbStore {
  private readonly sql;
  private readonly listeners = new Set<(change: PresetChange) => void>();

  constructor(db: Db, clock: Clock, committed?: () => void) {
    super(db, clock, committed);
    const p = (text: string) => db.prepare(text);
    this.sql = {
      // Lumiverse's order: the most recently changed first.
      page: p('SELECT doc, cache_revision FROM presets ORDER BY updated_at DESC, id LIMIT ? OFFSET ?').raw(true),
      count: p('SELECT COUNT(*) FROM presets').raw(true),
      one: p('SELECT doc, cache_revision FROM presets WHERE id = ?').raw(true),
      insert: p('INSERT INTO presets (id, created_at, updated_at, cache_revision, doc) VALUES (?, ?, ?, 0, ?)'),
      write: p('UPDATE presets SET cache_revision = cache_revision + 1, updated_at = ?, doc = ? WHERE id = ?'),
      remove: p('DELETE FROM presets WHERE id = ?'),
    };
  }

  /** Hears every preset written or deleted, whoever wrote it (the window's editor, an extension, an import). */
  onChange(listener: (change: PresetChange) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Lumiverse's page: 50 by default, 200 at most. */
  list(options: { limit?: number; offset?: number } = {}): { data: PresetDto[]; total: number } {
    const limit = Math.min(200, Math.max(1, Math.floor(options.limit ?? 50)));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const rows = this.sql.page.all(limit, offset) as Array<[string, number]>;
    return { data: rows.map(([doc, revision]) => this.dto(doc, revision)), total: (this.sql.count.get() as [number])[0] };
  }

  get(id: string): PresetDto | null {
    const row = this.sql.one.get(id) as [string, number] | undefined;
    return row ? this.dto(row[0], row[1]) : null;
  }

  create(input: PresetCreate): PresetDto {
    const now = this.seconds();
    const preset = presetDoc({ ...input, id: randomUUID(), created_at: now, updated_at: now });
    this.write(() => this.insert(preset));
    return this.announced({ ...preset, cache_revision: 0 });
  }

  /** Changes the fields given, if the preset is still at `expected_cache_revision`. */
  update(id: string, input: PresetUpdate): PresetDto {
    let wrote = false;
    const after = this.write(() => {
      const current = this.get(id) ?? fail('NOT_FOUND', `There is no preset ${id}.`, { path: '/presetId' });
      if (input.expected_cache_revision !== current.cache_revision) {
        // Lumiverse's words and fields: extensions retry with actualCacheRevision.
        fail('PRESET_REVISION_CONFLICT', `Preset ${id} changed since revision ${input.expected_cache_revision}; current revision is ${current.cache_revision}`, {
          path: '/input/expected_cache_revision',
          detail: { presetId: id, expectedCacheRevision: input.expected_cache_revision, actualCacheRevision: current.cache_revision },
        });
      }
      // Only the preset's own fields, as Lumiverse writes its named columns: anything else an extension sends is not kept.
      const changed = EDITABLE.filter((field) => input[field] !== undefined);
      const { prompt_order } = input;
      if (!changed.length && !prompt_order) return current;
      const next: PresetDto = { ...current, updated_at: this.seconds(), cache_revision: current.cache_revision + 1 };
      for (const field of changed) Object.assign(next, { [field]: input[field] });
      if (prompt_order) next.prompt_order = normalizeBlocks(prompt_order);
      if (prompt_order || input.metadata) next.metadata = pruneVariableValues(next.prompt_order, next.metadata);
      const { cache_revision: _next, ...doc } = next;
      this.sql.write.run(next.updated_at, this.json(doc), id);
      wrote = true;
      return next;
    });
    return wrote ? this.announced(after) : after;
  }

  /** Every preset, by id (a backup's). */
  all(): PresetDto[] {
    const out: PresetDto[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = this.list({ limit: 200, offset });
      out.push(...page.data);
      if (page.data.length < 200) break;
    }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * A preset as a backup has it, under its own id: written over one of that id (a change of it, its revision on), or
   * added. Its blocks are normalized as any preset's are.
   */
  restore(preset: PresetDto): PresetDto {
    let wrote = true;
    const after = this.write(() => {
      const current = this.get(preset.id);
      const doc = presetDoc(preset);
      if (current) {
        // The same preset again (a backup restored twice) is no change: its revision stays.
        const { cache_revision: revision, ...was } = current;
        if (JSON.stringify(was) === JSON.stringify(doc)) {
          wrote = false;
          return current;
        }
        this.sql.write.run(preset.updated_at, this.json(doc), preset.id);
        return { ...doc, cache_revision: revision + 1 };
      }
      this.insert(doc);
      return { ...doc, cache_revision: 0 };
    });
    return wrote ? this.announced(after) : after;
  }

  delete(id: string): boolean {
    const deleted = this.write(() => this.sql.remove.run(id).changes > 0);
    if (deleted) this.tell({ kind: 'deleted', id });
    return deleted;
  }

  blocks(id: string): PromptBlock[] | null {
    return this.get(id)?.prompt_order ?? null;
  }

  /** Inserts a block at `index` (clamped; the end when absent). */
  createBlock(id: string, input: Record<string, unknown>, index?: number): PromptBlock {
    const block = normalizeBlock(input);
    this.changeBlocks(id, (blocks) => {
      const at = typeof index === 'number' && Number.isFinite(index) ? Math.max(0, Math.min(blocks.length, Math.floor(index))) : blocks.length;
      blocks.splice(at, 0, block);
    });
    return block;
  }

  updateBlock(id: string, blockId: string, input: Record<string, unknown>): PromptBlock {
    let updated: PromptBlock | undefined;
    this.changeBlocks(id, (blocks) => {
      const at = blocks.findIndex((b) => b.id === blockId);
      if (at < 0) fail('NOT_FOUND', `Preset ${id} has no block ${blockId}.`, { path: '/blockId' });
      updated = normalizeBlock({ ...blocks[at], ...input, id: blockId });
      blocks[at] = updated;
    });
    return updated!;
  }

  /** False when the preset or the block is not there (Lumiverse's answer for either). */
  deleteBlock(id: string, blockId: string): boolean {
    if (!this.get(id)) return false;
    let found = false;
    this.changeBlocks(id, (blocks) => {
      const at = blocks.findIndex((b) => b.id === blockId);
      found = at >= 0;
      if (found) blocks.splice(at, 1);
    });
    return found;
  }

  categories(id: string) {
    const blocks = this.blocks(id);
    return blocks ? categoryGroups(blocks) : null;
  }

  /** A block change is an update of the preset at the revision it was read at, in one transaction. */
  private changeBlocks(id: string, change: (blocks: PromptBlock[]) => void): void {
    this.write(() => {
      const preset = this.get(id) ?? fail('NOT_FOUND', `There is no preset ${id}.`, { path: '/presetId' });
      const blocks = [...preset.prompt_order];
      const before = blocks.length;
      change(blocks);
      // A delete of a block that is not there changes nothing.
      if (blocks.length === before && blocks.every((b, i) => b === preset.prompt_order[i])) return;
      this.update(id, { prompt_order: blocks, expected_cache_revision: preset.cache_revision });
    });
  }

  /** A new row (within a write), if the store has room for one more. */
  private insert(doc: Omit<PresetDto, 'cache_revision'>): void {
    if ((this.sql.count.get() as [number])[0] >= PRESET_LIMITS.maxPresets) fail('QUOTA_EXCEEDED', `At most ${PRESET_LIMITS.maxPresets} presets are kept.`);
    this.sql.insert.run(doc.id, doc.created_at, doc.updated_at, this.json(doc));
  }

  private announced(preset: PresetDto): PresetDto {
    this.tell({ kind: 'changed', preset });
    return preset;
  }

  /** Tells every listener; one that throws is its own trouble, never the writer's (the write is done). */
  private tell(change: PresetChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        console.error('A preset change listener failed:', err);
      }
    }
  }

  private json(doc: object): string {
    const text = JSON.stringify(doc);
    if (Buffer.byteLength(text) > PRESET_LIMITS.maxPresetBytes) fail('INPUT_TOO_LARGE', `A preset holds at most ${PRESET_LIMITS.maxPresetBytes} bytes.`, { path: '/input' });
    return text;
  }

  private dto(doc: string, revision: number): PresetDto {
    return { ...(JSON.parse(doc) as Omit<PresetDto, 'cache_revision'>), cache_revision: revision };
  }

}
